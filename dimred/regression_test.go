package dimred

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/dimredbook/book/dimred/internal/testutil"
	"github.com/dimredbook/book/dimred/kernel"
	"gonum.org/v1/gonum/mat"
)

// Regression tests for defects found by testing the package from outside:
// silent NaN/Inf results, overflow reported as the caller's NaN, a hang.
// Each failed on the code before the fix.

// withHugeColumn returns n×p data whose column 1 is scaled to ~1e300:
// every entry finite, but squares, covariances and inner products
// overflow float64.
func withHugeColumn(n, p int, seed uint64) *mat.Dense {
	Y := testutil.RandDense(n, p, seed)
	for i := 0; i < n; i++ {
		Y.Set(i, 1, 1e300*Y.At(i, 1))
	}
	return Y
}

// within runs f and fails the test if it takes longer than d (the goroutine
// of a hung f is leaked; the test has failed anyway).
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

// checkOverflowErr fails unless err wraps ErrOverflow, names the overflow
// and does not blame the caller's data with ErrNaN.
func checkOverflowErr(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, ErrOverflow) {
		t.Errorf("%s: err = %v, want ErrOverflow", what, err)
		return
	}
	if errors.Is(err, ErrNaN) || strings.Contains(err.Error(), "NaN or Inf in input") {
		t.Errorf("%s: %q reports the overflow as NaN in the input", what, err)
	}
}

// Overflow on finite input is ErrOverflow on every path and method that
// forms a covariance, Gram or distance matrix — not "NaN or Inf in input:
// A[0,0]", and the randomized PCA path no longer returns +Inf eigenvalues.
func TestOverflowOnFiniteInput(t *testing.T) {
	Y := withHugeColumn(30, 4, 1)
	for _, meth := range []PCAMethod{PCACovariance, PCAGram, PCALanczos, PCARandomized} {
		m := PCA{Q: 2, Method: meth}
		checkOverflowErr(t, fmt.Sprintf("PCA method %d", meth), m.Fit(Y))
	}
	checkOverflowErr(t, "FeatureSelection", (&FeatureSelection{Q: 2}).Fit(Y))
	checkOverflowErr(t, "FeatureExtraction", (&FeatureExtraction{Q: 2}).Fit(Y))
	checkOverflowErr(t, "PrincipalCoordinates", (&PrincipalCoordinates{Q: 2}).Fit(Y))
	checkOverflowErr(t, "ClassicalMDS", (&ClassicalMDS{Q: 2}).Fit(Y))
	checkOverflowErr(t, "KernelPCA/Linear", (&KernelPCA{Kernel: kernel.Linear{}, Q: 2}).Fit(Y))
}

// PreImage.Fit with a 1e300 column in X used to panic with
// "RBF.LengthScale ℓ = NaN" (the median distance overflowed): an error now.
func TestPreImageOverflow(t *testing.T) {
	X := withHugeColumn(20, 2, 2)
	Y := testutil.RandDense(20, 3, 3)
	var err error
	if msg := panicMessage(func() { err = (&PreImage{}).Fit(X, Y) }); msg != "" {
		t.Fatalf("PreImage.Fit panicked: %s", msg)
	}
	checkOverflowErr(t, "PreImage", err)
}

// NaN in PreImage.MapTo's input panics (the Projector rule) instead of
// returning NaN pre-images.
func TestPreImageMapNaN(t *testing.T) {
	X, Y := testutil.RandDense(20, 2, 4), testutil.RandDense(20, 3, 5)
	var m PreImage
	if err := m.Fit(X, Y); err != nil {
		t.Fatal(err)
	}
	Xnew := mat.NewDense(2, 2, []float64{0, 0, math.NaN(), 1})
	var dst mat.Dense
	checkPackagePanic(t, "MapTo with a NaN", func() { m.MapTo(&dst, Xnew) })
}

// PCA (every path) and KernelPCA on zero-variance data: VarianceExplained
// is defined (1: nothing is left unexplained), or the fit fails with an
// error — never NaN.
func TestVarianceExplainedZeroVariance(t *testing.T) {
	Y := mat.NewDense(30, 4, nil)
	for i := 0; i < 30; i++ {
		Y.Set(i, 2, 7) // constant columns
	}
	for _, meth := range []PCAMethod{PCACovariance, PCAGram, PCALanczos, PCARandomized} {
		m := PCA{Q: 2, Method: meth}
		if err := m.Fit(Y); err != nil {
			t.Errorf("PCA method %d on constant data: %v", meth, err)
			continue
		}
		if v := m.VarianceExplained(); v != 1 {
			t.Errorf("PCA method %d: VarianceExplained = %v, want 1", meth, v)
		}
	}
	// Rank 1 < q = 2 is the same on every path: a zero second eigenvalue
	// and an orthonormal U (the Gram path used to fail with ErrSingular).
	R := mat.NewDense(30, 4, nil)
	for i := 0; i < 30; i++ {
		R.Set(i, 0, float64(i))
		R.Set(i, 3, -0.5*float64(i))
	}
	for _, meth := range []PCAMethod{PCACovariance, PCAGram, PCALanczos, PCARandomized} {
		m := PCA{Q: 2, Method: meth}
		if err := m.Fit(R); err != nil {
			t.Errorf("PCA method %d on rank-1 data: %v", meth, err)
			continue
		}
		vals := m.EigenvaluesTo(nil)
		// λ₁ = n⁻¹ Σ (1.25)(i − 14.5)² over i < 30 = 1.25·(30² − 1)/12.
		if want := 1.25 * (30*30 - 1) / 12.0; math.Abs(vals[0]-want) > 1e-10*want || math.Abs(vals[1]) > 1e-10*want {
			t.Errorf("PCA method %d rank 1: eigenvalues %v, want [%g 0]", meth, vals, want)
		}
		var U, UtU mat.Dense
		m.LoadingsTo(&U)
		UtU.Mul(U.T(), &U)
		if d := testutil.MaxAbsDiff(&UtU, eye(2)); d > 1e-10 {
			t.Errorf("PCA method %d rank 1: UᵀU − I = %.3g", meth, d)
		}
		if v := m.VarianceExplained(); !(v >= 0 && v <= 1) || math.Abs(v-1) > 1e-12 {
			t.Errorf("PCA method %d rank 1: VarianceExplained = %v, want 1", meth, v)
		}
	}
	k := KernelPCA{Kernel: kernel.Linear{}, Q: 2}
	if err := k.Fit(Y); err == nil {
		if v := k.VarianceExplained(); !(v >= 0 && v <= 1) {
			t.Errorf("KernelPCA: VarianceExplained = %v", v)
		}
	} else if !errors.Is(err, ErrSingular) {
		t.Errorf("KernelPCA on constant data: err = %v, want ErrSingular or success", err)
	}
}

func eye(n int) *mat.Dense {
	d := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		d.Set(i, i, 1)
	}
	return d
}

// FitRatios and NegativeMass on identical points (B = 0) and on huge
// distances (Σλ² overflows) are defined, not NaN.
func TestMDSRatiosDegenerate(t *testing.T) {
	m := ClassicalMDS{Q: 2, FullSpectrum: true}
	if err := m.Fit(mat.NewDense(10, 3, nil)); err != nil {
		t.Fatal(err)
	}
	// D = 0 is Euclidean of rank 0 ≤ q: the zero configuration fits exactly.
	if a1, a2 := m.FitRatios(); a1 != 1 || a2 != 1 {
		t.Errorf("identical points: FitRatios = %v, %v; want 1, 1", a1, a2)
	}
	if nm := m.NegativeMass(); nm != 0 {
		t.Errorf("identical points: NegativeMass = %v, want 0", nm)
	}
	// Points on a plane at scale 1e150: D ~ 1e300 is finite, B's
	// eigenvalues ~1e301, and their squares overflow. D is Euclidean of
	// rank 2 = q, so α₁ = α₂ = 1 and the negative mass is 0.
	X := testutil.RandDense(12, 2, 6)
	X.Scale(1e150, X)
	D := mat.NewSymDense(12, nil)
	for i := 0; i < 12; i++ {
		for j := i + 1; j < 12; j++ {
			dx, dy := X.At(i, 0)-X.At(j, 0), X.At(i, 1)-X.At(j, 1)
			D.SetSym(i, j, dx*dx+dy*dy)
		}
	}
	if err := m.FitDistances(D); err != nil {
		t.Fatal(err)
	}
	a1, a2 := m.FitRatios()
	if math.Abs(a1-1) > 1e-9 || math.Abs(a2-1) > 1e-9 {
		t.Errorf("huge distances: FitRatios = %v, %v; want 1, 1", a1, a2)
	}
	if nm := m.NegativeMass(); !(nm >= 0 && nm < 1e-9) {
		t.Errorf("huge distances: NegativeMass = %v, want 0", nm)
	}
}

// KernelPCA on a degenerate kernel (identical rows; RBF with ℓ far beyond
// the data's spread) answers at once with ErrSingular. Before, the
// iterative eigensolver chased rounding errors to its limit (228 s at
// n = 4000); n = 600 here takes the same iterative path (linalg.PreferDense(600, q) is false).
func TestKernelPCADegenerateKernel(t *testing.T) {
	n := 600
	same := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		same.Set(i, 0, 1)
		same.Set(i, 2, -2)
	}
	cases := []struct {
		name string
		Y    *mat.Dense
		k    kernel.Kernel
	}{
		{"identical rows", same, kernel.RBF{LengthScale: 1}},
		{"RBF ℓ = 1e9", testutil.RandDense(n, 3, 7), kernel.RBF{LengthScale: 1e9}},
	}
	for _, c := range cases {
		var err error
		within(t, 10*time.Second, c.name, func() {
			err = (&KernelPCA{Kernel: c.k, Q: 2}).Fit(c.Y)
		})
		if !errors.Is(err, ErrSingular) || !strings.Contains(err.Error(), "degenerate") {
			t.Errorf("%s: err = %v, want ErrSingular saying the kernel is degenerate", c.name, err)
		}
	}
}

// Procrustes: XᵀY overflowing on finite input used to hang inside gonum's
// SVD; 0×q input panicked with a gonum message; tiny inputs with Scale gave
// s = +Inf. Now: a correct alignment (the SVD works on normalised
// configurations) or ErrOverflow, ErrTooFewPoints, and the right scale.
func TestProcrustesExtremeScales(t *testing.T) {
	// Y = X R₀ᵀ... with R₀ a rotation by θ: Procrustes must find R = R₀.
	th := 0.7
	R0 := mat.NewDense(2, 2, []float64{math.Cos(th), math.Sin(th), -math.Sin(th), math.Cos(th)})
	for _, sc := range []struct {
		name string
		s    float64
	}{{"1e300", 1e300}, {"1e-300", 1e-300}} {
		X := testutil.RandDense(15, 2, 8)
		X.Scale(sc.s, X)
		var Y mat.Dense
		Y.Mul(X, R0)
		Y.Scale(2, &Y) // and a scale of 2
		var res *ProcrustesResult
		var err error
		within(t, 10*time.Second, "Procrustes at scale "+sc.name, func() {
			res, err = Procrustes(X, &Y, &ProcrustesOptions{Scale: true})
		})
		if err != nil {
			if sc.s > 1 && errors.Is(err, ErrOverflow) {
				continue // an honest overflow report is acceptable for 1e300
			}
			t.Errorf("scale %s: %v", sc.name, err)
			continue
		}
		if math.Abs(res.Scale-2) > 1e-12 {
			t.Errorf("scale %s: s = %v, want 2", sc.name, res.Scale)
		}
		if d := testutil.MaxAbsDiff(res.R, R0); d > 1e-12 {
			t.Errorf("scale %s: R differs from R₀ by %.3g", sc.name, d)
		}
		if !(res.RMS <= 1e-12*2*sc.s) {
			t.Errorf("scale %s: RMS = %v, want ≈ 0 relative to %g", sc.name, res.RMS, sc.s)
		}
	}
	// XᵀY itself overflows: a column ~1e300 on both sides, Y a slightly
	// moved copy of X. Before, q ≥ 3 hung inside gonum's SVD of a matrix
	// with Inf entries and q = 2 returned RMS = +Inf or NaN without an
	// error. Now: a finite alignment close to the identity, or ErrOverflow.
	for _, q := range []int{2, 3, 4} {
		X := testutil.RandDense(20, q, 1)
		for i := 0; i < 20; i++ {
			X.Set(i, 0, 1e300*X.At(i, 0))
		}
		Y := mat.DenseCopyOf(X)
		Y.Set(0, 0, 1.01*Y.At(0, 0))
		var res *ProcrustesResult
		var err error
		within(t, 10*time.Second, fmt.Sprintf("Procrustes with overflowing XᵀY, q = %d", q), func() {
			res, err = Procrustes(X, Y, nil)
		})
		if err != nil {
			if !errors.Is(err, ErrOverflow) {
				t.Errorf("overflowing XᵀY, q = %d: err = %v, want nil or ErrOverflow", q, err)
			}
			continue
		}
		if math.IsNaN(res.RMS) || math.IsInf(res.RMS, 0) {
			t.Errorf("overflowing XᵀY, q = %d: RMS = %v without an error", q, res.RMS)
		}
		// Only the huge direction is resolved in float64 (the others are
		// 10⁻³⁰⁰ of it): R must keep e₁, and the residual is that of the
		// one moved entry, 0.01·|x₀₀|/√20, far below the data's scale.
		if math.Abs(res.R.At(0, 0)-1) > 1e-9 {
			t.Errorf("overflowing XᵀY, q = %d: R₀₀ = %v, want 1", q, res.R.At(0, 0))
		}
		if scale := mat.Norm(X, math.Inf(1)); !(res.RMS <= 0.01*scale) {
			t.Errorf("overflowing XᵀY, q = %d: RMS = %v, want ≤ 1%% of the data's scale %g", q, res.RMS, scale)
		}
	}
	var err error
	msg := panicMessage(func() { _, err = Procrustes(zeroRows{2}, zeroRows{2}, nil) })
	if msg != "" || !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("0×2 input: panic %q, err = %v; want ErrTooFewPoints", msg, err)
	}
}
