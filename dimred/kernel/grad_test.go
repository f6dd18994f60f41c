package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// f(θ, X) = Σ_ij G_ij K_ij(θ, X) for a fixed symmetric G, whose gradients
// are exactly ParamGrad and LatentGrad; both are checked against central
// finite differences.
func TestParamKernelGradients(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	n, q := 7, 2
	X := mat.NewDense(n, q, nil)
	for i := range n {
		for d := range q {
			X.Set(i, d, rnd.NormFloat64())
		}
	}
	G := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			G.SetSym(i, j, rnd.NormFloat64())
		}
	}
	f := func(k ParamKernel, X mat.Matrix) float64 {
		var K mat.SymDense
		k.GramTo(&K, X)
		var s float64
		for i := range n {
			for j := range n {
				s += G.At(i, j) * K.At(i, j)
			}
		}
		return s
	}
	for _, c := range []struct {
		name string
		k    ParamKernel
	}{
		{"RBF", &RBF{Variance: 1.3, LengthScale: 0.7}},
		{"Bias", &Bias{Variance: 0.2}},
		{"White", &White{Variance: 0.1}},
		{"Sum", Sum{&RBF{Variance: 1.3, LengthScale: 0.7}, &Bias{Variance: 0.2}, &White{Variance: 0.1}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			th := c.k.Params(nil)
			g := make([]float64, len(th))
			c.k.ParamGrad(g, G, X)
			const h = 1e-6
			for i := range th {
				tp := append([]float64(nil), th...)
				tp[i] += h
				c.k.SetParams(tp)
				fp := f(c.k, X)
				tp[i] -= 2 * h
				c.k.SetParams(tp)
				fm := f(c.k, X)
				c.k.SetParams(th)
				fd := (fp - fm) / (2 * h)
				if math.Abs(fd-g[i]) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Errorf("θ[%d] (%s): analytic %.10g, finite difference %.10g", i, c.k.ParamNames()[i], g[i], fd)
				}
			}
			dX := mat.NewDense(n, q, nil)
			c.k.LatentGrad(dX, G, X)
			for i := range n {
				for d := range q {
					Xp := mat.DenseCopyOf(X)
					Xp.Set(i, d, X.At(i, d)+h)
					fp := f(c.k, Xp)
					Xp.Set(i, d, X.At(i, d)-h)
					fm := f(c.k, Xp)
					fd := (fp - fm) / (2 * h)
					if math.Abs(fd-dX.At(i, d)) > 1e-6*math.Max(1, math.Abs(fd)) {
						t.Errorf("x[%d,%d]: analytic %.10g, finite difference %.10g", i, d, dX.At(i, d), fd)
					}
				}
			}
		})
	}
}

// *RBF's Gram is the closed form, and Sum's Gram is the sum of its terms'.
func TestParamKernelGram(t *testing.T) {
	X := mat.NewDense(3, 1, []float64{0, 1, 3})
	var K mat.SymDense
	Sum{&RBF{Variance: 2, LengthScale: 1}, &Bias{Variance: 0.5}, &White{Variance: 0.25}}.GramTo(&K, X)
	want := [][]float64{
		{2 + 0.5 + 0.25, 2*math.Exp(-0.5) + 0.5, 2*math.Exp(-4.5) + 0.5},
		{0, 2.75, 2*math.Exp(-2) + 0.5},
		{0, 0, 2.75},
	}
	for i := range 3 {
		for j := i; j < 3; j++ {
			if math.Abs(K.At(i, j)-want[i][j]) > 1e-14 {
				t.Errorf("K[%d,%d] = %v, want %v", i, j, K.At(i, j), want[i][j])
			}
		}
	}
}

// One RBF type for both uses (it replaced GradRBF): the zero Variance is
// σ² = 1 for the gradients as for Eval, Params reports log 1 = 0, and
// SetParams(Params()) leaves the kernel's values unchanged.
func TestRBFZeroVarianceParams(t *testing.T) {
	k := &RBF{LengthScale: 2}
	th := k.Params(nil)
	if th[0] != 0 || th[1] != math.Log(2) {
		t.Errorf("Params = %v, want [0 log 2]", th)
	}
	X := mat.NewDense(2, 1, []float64{0, 1})
	var K mat.SymDense
	k.GramTo(&K, X)
	want := RBF{LengthScale: 2}.Eval([]float64{0}, []float64{1})
	if K.At(0, 1) != want || K.At(0, 0) != 1 {
		t.Errorf("Gram %v, want k_01 = %v and k_00 = 1", mat.Formatted(&K), want)
	}
	G := mat.NewSymDense(2, []float64{1, 1, 1, 1})
	g := make([]float64, 2)
	k.ParamGrad(g, G, X)
	// ∂/∂log σ² of Σ_ij K_ij = Σ_ij K_ij = 2 + 2k_01.
	if want := 2 + 2*K.At(0, 1); math.Abs(g[0]-want) > 1e-15 {
		t.Errorf("ParamGrad[0] = %v, want %v", g[0], want)
	}
	k.SetParams(th)
	if k.Variance != 1 || k.LengthScale != 2 {
		t.Errorf("SetParams(Params()) gave %+v", *k)
	}
}

// One Linear type for both uses (GradLinear is now its alias): the zero
// Variance is σ² = 1 everywhere, a Variance scales every product, and the
// parameter gradient is Σ_ij G_ij K_ij.
func TestLinearVariance(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{1, 2, -1, 0.5, 3, -2})
	var K1, K2, K3 mat.SymDense
	Gram(&K1, Linear{}, X)
	Gram(&K2, Linear{Variance: 2}, X)
	(&Linear{Variance: 2}).GramTo(&K3, X)
	for i := range 3 {
		for j := i; j < 3; j++ {
			want := X.At(i, 0)*X.At(j, 0) + X.At(i, 1)*X.At(j, 1)
			if K1.At(i, j) != want || K2.At(i, j) != 2*want || K3.At(i, j) != 2*want {
				t.Errorf("K[%d,%d] = %v, %v, %v; want %v, %v, %v", i, j, K1.At(i, j), K2.At(i, j), K3.At(i, j), want, 2*want, 2*want)
			}
		}
	}
	if v := (Linear{Variance: 2}).Eval([]float64{1, 2}, []float64{3, 4}); v != 22 {
		t.Errorf("Eval = %v, want 22", v)
	}
	k := &Linear{}
	if th := k.Params(nil); th[0] != 0 {
		t.Errorf("Params of the zero Linear = %v, want [0]", th)
	}
	G := mat.NewSymDense(3, []float64{1, 0.5, 0, 0.5, 2, 1, 0, 1, 3})
	g := make([]float64, 1)
	k.ParamGrad(g, G, X)
	var want float64
	for i := range 3 {
		for j := range 3 {
			want += G.At(i, j) * K1.At(i, j)
		}
	}
	if math.Abs(g[0]-want) > 1e-13*math.Abs(want) {
		t.Errorf("ParamGrad = %v, want %v", g[0], want)
	}
	if msg := func() (msg string) {
		defer func() { msg = fmt.Sprint(recover()) }()
		Linear{Variance: -1}.Eval([]float64{1}, []float64{1})
		return ""
	}(); !strings.HasPrefix(msg, "dimred: Linear.Variance") {
		t.Errorf("negative variance: panic %q", msg)
	}
}
