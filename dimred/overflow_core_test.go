package dimred

import (
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Squared distances of finite data at scale 1e200 overflow: the error
// names the overflow (ErrOverflow), not a NaN in the caller's Y.
func TestClassicalMDSOverflowNamed(t *testing.T) {
	Y := mat.NewDense(4, 2, []float64{1e200, 0, -1e200, 1, 0, 2, 3, 1})
	err := (&ClassicalMDS{Q: 1}).Fit(Y)
	if !errors.Is(err, ErrOverflow) || errors.Is(err, ErrNaN) {
		t.Fatalf("err = %v, want ErrOverflow", err)
	}
}

// The same for PCA's covariance and inner-product paths: a 1e200 column
// overflows S = n⁻¹ŶᵀŶ (and ŶŶᵀ) although Y is finite.
func TestPCAOverflowNamed(t *testing.T) {
	Y := mat.NewDense(5, 3, []float64{1e200, 0, 1, -1e200, 1, 0, 0, 2, 1, 3, 1, 0, 1e200, 0, 2})
	for _, m := range []PCAMethod{PCACovariance, PCAGram} {
		err := (&PCA{Q: 1, Method: m}).Fit(Y)
		if !errors.Is(err, ErrOverflow) || errors.Is(err, ErrNaN) {
			t.Errorf("method %d: err = %v, want ErrOverflow", m, err)
		}
	}
}
