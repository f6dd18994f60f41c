package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// CrossGrad and DiagGrad against central differences of CrossGramTo and
// DiagTo, for every CrossParamKernel, with a random contraction matrix.
func TestCrossGradFiniteDifferences(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 5))
	randDense := func(r, c int) *mat.Dense {
		d := mat.NewDense(r, c, nil)
		for i := range r {
			for j := range c {
				d.Set(i, j, rnd.NormFloat64())
			}
		}
		return d
	}
	n, m, q := 7, 4, 3
	A, B, G := randDense(n, q), randDense(m, q), randDense(n, m)
	w := make([]float64, n)
	for i := range w {
		w[i] = rnd.NormFloat64()
	}
	kernels := map[string]func() CrossParamKernel{
		"GradRBF": func() CrossParamKernel { return &RBF{Variance: 1.3, LengthScale: 0.8} },
		"Bias":    func() CrossParamKernel { return &Bias{Variance: 0.4} },
		"White":   func() CrossParamKernel { return &White{Variance: 0.2} },
		"Linear":  func() CrossParamKernel { return &Linear{Variance: 0.7} },
		"Sum": func() CrossParamKernel {
			return Sum{&RBF{Variance: 1.3, LengthScale: 0.8}, &Linear{Variance: 0.7}, &Bias{Variance: 0.4}}
		},
	}
	// f = Σ_ij G_ij K_ij + Σ_i w_i k(a_i, a_i), a scalar of A, B and θ.
	f := func(k CrossParamKernel, A, B *mat.Dense) float64 {
		var K mat.Dense
		k.CrossGramTo(&K, A, B)
		d := k.DiagTo(nil, A)
		s := 0.0
		for i := range n {
			for j := range m {
				s += G.At(i, j) * K.At(i, j)
			}
			s += w[i] * d[i]
		}
		return s
	}
	const h, tol = 1e-6, 1e-6
	for name, mk := range kernels {
		t.Run(name, func(t *testing.T) {
			k := mk()
			g := make([]float64, k.NumParams())
			dA, dB := mat.NewDense(n, q, nil), mat.NewDense(m, q, nil)
			k.CrossGrad(g, dA, dB, G, A, B)
			k.DiagGrad(g, dA, w, A)
			check := func(what string, got float64, bump func(d float64)) {
				bump(h)
				fp := f(k, A, B)
				bump(-2 * h)
				fm := f(k, A, B)
				bump(h)
				fd := (fp - fm) / (2 * h)
				if math.Abs(got-fd) > tol*math.Max(1, math.Abs(fd)) {
					t.Errorf("%s: analytic %.9g, finite difference %.9g", what, got, fd)
				}
			}
			theta := k.Params(nil)
			for i := range theta {
				check("θ", g[i], func(d float64) { theta[i] += d; k.SetParams(theta) })
			}
			for _, mt := range []struct {
				name string
				M, D *mat.Dense
			}{{"A", A, dA}, {"B", B, dB}} {
				r, c := mt.M.Dims()
				for i := range r {
					for j := range c {
						check(mt.name, mt.D.At(i, j), func(d float64) { mt.M.Set(i, j, mt.M.At(i, j)+d) })
					}
				}
			}
		})
	}
}
