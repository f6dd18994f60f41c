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
