package dimred

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dimredbook/book/dimred/internal/errs"
	"gonum.org/v1/gonum/mat"
)

// Hostile input to the package's functions and out-of-sample maps, found
// by calling the public API from outside the module: each case used to
// return NaN/Inf silently or panic with a raw gonum message.

// checkPanicNames fails unless f panics with the package's message
// containing want.
func checkPanicNames(t *testing.T, what, want string, f func()) {
	t.Helper()
	msg := panicMessage(f)
	checkPackagePanic(t, what, func() {
		if msg != "" {
			panic(msg)
		}
	})
	if msg != "" && !strings.Contains(msg, want) {
		t.Errorf("%s: panic %q does not name %q", what, msg, want)
	}
}

func TestPPCALogLikelihoodHostile(t *testing.T) {
	Y := conformanceData()
	W := mat.NewDense(5, 2, []float64{1, 0, 0, 1, 1, 1, 0, 0, 1, 0})
	mu := make([]float64, 5)
	huge := mat.DenseCopyOf(Y)
	huge.Scale(1e300, huge)
	if _, err := PPCALogLikelihood(huge, W, mu, 1); !errors.Is(err, ErrOverflow) {
		t.Errorf("Y ×1e300: err = %v, want ErrOverflow (was a silent NaN)", err)
	}
	if _, err := PPCALogLikelihood(Y, W, []float64{0, math.NaN(), 0, 0, 0}, 1); !errors.Is(err, ErrNaN) || !strings.Contains(err.Error(), "mu[1]") {
		t.Errorf("NaN in μ: err = %v, want ErrNaN naming mu[1] (was a silent NaN)", err)
	}
	Wn := mat.DenseCopyOf(W)
	Wn.Set(2, 1, math.NaN())
	if _, err := PPCALogLikelihood(Y, Wn, mu, 1); !errors.Is(err, ErrNaN) || !strings.Contains(err.Error(), "W[2,1]") {
		t.Errorf("NaN in W: err = %v, want ErrNaN naming W[2,1]", err)
	}
	var err error
	if msg := panicMessage(func() { _, err = PPCALogLikelihood(zeroRows{5}, W, mu, 1) }); msg != "" {
		t.Errorf("n = 0 panicked: %s", msg)
	} else if !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("n = 0: err = %v, want ErrTooFewPoints", err)
	}
	if ll, err := PPCALogLikelihood(Y, W, mu, 1); err != nil || math.IsNaN(ll) {
		t.Errorf("ordinary input: %v, %v", ll, err)
	}
}

func TestDistanceMatchingHostile(t *testing.T) {
	D := mat.NewSymDense(4, nil)
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			D.SetSym(i, j, float64(i+j))
		}
	}
	Dn := mat.NewSymDense(4, nil)
	Dn.CopySym(D)
	Dn.SetSym(1, 2, math.NaN())
	checkPanicNames(t, "DistanceMatchingError NaN", "D[1,2]", func() { DistanceMatchingError(Dn, D, 5, 2) })
	checkPanicNames(t, "DistanceMatchingError NaN Δ", "Delta[1,2]", func() { DistanceMatchingError(D, Dn, 5, 2) })
	checkPanicNames(t, "DistanceMatchingSum NaN", "D[1,2]", func() { DistanceMatchingSum(Dn, D) })
	checkPanicNames(t, "FeatureSelectionError of none", "no variances", func() { FeatureSelectionError(nil, 0) })
	checkPanicNames(t, "FeatureSelectionError NaN", "vars[1]", func() { FeatureSelectionError([]float64{3, math.NaN(), 1}, 1) })
	if e := FeatureSelectionError([]float64{3, 2, 1}, 1); e != 2 {
		t.Errorf("FeatureSelectionError([3 2 1], 1) = %v, want 2", e)
	}
}

func TestMattressHostile(t *testing.T) {
	checkPanicNames(t, "LatticeSprings NaN κ", "kappa", func() { LatticeSprings(3, 3, math.NaN()) })
	checkPanicNames(t, "LatticePositions 0×3", "0×3", func() { LatticePositions(0, 3) })
	P := LatticePositions(3, 3)
	P.Set(1, 1, math.NaN())
	checkPanicNames(t, "SpringEnergy NaN", "Y[1,1]", func() { SpringEnergy(LatticeSprings(3, 3, 1), P) })
	P = LatticePositions(3, 3)
	P.Scale(1e300, P)
	checkPanicNames(t, "SpringEnergy overflow", "overflow", func() { SpringEnergy(LatticeSprings(3, 3, 1), P) })
	checkPanicNames(t, "OUPrecision ℓ = Inf", "ℓ = +Inf", func() { OUPrecision([]float64{1, 2}, math.Inf(1), 1) })

	// Inputs 1e-300 apart: 1 − ρ² rounds to 0 but the precision is finite,
	// Q_01 = −ρ/(σ²(1 − ρ²)) ≈ −ℓ/(2σ² d) = −5e299 for ℓ = σ² = 1 (it
	// was −Inf).
	Q, err := OUPrecision([]float64{0, 1e-300, 1}, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Q.At(0, 1), -5e299; math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Errorf("Q_01 = %v, want %v", got, want)
	}
	// Closer than the float64 range allows: ErrOverflow, not Inf.
	if _, err := OUPrecision([]float64{0, 5e-324}, 1, 1); !errors.Is(err, ErrOverflow) {
		t.Errorf("inputs 5e-324 apart: err = %v, want ErrOverflow", err)
	}
}

func TestLatentMapsNaN(t *testing.T) {
	g := &GTM{Q: 2, Grid: 6}
	if err := g.Fit(conformanceData()); err != nil {
		t.Fatal(err)
	}
	Xn := mat.NewDense(2, 2, []float64{0, 0, 0, math.NaN()})
	Yn := conformanceData()
	Yn.Set(2, 3, math.NaN())
	var dst mat.Dense
	checkPanicNames(t, "GTM.MapTo", "X[1,1]", func() { g.MapTo(&dst, Xn) })
	checkPanicNames(t, "GTM.MagnificationFactors", "X[1,1]", func() { g.MagnificationFactors(Xn) })
	checkPanicNames(t, "GTM.JacobianTo", "x[0,1]", func() { g.JacobianTo(&mat.Dense{}, []float64{0, math.NaN()}) })
	checkPanicNames(t, "GTM.ResponsibilitiesTo", "Y[2,3]", func() { g.ResponsibilitiesTo(&mat.Dense{}, Yn) })
	if mf := g.MagnificationFactors(zeroRows{2}); len(mf) != 0 {
		t.Errorf("MagnificationFactors of no rows: %v", mf)
	}

	d := &DensityNetwork{Q: 2, Samples: 30, Hidden: 5}
	if err := d.Fit(conformanceData()); err != nil {
		t.Fatal(err)
	}
	checkPanicNames(t, "DensityNetwork.MapTo", "X[1,1]", func() { d.MapTo(&mat.Dense{}, Xn) })
	checkPanicNames(t, "DensityNetwork.ResponsibilitiesTo", "Y[2,3]", func() { d.ResponsibilitiesTo(&mat.Dense{}, Yn) })
}

// Out-of-range Laplacian-eigenmaps settings panic (T = −1 and NaN fell
// back to the default silently; unknown Problem and Weighting values ran).
func TestLaplacianEigenmapsSettingsPanic(t *testing.T) {
	Y := conformanceData()
	for _, c := range []struct {
		name string
		m    *LaplacianEigenmaps
	}{
		{"T = −1", &LaplacianEigenmaps{Q: 2, T: -1}},
		{"T = NaN", &LaplacianEigenmaps{Q: 2, T: math.NaN()}},
		{"Epsilon = −1", &LaplacianEigenmaps{Q: 2, Epsilon: -1}},
		{"Problem = 7", &LaplacianEigenmaps{Q: 2, Problem: 7}},
		{"Weighting = 7", &LaplacianEigenmaps{Q: 2, Weighting: 7}},
	} {
		checkPackagePanic(t, c.name, func() { c.m.Fit(Y) })
	}
}

// Data at scale 1e-200: the chapter-3 methods give s·X of the unscaled data
// (their S, ŶŶᵀ and variances underflowed: PrincipalCoordinates returned
// X = 0, FeatureSelection an arbitrary selection, FeatureExtraction wrong
// axes).
func TestChapter3TinyScale(t *testing.T) {
	const s = 1e-200
	Y := conformanceData()
	tiny := mat.DenseCopyOf(Y)
	tiny.Scale(s, tiny)
	for _, c := range []struct {
		name string
		new  func() Embedder
	}{
		{"FeatureSelection", func() Embedder { return &FeatureSelection{Q: 2} }},
		{"FeatureExtraction", func() Embedder { return &FeatureExtraction{Q: 2} }},
		{"PrincipalCoordinates", func() Embedder { return &PrincipalCoordinates{Q: 2} }},
	} {
		var X, Xt mat.Dense
		for _, f := range []struct {
			Y mat.Matrix
			X *mat.Dense
		}{{Y, &X}, {tiny, &Xt}} {
			m := c.new()
			if err := m.Fit(f.Y); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			m.LatentTo(f.X)
		}
		Xt.Scale(1/s, &Xt)
		if !mat.EqualApprox(&X, &Xt, 1e-10*mat.Norm(&X, math.Inf(1))) {
			t.Errorf("%s: X(1e-200·Y)/1e-200 differs from X(Y): %v vs %v", c.name, Xt.RawRowView(0), X.RawRowView(0))
		}
	}
}

// Identical rows lie in a 0-dimensional subspace: PPCA's σ² is 0, as for
// all-zero rows (ErrSingular), not the ~1e-32 that centring's round-off
// leaves (a "fit" of pure rounding noise).
func TestPPCAIdenticalRowsSingular(t *testing.T) {
	// Row 3 of the conformance data: its mean over 40 copies is not exact
	// in floating point.
	row := conformanceData().RawRowView(3)
	Y := mat.NewDense(40, 5, nil)
	for i := 0; i < 40; i++ {
		Y.SetRow(i, row)
	}
	if err := (&PPCA{Q: 2}).Fit(Y); !errors.Is(err, ErrSingular) {
		t.Errorf("PPCA of identical rows: err = %v, want ErrSingular", err)
	}
	// Small but genuine noise is kept: σ² ~ 1e-24 against a mean of 7.
	Z := conformanceData()
	Z.Scale(1e-12, Z)
	for i := 0; i < 40; i++ {
		for j := 0; j < 5; j++ {
			Z.Set(i, j, Z.At(i, j)+7)
		}
	}
	if err := (&PPCA{Q: 2}).Fit(Z); err != nil {
		t.Errorf("PPCA of data with noise 1e-13 about a mean of 7: %v", err)
	}
}

// MVU of data at scale 1e-200 is 1e-200 times the MVU of the data (its
// squared distances underflowed and X came out ~1e-6, the solver's
// tolerance).
func TestMVUTinyScale(t *testing.T) {
	const s = 1e-200
	Y := conformanceData()
	tiny := mat.DenseCopyOf(Y)
	tiny.Scale(s, tiny)
	var X, Xt mat.Dense
	for _, f := range []struct {
		Y mat.Matrix
		X *mat.Dense
	}{{Y, &X}, {tiny, &Xt}} {
		m := &MVU{Q: 2, K: 5}
		if err := m.Fit(f.Y); err != nil {
			t.Fatal(err)
		}
		m.LatentTo(f.X)
	}
	Xt.Scale(1/s, &Xt)
	// Both fits stop at the solver's Tol (1e-7 relative) on the same
	// problem up to rounding (measured difference 7.6e-9 of ‖X‖∞).
	if !mat.EqualApprox(&X, &Xt, 1e-7*mat.Norm(&X, math.Inf(1))) {
		t.Errorf("X(1e-200·Y)/1e-200 differs from X(Y): %v vs %v", Xt.RawRowView(0), X.RawRowView(0))
	}
}

// Acyclic LLE of identical rows: every local Gram matrix is zero and the
// weights 0/0; that is ErrSingular (coincident points, as the doc says),
// not ErrOverflow.
func TestAcyclicLLECoincidentSingular(t *testing.T) {
	Y := mat.NewDense(20, 3, nil)
	for i := 0; i < 20; i++ {
		Y.SetRow(i, []float64{1, 2, 3})
	}
	if err := (&AcyclicLLE{Q: 2, K: 4}).Fit(Y); !errors.Is(err, ErrSingular) {
		t.Errorf("identical rows: err = %v, want ErrSingular", err)
	}
}

// GPLVMScore of an n×0 Y is the package's panic (was gonum's zero-length
// panic).
func TestGPLVMScoreNoColumns(t *testing.T) {
	checkPanicNames(t, "GPLVMScore n×0 Y", "no columns", func() {
		(&GPLVMScore{}).Score(mat.NewDense(5, 2, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 1}), zeroCols{5})
	})
}

// LLE is invariant to the scale of the data; at 1e-200 the local Gram
// matrices underflowed to zero and the weights fell back to the
// regularised solution, changing the embedding.
func TestLLETinyScale(t *testing.T) {
	Y := conformanceData()
	tiny := mat.DenseCopyOf(Y)
	tiny.Scale(1e-200, tiny)
	var X, Xt mat.Dense
	for _, f := range []struct {
		Y mat.Matrix
		X *mat.Dense
	}{{Y, &X}, {tiny, &Xt}} {
		m := &LLE{Q: 2, K: 8}
		if err := m.Fit(f.Y); err != nil {
			t.Fatal(err)
		}
		m.LatentTo(f.X)
	}
	// 1e-200·Y rounds differently from Y, and the eigensolver's
	// tolerance is 1e-10: measured difference 4.3e-11 of ‖X‖∞.
	if !mat.EqualApprox(&X, &Xt, 1e-8*mat.Norm(&X, math.Inf(1))) {
		t.Errorf("LLE X(1e-200·Y) differs from X(Y): %v vs %v", Xt.RawRowView(0), X.RawRowView(0))
	}
}

// Isomap of data at scale 1e-200 is 1e-200 times the Isomap of the data
// (the squared geodesics underflowed: X was 0), and so are its eigenvalues
// (×1e-400, which underflow to 0), geodesics and out-of-sample positions.
func TestIsomapTinyScale(t *testing.T) {
	const s = 1e-200
	Y := conformanceData()
	tiny := mat.DenseCopyOf(Y)
	tiny.Scale(s, tiny)
	newY := mat.DenseCopyOf(Y.Slice(0, 3, 0, 5))
	newY.Apply(func(_, _ int, v float64) float64 { return v + 0.05 }, newY)
	newTiny := mat.DenseCopyOf(newY)
	newTiny.Scale(s, newTiny)
	for _, landmarks := range []int{0, 15} {
		var X, Xt, P, Pt mat.Dense
		var G, Gt *mat.SymDense
		for _, f := range []struct {
			Y, Ynew mat.Matrix
			X, P    *mat.Dense
			G       **mat.SymDense
		}{{Y, newY, &X, &P, &G}, {tiny, newTiny, &Xt, &Pt, &Gt}} {
			m := &Isomap{Q: 2, K: 8, Landmarks: landmarks}
			if err := m.Fit(f.Y); err != nil {
				t.Fatal(err)
			}
			m.LatentTo(f.X)
			m.ProjectTo(f.P, f.Ynew)
			*f.G = m.Geodesics()
		}
		Xt.Scale(1/s, &Xt)
		Pt.Scale(1/s, &Pt)
		// Both fits solve the same problem up to the rounding of 1e-200·Y.
		tol := 1e-9 * mat.Norm(&X, math.Inf(1))
		if !mat.EqualApprox(&X, &Xt, tol) {
			t.Errorf("landmarks %d: X(1e-200·Y)/1e-200 differs from X(Y): %v vs %v", landmarks, Xt.RawRowView(0), X.RawRowView(0))
		}
		if !mat.EqualApprox(&P, &Pt, tol) {
			t.Errorf("landmarks %d: ProjectTo differs: %v vs %v", landmarks, Pt.RawRowView(0), P.RawRowView(0))
		}
		if G != nil && math.Abs(Gt.At(0, 5)/s-G.At(0, 5)) > 1e-12*G.At(0, 5) {
			t.Errorf("geodesic d(0,5): %v·1e200, want %v", Gt.At(0, 5)/s, G.At(0, 5))
		}
	}
}

// PCA of data at scale 1e-200 is 1e-200 times the PCA of the data on every
// solver path (the covariance and inner-product paths formed an S or ŶŶᵀ
// that underflowed, and returned wrong axes), with eigenvalues ×1e-400
// (which underflow to 0) and mean ×1e-200.
func TestPCATinyScale(t *testing.T) {
	const s = 1e-200
	Y := conformanceData()
	tiny := mat.DenseCopyOf(Y)
	tiny.Scale(s, tiny)
	for _, method := range []PCAMethod{PCAAuto, PCACovariance, PCAGram, PCALanczos, PCARandomized} {
		var X, Xt mat.Dense
		var mu, mut []float64
		for _, f := range []struct {
			Y  mat.Matrix
			X  *mat.Dense
			mu *[]float64
		}{{Y, &X, &mu}, {tiny, &Xt, &mut}} {
			m := &PCA{Q: 2, Method: method}
			if err := m.Fit(f.Y); err != nil {
				t.Fatal(err)
			}
			m.LatentTo(f.X)
			*f.mu = m.MeanTo(nil)
		}
		Xt.Scale(1/s, &Xt)
		if !mat.EqualApprox(&X, &Xt, 1e-10*mat.Norm(&X, math.Inf(1))) {
			t.Errorf("method %d: X(1e-200·Y)/1e-200 differs from X(Y): %v vs %v", method, Xt.RawRowView(0), X.RawRowView(0))
		}
		if math.Abs(mut[0]/s-mu[0]) > 1e-12*math.Abs(mu[0]) {
			t.Errorf("method %d: μ₀ = %v·1e-200, want %v", method, mut[0]/s, mu[0])
		}
	}
}

// With an ε graph K is ignored (its doc), so a default K larger than n
// must not reject a small data set: Laplacian eigenmaps of 5 points joined
// by a large ε fits (it returned ErrTooFewPoints naming k = 10).
func TestLaplacianEigenmapsEpsilonIgnoresK(t *testing.T) {
	Y := mat.DenseCopyOf(conformanceData().Slice(0, 5, 0, 5))
	m := &LaplacianEigenmaps{Q: 1, Epsilon: 1e3, T: 1e3}
	if err := m.Fit(Y); err != nil {
		t.Fatalf("Fit with ε = 1e3 on 5 points: %v", err)
	}
	var X mat.Dense
	m.LatentTo(&X)
	if e := errs.CheckFinite(&X, "X"); e != nil {
		t.Error(e)
	}
}
