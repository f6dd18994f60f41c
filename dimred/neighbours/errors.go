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
)
