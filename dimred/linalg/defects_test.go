package linalg

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// nanOp is an operator whose products hold a NaN: the solver must say
// ErrNaN, not "not converged".
type nanOp struct{ n int }

func (o nanOp) Size() int { return o.n }
func (o nanOp) MulVecTo(dst, x []float64) {
	for i := range dst {
		dst[i] = x[i]
	}
	dst[o.n/2] = math.NaN()
}

func TestEigenSymOpNaNProduct(t *testing.T) {
	for _, n := range []int{300, 2000} {
		for _, m := range []EigenMethod{EigenAuto, EigenLanczos} {
			_, _, err := EigenSymOp(nanOp{n}, 2, Largest, &EigenSettings{Method: m})
			if !errors.Is(err, ErrNaN) || errors.Is(err, ErrNotConverged) {
				t.Errorf("n = %d, method %d: err = %v, want ErrNaN", n, m, err)
			}
		}
	}
	// A dense matrix with a NaN through the public operator path.
	a := mat.NewSymDense(300, nil)
	for i := 0; i < 300; i++ {
		a.SetSym(i, i, float64(i+1))
	}
	a.SetSym(3, 7, math.NaN())
	if _, _, err := EigenSymOp(DenseOperator(a), 3, Largest, nil); !errors.Is(err, ErrNaN) {
		t.Errorf("DenseOperator with a NaN: err = %v, want ErrNaN", err)
	}
}

// Extreme-scale input whose products overflow: representable results are
// returned, others are ErrOverflow, never "NaN or Inf in input".
func TestOverflowOnFiniteInput(t *testing.T) {
	// TruncatedSVD on a finite A whose AᵀA overflows: the singular
	// values (≈ 1e300) are representable, so every path must return them.
	A := mat.NewDense(400, 300, nil)
	for i := 0; i < 300; i++ {
		A.Set(i, i, float64(i+1))
	}
	A.Set(5, 0, 1e300)
	A.Set(6, 1, 2e299)
	for _, m := range []SVDMethod{SVDExact, SVDRandomized, SVDDense} {
		sv, _, _, err := TruncatedSVD(A, 2, &SVDSettings{Method: m})
		if err != nil || math.Abs(sv[0]-1e300) > 1e-9*1e300 || math.Abs(sv[1]-2e299) > 1e-9*2e299 {
			t.Errorf("TruncatedSVD method %d of a 1e300 entry: %v, %v; want [1e300 2e299]", m, sv, err)
		}
	}
	// Singular values beyond float64 are ErrOverflow, not +Inf.
	B := mat.NewDense(2, 2, []float64{1.5e308, 1.5e308, 1.5e308, 1.5e308})
	if sv, _, _, err := TruncatedSVD(B, 1, nil); !errors.Is(err, ErrOverflow) {
		t.Errorf("σ = 3e308: %v, %v; want ErrOverflow", sv, err)
	}
}
