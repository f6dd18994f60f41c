package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// book Figs 4.1–4.4: three EQ basis functions at −1, 0, 1 with ℓ = 1.
func kpBookBasis() EQBasis {
	return EQBasis{Centres: mat.NewDense(3, 1, []float64{-1, 0, 1}), LengthScale: 1}
}

func kpFeatures1D(b FeatureMap, ys ...float64) *mat.Dense {
	var f mat.Dense
	b.FeaturesTo(&f, mat.NewDense(len(ys), 1, ys))
	return &f
}

func kpSqDist(f *mat.Dense, i, j int) float64 {
	_, m := f.Dims()
	s := 0.0
	for k := 0; k < m; k++ {
		d := f.At(i, k) - f.At(j, k)
		s += d * d
	}
	return s
}

func TestEQBasisBookValues(t *testing.T) {
	b := kpBookBasis()
	// F4.1: φ(μ) = 1, φ(μ ± ℓ) = e⁻¹ in the book's form exp(−(y−μ)²/ℓ²).
	f := kpFeatures1D(b, 0, 1, -1)
	for _, c := range []struct {
		i, j int
		want float64
	}{{0, 1, 1}, {1, 1, math.Exp(-1)}, {2, 1, math.Exp(-1)}, {1, 2, 1}, {0, 0, math.Exp(-1)}} {
		if got := f.At(c.i, c.j); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("φ_%d(y_%d) = %v, want %v", c.j, c.i, got, c.want)
		}
	}
	// F4.2: ‖φ(−0.5) − φ(0.5)‖² = 0.9069 (catalog §2.2, VERIFIED).
	f = kpFeatures1D(b, -0.5, 0.5)
	if got := kpSqDist(f, 0, 1); math.Abs(got-0.9069) > 5e-5 {
		t.Errorf("‖φ(−½) − φ(½)‖² = %.6f, want 0.9069", got)
	}
	// Monte Carlo: ⟨(f_i − f_j)²⟩ with w ~ N(0, I₃) (book §4.1).
	rng := rand.New(rand.NewPCG(1, 2))
	s := 0.0
	const draws = 200000
	for r := 0; r < draws; r++ {
		d := 0.0
		for k := 0; k < 3; k++ {
			d += rng.NormFloat64() * (f.At(0, k) - f.At(1, k))
		}
		s += d * d
	}
	if mc := s / draws; math.Abs(mc-0.9069)/0.9069 > 0.01 {
		t.Errorf("Monte Carlo ⟨(f_i − f_j)²⟩ = %.4f, want 0.9069 within 1%%", mc)
	}
	// F4.3: far from the centres the basis decays: max φ on |y| ≥ 4 < 1.3e-4.
	f = kpFeatures1D(b, 4, -4)
	if got := mat.Max(f); got >= 1.3e-4 {
		t.Errorf("max φ on |y| ≥ 4 = %v, want < 1.3e-4", got)
	}
	// F4.4: ‖φ(−4) − φ(4)‖² = 3.05e-8.
	if got := kpSqDist(f, 0, 1); math.Abs(got-3.05e-8) > 0.005e-8 {
		t.Errorf("‖φ(−4) − φ(4)‖² = %.4g, want 3.05e-8", got)
	}
	// F4.5: with the infinite basis (EQ kernel, unit variance) the squared
	// distance is 2 − 2k(−4, 4) = 2.0000.
	k := RBF{LengthScale: 1}
	if got := 2 - 2*k.Eval([]float64{-4}, []float64{4}); math.Abs(got-2) > 5e-5 {
		t.Errorf("2 − 2k(−4,4) = %v, want 2.0000", got)
	}
}

func TestFeatureKernelDistances(t *testing.T) {
	// γ‖φ_i − φ_j‖² equals the implied distance of FeatureKernel.
	b := kpBookBasis()
	fk := FeatureKernel{Map: b, Variance: 2}
	Y := mat.NewDense(4, 1, []float64{-4, -0.5, 0.5, 4})
	var K, D mat.SymDense
	Gram(&K, fk, Y)
	ImpliedSquaredDistances(&D, &K)
	f := kpFeatures1D(b, -4, -0.5, 0.5, 4)
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if want := 2 * kpSqDist(f, i, j); math.Abs(D.At(i, j)-want) > 1e-14 {
				t.Errorf("d[%d,%d] = %v, want %v", i, j, D.At(i, j), want)
			}
		}
	}
}

// The Riemann sum over a uniform basis → the erf kernel → the EQ kernel
// (book §4.2.1; catalog §2.3: 1/√(2π) = 0.398942 and 0.241971 at ℓ = 1).
func TestInfiniteBasisLimit(t *testing.T) {
	const alpha, ell = 1.0, 1.0
	pairs := [][2]float64{{0, 0}, {0, 1}, {-0.5, 0.5}, {1, 2}, {-1.5, 0.3}, {0, 3}}
	// The sum includes both end centres, so it differs from the integral by
	// about Δμ/2·(f(a) + f(b)): a fine grid on [−2, 2], where the ends
	// matter, a coarser one on [−50, 50], where they do not.
	for _, c := range []struct{ a, b, dmu float64 }{{-2, 2, 1e-5}, {-50, 50, 2e-3}} {
		ab := [2]float64{c.a, c.b}
		basis, dmu := UniformEQBasis(c.a, c.b, int(math.Round((c.b-c.a)/c.dmu))+1, ell)
		fk := FeatureKernel{Map: basis, Variance: alpha * dmu}
		for _, p := range pairs {
			riemann := fk.Eval([]float64{p[0]}, []float64{p[1]})
			erf := IntervalEQKernel(p[0], p[1], ab[0], ab[1], ell, alpha)
			if math.Abs(riemann-erf) > 1e-6 {
				t.Errorf("[%v,%v] k(%v,%v): Riemann %v, erf %v", ab[0], ab[1], p[0], p[1], riemann, erf)
			}
		}
	}
	// Catalog values on [−2, 2].
	for _, c := range []struct{ y, y2, want float64 }{{0, 0, 0.398917}, {0, 1, 0.241645}} {
		if got := IntervalEQKernel(c.y, c.y2, -2, 2, ell, alpha); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("erf kernel on [−2,2] k(%v,%v) = %v, want %v", c.y, c.y2, got, c.want)
		}
	}
	// The limit a, b → ∓∞ is the EQ kernel α/√(2πℓ²) exp(−(y−y')²/(2ℓ²)).
	eq := RBF{Variance: alpha / math.Sqrt(2*math.Pi*ell*ell), LengthScale: ell}
	for _, c := range []struct{ y, y2, want float64 }{{0, 0, 0.398942}, {0, 1, 0.241971}} {
		lim := IntervalEQKernel(c.y, c.y2, math.Inf(-1), math.Inf(1), ell, alpha)
		if math.Abs(lim-c.want) > 1e-6 || math.Abs(lim-eq.Eval([]float64{c.y}, []float64{c.y2})) > 1e-15 {
			t.Errorf("limit k(%v,%v) = %v, EQ %v, want %v", c.y, c.y2, lim, eq.Eval([]float64{c.y}, []float64{c.y2}), c.want)
		}
	}
}
