package neighbours

import "github.com/dimredbook/book/dimred/internal/errs"

// Sentinel errors raised by the package; they are the same values as
// dimred's, so errors.Is(err, dimred.ErrDisconnected) holds for errors
// raised here.
var (
	// ErrNaN reports a NaN or ±Inf in input data.
	ErrNaN = errs.ErrNaN
	// ErrDisconnected reports a graph with more than one connected
	// component where a connected graph is needed; the error is a
	// *DisconnectedError.
	ErrDisconnected = errs.ErrDisconnected
	// ErrOverflow reports a result that overflowed although the input
	// was finite: the data's scale is beyond float64 for it.
	ErrOverflow = errs.ErrOverflow
	// ErrTooFewPoints reports a graph or data set with too few points.
	ErrTooFewPoints = errs.ErrTooFewPoints
	// ErrNotDistance reports a graph whose edge weights are not lengths
	// (a negative or NaN weight).
	ErrNotDistance = errs.ErrNotDistance
)
