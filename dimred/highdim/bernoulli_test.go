package highdim

import (
	"errors"
	"math"
	"testing"

	"github.com/dimredbook/book/dimred/internal/errs"

	"gonum.org/v1/gonum/mat"
)

func TestBernoulliSix(t *testing.T) {
	// Box 3.1 / §3.2: the six has 849 ink pixels of 3648 (64×57).
	img := mat.NewDense(64, 57, nil)
	for k := 0; k < 849; k++ {
		img.Set(k/57, k%57, 1)
	}
	var b Bernoulli
	if err := b.Fit(img); err != nil {
		t.Fatal(err)
	}
	if p1, p := b.Counts(); p1 != 849 || p != 3648 {
		t.Fatalf("counts %d/%d", p1, p)
	}
	// book §3.2: π = 849/3648
	if math.Abs(b.Pi-0.232730) > 5e-7 {
		t.Errorf("π = %.6f, want 0.232730", b.Pi)
	}
	lp, err := b.LogProb(img)
	if err != nil {
		t.Fatal(err)
	}
	l10 := lp / math.Ln10
	// book §3.2: 2.67×10⁻⁸⁶⁰ (log₁₀ = −859.5723, mantissa 2.677)
	if math.Abs(l10-(-859.5723)) > 1e-4 {
		t.Errorf("log₁₀ p = %.4f, want −859.5723", l10)
	}
	mant := math.Pow(10, l10-math.Floor(l10))
	if mant < 2.67 || mant > 2.68 {
		t.Errorf("mantissa %.4f, want 2.67…2.68", mant)
	}
	// expected wait at one sample per nanosecond: 1/p ns ≈ 1.18×10⁸⁴³
	// years (the draft's "10^217 years" is wrong).
	const nsPerYear = 365.25 * 24 * 3600 * 1e9
	years := GeometricWaitLog10(l10) - math.Log10(nsPerYear)
	if math.Abs(years-math.Log10(1.18e43)-800) > 0.005 {
		t.Errorf("log₁₀ wait = %.4f years, want log₁₀(1.18e843)", years)
	}
	// P(seen within 10¹⁰ years) ≈ 8.5×10⁻⁸³⁴
	N := 1e10 * nsPerYear
	ps := Log10ProbWithin(l10, N)
	if math.Abs(ps-(math.Log10(8.5)-834)) > 0.01 {
		t.Errorf("log₁₀ P(seen in 10¹⁰ yr) = %.4f", ps)
	}
	// ML estimate minimises the convex NLL: check a grid
	best, bestPi := math.Inf(1), 0.0
	for k := 1; k < 10000; k++ {
		pi := float64(k) / 10000
		if e := -BernoulliLogProb(849, 3648, pi); e < best {
			best, bestPi = e, pi
		}
	}
	if math.Abs(bestPi-b.Pi) > 1e-4 {
		t.Errorf("grid argmin %g, ML %g", bestPi, b.Pi)
	}
}

func TestLog10ProbWithin(t *testing.T) {
	// exact regime
	if got, want := Log10ProbWithin(math.Log10(0.5), 2), math.Log10(0.75); math.Abs(got-want) > 1e-12 {
		t.Errorf("p=½, N=2: %g want %g", got, want)
	}
	if got := Log10ProbWithin(-3, 1e6); math.Abs(got) > 1e-12 {
		t.Errorf("certain event: %g", got)
	}
}

func TestBernoulliBadInput(t *testing.T) {
	var b Bernoulli
	if err := b.Fit(mat.NewDense(1, 3, []float64{0, 1, 2})); !errors.Is(err, ErrNotBinary) {
		t.Errorf("got %v", err)
	}
	if err := b.Fit(mat.NewDense(1, 2, []float64{0, math.NaN()})); !errors.Is(err, errs.ErrNaN) {
		t.Errorf("got %v", err)
	}
}

// Regression (issue: Bernoulli on 0 rows gave π = NaN silently): no
// pixels is ErrTooFewPoints, and a failed refit discards the old estimate.
func TestBernoulliNoPixelsAndFailedRefit(t *testing.T) {
	var b Bernoulli
	if err := b.Fit(mat.NewDense(1, 4, []float64{1, 0, 1, 1})); err != nil || b.Pi != 0.75 {
		t.Fatalf("π = %v, err = %v; want 0.75, nil", b.Pi, err)
	}
	if err := b.Fit(&mat.Dense{}); !errors.Is(err, errs.ErrTooFewPoints) {
		t.Errorf("no pixels: err = %v, want ErrTooFewPoints", err)
	}
	if b.Pi != 0 || math.IsNaN(b.Pi) {
		t.Errorf("π = %v after a failed refit, want 0", b.Pi)
	}
	b.Fit(mat.NewDense(1, 2, []float64{1, 1}))
	if err := b.Fit(mat.NewDense(1, 2, []float64{1, 2})); err == nil {
		t.Fatal("non-binary refit succeeded")
	}
	if p1, p := b.Counts(); b.Pi != 0 || p1 != 0 || p != 0 {
		t.Errorf("after a failed refit π = %v, counts %d/%d; want 0, 0/0", b.Pi, p1, p)
	}
}
