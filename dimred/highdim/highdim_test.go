package highdim

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/internal/errs"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

func TestEggMassesBook(t *testing.T) {
	// book Figs 1.1–1.3 captions: yolk/green/white in %.
	for _, c := range []struct {
		p                  int
		yolk, green, white float64
	}{
		{1, 65.8, 4.8, 29.4},
		{2, 59.4, 7.4, 33.2},
		{3, 56.1, 9.2, 34.7},
	} {
		y, g, w := EggMasses(c.p, 0.95, 1.05)
		for _, v := range []struct {
			name      string
			got, want float64
		}{{"yolk", 100 * y, c.yolk}, {"green", 100 * g, c.green}, {"white", 100 * w, c.white}} {
			if math.Abs(v.got-v.want) > 0.05 {
				t.Errorf("p=%d %s = %.4f%%, book %.1f%% (±0.05)", c.p, v.name, v.got, v.want)
			}
		}
	}
}

func TestEggMassesClosedForms(t *testing.T) {
	// 1-D: erf; 2-D: exponential; 3-D: erf(√(x/2)) − √(2x/π) e^(−x/2), x = 3·0.95²
	// (catalog book-ch1-2.md §1.3).
	y1, _, _ := EggMasses(1, 0.95, 1.05)
	if want := math.Erf(0.95 / math.Sqrt2); math.Abs(y1-want) > 1e-12 {
		t.Errorf("p=1 yolk %v, erf gives %v", y1, want)
	}
	y2, _, w2 := EggMasses(2, 0.95, 1.05)
	if want := 1 - math.Exp(-0.9025); math.Abs(y2-want) > 1e-12 {
		t.Errorf("p=2 yolk %v, want %v", y2, want)
	}
	if want := math.Exp(-1.1025); math.Abs(w2-want) > 1e-12 {
		t.Errorf("p=2 white %v, want %v", w2, want)
	}
	x := 3 * 0.95 * 0.95
	y3, _, _ := EggMasses(3, 0.95, 1.05)
	if want := math.Erf(math.Sqrt(x/2)) - math.Sqrt(2*x/math.Pi)*math.Exp(-x/2); math.Abs(y3-want) > 1e-12 {
		t.Errorf("p=3 yolk %v, want %v", y3, want)
	}
}

func TestEggMassesAgainstDimension(t *testing.T) {
	// catalog book-ch1-2.md §1.3, Fig 1.5 acceptance table (D, yolk, green, white).
	for _, c := range []struct {
		p                  int
		yolk, green, white float64
	}{
		{1, 0.657888, 0.048394, 0.293718},
		{8, 0.486907, 0.155386, 0.357707},
		{64, 0.304640, 0.427601, 0.267759},
		{1024, 0.011683, 0.976378, 0.011939},
	} {
		y, g, w := EggMasses(c.p, 0.95, 1.05)
		if math.Abs(y-c.yolk) > 1e-6 || math.Abs(g-c.green) > 1e-6 || math.Abs(w-c.white) > 1e-6 {
			t.Errorf("p=%d: (%.6f %.6f %.6f), catalog (%.6f %.6f %.6f)", c.p, y, g, w, c.yolk, c.green, c.white)
		}
	}
}

func TestGammaReference(t *testing.T) {
	// catalog book-ch1-2.md §1.3 theory-curve values for G(p/2, p/4).
	for _, c := range []struct {
		p       int
		x, want float64
		tol     float64
	}{
		{12, 2, 0.4819, 5e-5},
		{12, 5.0 / 3, 0.5264, 5e-5},
		{102, 2, 1.4222, 5e-5},
		{1000, 2, 4.4596, 5e-5},
		{6178, 2, 11.086, 5e-4},
		{24750, 2, 22.190, 5e-4},
	} {
		a, b := InterpointSquaredDistance(c.p, 1)
		if got := GammaPDF(c.x, a, b); math.Abs(got-c.want) > c.tol {
			t.Errorf("G(%v | %v, %v) = %.5f, catalog %v", c.x, a, b, got, c.want)
		}
	}
	// G(1, 0.5): exponential with mean 2.
	if got := GammaPDF(0, 1, 0.5); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("G(0|1,0.5) = %v, want 0.5", got)
	}
	if got := GammaPDF(2, 1, 0.5); math.Abs(got-0.5*math.Exp(-1)) > 1e-12 {
		t.Errorf("G(2|1,0.5) = %v, want %v", got, 0.5*math.Exp(-1))
	}
	// Large shape CDF at the mean tends to 1/2 (+ 1/(3√(2π a)) correction).
	a := 12375.0
	if got := GammaCDF(1, a, a); math.Abs(got-0.5) > 0.01 {
		t.Errorf("GAMMACDF(mean | %v) = %v, want ≈ 0.5", a, got)
	}
}

func TestInterpointVariance(t *testing.T) {
	// The book's "predicted" values (Figs 1.10, 1.12, 1.14, 1.15) are 8/p to 3 s.f.
	for _, c := range []struct {
		p    int
		want float64
		tol  float64
	}{{12, 0.667, 5e-4}, {102, 0.0784, 5e-5}, {6178, 0.00129, 5e-6}, {24750, 0.000323, 5e-7}} {
		if got := InterpointVariance(c.p, 1); math.Abs(got-c.want) > c.tol {
			t.Errorf("8/p at p=%d = %v, book %v", c.p, got, c.want)
		}
	}
	if got, want := InterpointVariance(10, 2), 8*4/10.0; math.Abs(got-want) > 1e-12 {
		t.Errorf("8σ⁴/p = %v, want %v", got, want)
	}
}

func TestNormalisedInterpointDistancesGaussian(t *testing.T) {
	// book Fig 1.8: n = p = 1000 iid N(0,1); the sample variance of v_ij is ≈ 8/p
	// (catalog: 0.00795 / 0.00827 / 0.00802 over three seeds). Smaller here for speed.
	n, p := 400, 500
	var Y mat.Dense
	SampleIsotropic(&Y, n, p, 1, rand.NewPCG(3, 4))
	v, err := NormalisedInterpointDistances(&Y)
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != n*(n-1)/2 {
		t.Fatalf("%d distances, want %d", len(v), n*(n-1)/2)
	}
	mean, variance := stat.MeanVariance(v, nil)
	// Identity: after standardisation with n−1 the mean is exactly 2.
	if math.Abs(mean-2) > 1e-10 {
		t.Errorf("mean %v, want exactly 2", mean)
	}
	if want := InterpointVariance(p, 1); math.Abs(variance-want) > 0.1*want {
		t.Errorf("variance %v, want 8/p = %v within 10%%", variance, want)
	}
}

func TestNormalisedInterpointDistancesBadInput(t *testing.T) {
	if _, err := NormalisedInterpointDistances(mat.NewDense(1, 3, nil)); !errors.Is(err, errs.ErrTooFewPoints) {
		t.Errorf("n=1: err %v, want errs.ErrTooFewPoints", err)
	}
	Y := mat.NewDense(3, 2, []float64{1, 2, 3, math.NaN(), 5, 6})
	if _, err := NormalisedInterpointDistances(Y); !errors.Is(err, errs.ErrNaN) {
		t.Errorf("NaN: err %v, want errs.ErrNaN", err)
	}
}

func TestChapter1Panics(t *testing.T) {
	for name, f := range map[string]func(){
		"EggMasses p=0":                 func() { EggMasses(0, 0.95, 1.05) },
		"EggMasses lo>hi":               func() { EggMasses(2, 1.1, 1.05) },
		"EggMasses NaN":                 func() { EggMasses(2, math.NaN(), 1.05) },
		"GammaPDF a=0":                  func() { GammaPDF(1, 0, 1) },
		"GammaCDF b<0":                  func() { GammaCDF(1, 1, -1) },
		"Interpoint σ²=0":               func() { InterpointSquaredDistance(3, 0) },
		"Interpoint p=0":                func() { InterpointVariance(0, 1) },
		"SampleIsotropic σ²<0":          func() { SampleIsotropic(&mat.Dense{}, 2, 2, -1, nil) },
		"SampleLinear σ² NaN":           func() { SampleLinearGaussian(&mat.Dense{}, 2, mat.NewDense(2, 1, nil), math.NaN(), nil) },
		"linalg.SquaredDistances shape": func() { linalg.SquaredDistances(&mat.Dense{}, mat.NewDense(2, 2, nil), mat.NewDense(2, 3, nil)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestSampleLinearGaussianCovariance(t *testing.T) {
	// The sample covariance of y = W x + σ ε approaches C = W Wᵀ + σ² I.
	W := mat.NewDense(3, 1, []float64{1, -2, 0.5})
	var Y mat.Dense
	SampleLinearGaussian(&Y, 20000, W, 0.1, nil)
	var S mat.SymDense
	stat.CovarianceMatrix(&S, &Y, nil)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			want := W.At(i, 0) * W.At(j, 0)
			if i == j {
				want += 0.1
			}
			if math.Abs(S.At(i, j)-want) > 0.1 {
				t.Errorf("C[%d,%d] = %.3f, want %.3f", i, j, S.At(i, j), want)
			}
		}
	}
}

func TestSquaredDistancesMatchesLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	A := mat.NewDense(7, 4, nil)
	B := mat.NewDense(5, 4, nil)
	for _, m := range []*mat.Dense{A, B} {
		r, c := m.Dims()
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				m.Set(i, j, rng.NormFloat64())
			}
		}
	}
	var D mat.Dense
	linalg.SquaredDistances(&D, A, B)
	var S mat.SymDense
	linalg.PairwiseSquaredDistances(&S, A)
	for i := 0; i < 7; i++ {
		for j := 0; j < 5; j++ {
			want := 0.0
			for k := 0; k < 4; k++ {
				d := A.At(i, k) - B.At(j, k)
				want += d * d
			}
			if math.Abs(D.At(i, j)-want) > 1e-12 {
				t.Errorf("D[%d,%d] = %v, want %v", i, j, D.At(i, j), want)
			}
		}
		for j := 0; j < 7; j++ {
			want := 0.0
			for k := 0; k < 4; k++ {
				d := A.At(i, k) - A.At(j, k)
				want += d * d
			}
			if math.Abs(S.At(i, j)-want) > 1e-12 {
				t.Errorf("S[%d,%d] = %v, want %v", i, j, S.At(i, j), want)
			}
		}
	}
}

func BenchmarkPairwiseSquaredDistances(b *testing.B) {
	for _, c := range []struct{ n, p int }{{1000, 1000}, {5000, 100}} {
		var Y mat.Dense
		SampleIsotropic(&Y, c.n, c.p, 1, nil)
		b.Run(sizeName(c.n, c.p), func(b *testing.B) {
			var D mat.SymDense
			for i := 0; i < b.N; i++ {
				D = mat.SymDense{}
				linalg.PairwiseSquaredDistances(&D, &Y)
			}
		})
	}
}

func BenchmarkSquaredDistances(b *testing.B) {
	for _, c := range []struct{ n, p int }{{1000, 1000}, {5000, 100}} {
		var Y mat.Dense
		SampleIsotropic(&Y, c.n, c.p, 1, nil)
		b.Run(sizeName(c.n, c.p), func(b *testing.B) {
			var D mat.Dense
			for i := 0; i < b.N; i++ {
				linalg.SquaredDistances(&D, &Y, &Y)
			}
		})
	}
}

func sizeName(n, p int) string { return fmt.Sprintf("n=%d,p=%d", n, p) }
