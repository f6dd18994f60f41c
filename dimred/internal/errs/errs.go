// Package errs holds the sentinel errors shared by every dimred package and
// the finiteness check that raises ErrNaN. The public packages re-export the
// sentinels (dimred.ErrNaN == linalg.ErrNaN == errs.ErrNaN), so errors.Is
// works whichever package raised the error.
package errs

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Sentinel errors. Returned errors wrap one of these with context, so test
// with errors.Is.
var (
	// ErrNaN reports a NaN or ±Inf in input data.
	ErrNaN = errors.New("dimred: NaN or Inf in input")
	// ErrOverflow reports an intermediate result that overflowed to ±Inf
	// (or became NaN) although every input entry was finite: the data's
	// scale is beyond float64 for this computation (rescale it).
	ErrOverflow = errors.New("dimred: overflow on finite input")
	// ErrTooFewPoints reports too few observations for the requested model.
	ErrTooFewPoints = errors.New("dimred: too few points")
	// ErrNotConverged reports an iterative method that stopped before
	// reaching its tolerance.
	ErrNotConverged = errors.New("dimred: not converged")
	// ErrSingular reports a matrix that is singular to working precision.
	ErrSingular = errors.New("dimred: singular matrix")
	// ErrDisconnected reports a neighbourhood graph with more than one
	// connected component where the method needs a connected graph.
	ErrDisconnected = errors.New("dimred: disconnected neighbourhood graph")
	// ErrNotDistance reports a matrix that is not a valid distance matrix
	// (not symmetric, negative or non-zero diagonal entries).
	ErrNotDistance = errors.New("dimred: not a distance matrix")
)

// CheckFinite returns an error wrapping ErrNaN naming the first non-finite
// entry of m, or nil.
func CheckFinite(m mat.Matrix, what string) error {
	r, c := m.Dims()
	if rm, ok := m.(mat.RawMatrixer); ok {
		// dense fast path: scan the backing rows without interface calls
		raw := rm.RawMatrix()
		for i := 0; i < r; i++ {
			for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+c] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("%w: %s[%d,%d] = %v", ErrNaN, what, i, j, v)
				}
			}
		}
		return nil
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v := m.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: %s[%d,%d] = %v", ErrNaN, what, i, j, v)
			}
		}
	}
	return nil
}
