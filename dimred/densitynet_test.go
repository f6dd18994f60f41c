package dimred

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// The analytic gradient of the sample-based objective, weight decay
// included, against central finite differences, for both activations.
func TestDensityNetworkGradient(t *testing.T) {
	Y := gtmTestData(30, 9)
	rnd := rand.New(rand.NewPCG(3, 3))
	for _, act := range []Activation{Tanh, Sigmoid} {
		n, p := Y.Dims()
		d := &dnProblem{
			y: Y, xhat: mat.NewDense(7, 2, nil), yy: linalg.RowSquaredNorms(Y),
			h: 4, act: act, alpha: 0.7, n: n, p: p, q: 2, m: 7,
			r: mat.NewDense(n, 7, nil), z: mat.NewDense(7, 4, nil), hd: mat.NewDense(7, 4, nil), f: mat.NewDense(7, p, nil),
		}
		d.sumYY = floats.Sum(d.yy)
		for i := range d.xhat.RawMatrix().Data {
			d.xhat.RawMatrix().Data[i] = rnd.NormFloat64()
		}
		theta := make([]float64, d.numParams())
		for i := range theta {
			theta[i] = 0.5 * rnd.NormFloat64()
		}
		theta[len(theta)-1] = 1.5 // log β
		grad := make([]float64, len(theta))
		d.eval(grad, theta)
		const h = 1e-5
		for k := range theta {
			tp, tm := append([]float64(nil), theta...), append([]float64(nil), theta...)
			tp[k] += h
			tm[k] -= h
			fd := (d.eval(nil, tp) - d.eval(nil, tm)) / (2 * h)
			if math.Abs(fd-grad[k]) > 1e-6*(1+math.Abs(fd)) {
				t.Errorf("activation %d: ∂L/∂θ_%d = %v, finite difference %v", act, k, grad[k], fd)
			}
		}
	}
}

func TestDensityNetworkFit(t *testing.T) {
	Y := gtmTestData(100, 10)
	var L []float64
	m := &DensityNetwork{Q: 2, Samples: 50, Hidden: 6, MaxIter: 100,
		Monitor: func(_ int, l float64) bool { L = append(L, l); return false }}
	fitOK(t, m.Fit(Y))
	if len(L) < 2 || L[len(L)-1] <= L[0] {
		t.Fatalf("objective did not rise: %v", L)
	}
	var R mat.Dense
	m.ResponsibilitiesTo(&R, Y)
	for i := 0; i < 100; i++ {
		if s := floats.Sum(R.RawRowView(i)); math.Abs(s-1) > 1e-12 {
			t.Errorf("row %d of R sums to %v", i, s)
		}
	}
	var X, P mat.Dense
	m.LatentTo(&X)
	m.ProjectTo(&P, Y)
	if d := maxAbsDiff(&X, &P); d > 1e-12 {
		t.Errorf("ProjectTo(training data) differs from LatentTo by %g", d)
	}
	// The latent means lie inside the hull of the samples: |x| ≤ max |x̂|.
	var S mat.Dense
	m.SamplesTo(&S)
	if mat.Norm(&X, math.Inf(1)) > mat.Norm(&S, math.Inf(1))+1e-12 {
		t.Error("posterior mean outside the samples' range")
	}
}
