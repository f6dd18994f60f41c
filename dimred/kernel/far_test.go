package kernel

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Inputs 1e300 apart: k = 0 and so are its derivatives (k·r²/ℓ² → 0); the
// gradients were NaN from 0·Inf.
func TestRBFGradientsFarApartFinite(t *testing.T) {
	X := mat.NewDense(3, 1, []float64{-1e300, 0, 1e300})
	G := mat.NewSymDense(3, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1})
	s := Sum{&RBF{Variance: 1, LengthScale: 1}, &Bias{Variance: 0.1}, &White{Variance: 0.1}}
	g := make([]float64, s.NumParams())
	s.ParamGrad(g, G, X)
	for i, v := range g {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("ParamGrad[%d] = %v", i, v)
		}
	}
	dst := mat.NewDense(3, 1, nil)
	(&RBF{Variance: 1, LengthScale: 1}).LatentGrad(dst, G, X)
	for i := 0; i < 3; i++ {
		if v := dst.At(i, 0); math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("LatentGrad[%d] = %v", i, v)
		}
	}
	gc := make([]float64, 2)
	dA, dB := mat.NewDense(3, 1, nil), mat.NewDense(3, 1, nil)
	(&RBF{Variance: 1, LengthScale: 1}).CrossGrad(gc, dA, dB, mat.NewDense(3, 3, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}), X, X)
	for i, v := range append(gc, append(dA.RawMatrix().Data, dB.RawMatrix().Data...)...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("CrossGrad output %d = %v", i, v)
		}
	}
}
