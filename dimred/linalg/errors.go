package linalg

import "github.com/dimredbook/book/dimred/internal/errs"

// Sentinel errors raised by the package; they are the same values as
// dimred's, so errors.Is(err, dimred.ErrNaN) holds for errors raised here.
var (
	// ErrNaN reports a NaN or ±Inf in an input matrix or operator product.
	ErrNaN = errs.ErrNaN
	// ErrNotConverged reports an eigensolver that stopped before reaching
	// its tolerance; the error is a *NotConvergedError.
	ErrNotConverged = errs.ErrNotConverged
	// ErrOverflow reports a matrix formed by the package (distances, a
	// Gram matrix, operator products) that overflowed to ±Inf although the
	// input was finite.
	ErrOverflow = errs.ErrOverflow
)
