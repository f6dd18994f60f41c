// Package errs holds the sentinel errors shared by every dimred package and
// the finiteness check that raises ErrNaN. The public packages re-export the
// sentinels (dimred.ErrNaN == linalg.ErrNaN == errs.ErrNaN), so errors.Is
// works whichever package raised the error.
package errs

import (
	"errors"
	"fmt"
	"math"
	"strings"

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

// CheckOverflow is CheckFinite for a matrix computed from finite input (a
// covariance, Gram or distance matrix): it returns an error wrapping
// ErrOverflow naming the first non-finite entry, or nil. A *mat.SymDense
// is read from its stored upper triangle.
func CheckOverflow(m mat.Matrix, what string) error {
	if s, ok := m.(*mat.SymDense); ok {
		raw := s.RawSymmetric()
		for i := 0; i < raw.N; i++ {
			for j, v := range raw.Data[i*raw.Stride+i : i*raw.Stride+raw.N] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return Overflowf("%s[%d,%d] = %v", what, i, i+j, v)
				}
			}
		}
		return nil
	}
	if err := CheckFinite(m, what); err != nil {
		// Re-wrap: the entry is named by CheckFinite's context.
		return Overflowf("%s", strings.TrimPrefix(err.Error(), ErrNaN.Error()+": "))
	}
	return nil
}

// Overflowf returns an error wrapping ErrOverflow with the formatted
// context and the advice to rescale the data.
func Overflowf(format string, args ...any) error {
	return fmt.Errorf("%w: %s (every input entry is finite; rescale the data)", ErrOverflow, fmt.Sprintf(format, args...))
}

// Wrap returns err with context prepended, keeping errors.Is and errors.As:
// "dimred: <context>: <err>", where a leading "dimred: " of err's message
// is dropped so that the prefix appears once.
func Wrap(err error, context string) error {
	if err == nil {
		return nil
	}
	return &wrapped{msg: "dimred: " + context + ": " + strings.TrimPrefix(err.Error(), "dimred: "), err: err}
}

type wrapped struct {
	msg string
	err error
}

func (e *wrapped) Error() string { return e.msg }
func (e *wrapped) Unwrap() error { return e.err }
