package linalg

import (
	"fmt"
	"strings"

	"github.com/dimredbook/book/dimred/internal/errs"

	"gonum.org/v1/gonum/mat"
)

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

// CheckFormed returns nil if every entry of a is finite and otherwise an
// error wrapping ErrOverflow that names the first non-finite entry. Use it
// on a matrix formed from input already checked to be finite (squared
// distances, a Gram or covariance matrix): a non-finite entry there is an
// overflow of the data's scale, not a NaN in the caller's data, and the
// error says so (rescale the data).
func CheckFormed(a mat.Matrix, what string) error {
	var err error
	if s, ok := a.(mat.Symmetric); ok {
		err = checkFiniteSym(s, what)
	} else {
		err = errs.CheckFinite(a, what)
	}
	if err == nil {
		return nil
	}
	entry := strings.TrimPrefix(err.Error(), ErrNaN.Error()+": ")
	return fmt.Errorf("%w: %s (formed from finite input; rescale the data)", ErrOverflow, entry)
}
