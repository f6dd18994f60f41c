package dimred

import "github.com/dimredbook/book/dimred/internal/errs"

// Sentinel errors. Returned errors wrap one of these with context, so test
// with errors.Is. They are the same values as those of the core packages
// (linalg.ErrNaN, neighbours.ErrDisconnected, ...), so errors.Is works for
// errors raised anywhere below dimred.
var (
	// ErrNaN reports a NaN or ±Inf in input data.
	ErrNaN = errs.ErrNaN
	// ErrOverflow reports an intermediate result that overflowed although
	// every input entry was finite (rescale the data).
	ErrOverflow = errs.ErrOverflow
	// ErrTooFewPoints reports too few observations for the requested model.
	ErrTooFewPoints = errs.ErrTooFewPoints
	// ErrNotConverged reports an iterative method that stopped before
	// reaching its tolerance.
	ErrNotConverged = errs.ErrNotConverged
	// ErrSingular reports a matrix that is singular to working precision.
	ErrSingular = errs.ErrSingular
	// ErrDisconnected reports a neighbourhood graph with more than one
	// connected component where the method needs a connected graph.
	ErrDisconnected = errs.ErrDisconnected
	// ErrNotDistance reports a matrix that is not a valid distance matrix
	// (not symmetric, negative or non-zero diagonal entries).
	ErrNotDistance = errs.ErrNotDistance
)
