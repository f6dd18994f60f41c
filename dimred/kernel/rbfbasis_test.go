package kernel

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestGrid(t *testing.T) {
	G := Grid([]float64{-1, 0}, []float64{1, 4}, 3)
	want := mat.NewDense(9, 2, []float64{
		-1, 0, 0, 0, 1, 0,
		-1, 2, 0, 2, 1, 2,
		-1, 4, 0, 4, 1, 4,
	})
	if !mat.Equal(G, want) {
		t.Errorf("Grid = %v, want %v", mat.Formatted(G), mat.Formatted(want))
	}
	if c := Grid([]float64{-1}, []float64{3}, 1); c.At(0, 0) != 1 {
		t.Errorf("one-point grid at %v, want the centre 1", c.At(0, 0))
	}
}

// JacobianTo against central finite differences of FeaturesTo.
func TestEQBasisJacobian(t *testing.T) {
	b := EQBasis{Centres: mat.NewDense(3, 2, []float64{0, 0, 1, -1, -0.5, 2}), LengthScale: 1.3}
	x := []float64{0.4, 0.7}
	var J mat.Dense
	b.JacobianTo(&J, x)
	const h = 1e-6
	for l := 0; l < 2; l++ {
		xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
		xp[l] += h
		xm[l] -= h
		var fp, fm mat.Dense
		b.FeaturesTo(&fp, mat.NewDense(1, 2, xp))
		b.FeaturesTo(&fm, mat.NewDense(1, 2, xm))
		for j := 0; j < 3; j++ {
			fd := (fp.At(0, j) - fm.At(0, j)) / (2 * h)
			if math.Abs(fd-J.At(j, l)) > 1e-8 {
				t.Errorf("∂φ_%d/∂x_%d = %v, finite difference %v", j, l, J.At(j, l), fd)
			}
		}
	}
}
