package dimred

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// gtmTestData is n points near a curved 2-D sheet in 5-D:
// y = (a, b, sin a, cos b, ab/2) + 0.05 ε.
func gtmTestData(n int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 7))
	Y := mat.NewDense(n, 5, nil)
	for i := 0; i < n; i++ {
		a, b := 2*rnd.Float64()-1, 2*rnd.Float64()-1
		row := []float64{a, b, math.Sin(2 * a), math.Cos(2 * b), a * b / 2}
		for j := range row {
			row[j] += 0.05 * rnd.NormFloat64()
		}
		Y.SetRow(i, row)
	}
	return Y
}

func fitOK(t *testing.T, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, ErrNotConverged) {
		t.Fatal(err)
	}
}

// EM never decreases the penalised log-likelihood (Bishop et al. 1998);
// the Monitor sees every value.
func TestGTMBoundMonotone(t *testing.T) {
	for _, c := range []struct {
		name  string
		basis GTMBasis
	}{{"random", GTMRandomCentres}, {"grid", GTMGridCentres}, {"linear", GTMLinearBasis}} {
		t.Run(c.name, func(t *testing.T) {
			var L []float64
			m := &GTM{Q: 2, Grid: 8, Basis: c.basis, MaxIter: 200, Tol: -1,
				Monitor: func(_ int, b float64) bool { L = append(L, b); return false }}
			fitOK(t, m.Fit(gtmTestData(150, 1)))
			if len(L) != 201 {
				t.Fatalf("Monitor called %d times, want 201", len(L))
			}
			for i := 1; i < len(L); i++ {
				if L[i] < L[i-1]-1e-9*math.Abs(L[i-1]) {
					t.Fatalf("bound fell at iteration %d: %.12g → %.12g", i, L[i-1], L[i])
				}
			}
			if L[len(L)-1] <= L[0] {
				t.Errorf("bound did not rise: %v → %v", L[0], L[len(L)-1])
			}
			if got := m.LogLikelihood(); got != L[len(L)-1] {
				t.Errorf("LogLikelihood %v, last Monitor value %v", got, L[len(L)-1])
			}
		})
	}
}

func TestGTMResponsibilitiesSumToOne(t *testing.T) {
	m := &GTM{Q: 2, Grid: 6}
	fitOK(t, m.Fit(gtmTestData(80, 2)))
	var R mat.Dense
	m.ResponsibilitiesTo(&R, gtmTestData(30, 3))
	if r, c := R.Dims(); r != 30 || c != 36 {
		t.Fatalf("R is %d×%d, want 30×36", r, c)
	}
	for i := 0; i < 30; i++ {
		row := R.RawRowView(i)
		if s := floats.Sum(row); math.Abs(s-1) > 1e-12 || floats.Min(row) < 0 {
			t.Errorf("row %d sums to %v (min %v)", i, s, floats.Min(row))
		}
	}
	// ProjectTo of the training data is LatentTo.
	Y := gtmTestData(80, 2)
	var X, P mat.Dense
	m.LatentTo(&X)
	m.ProjectTo(&P, Y)
	if d := maxAbsDiff(&X, &P); d > 1e-12 {
		t.Errorf("ProjectTo(training data) differs from LatentTo by %g", d)
	}
	// Modes are grid points.
	var M, G mat.Dense
	m.LatentModesTo(&M)
	m.GridTo(&G)
	for i := 0; i < 80; i++ {
		found := false
		for k := 0; k < 36 && !found; k++ {
			found = floats.Equal(M.RawRowView(i), G.RawRowView(k))
		}
		if !found {
			t.Fatalf("mode %d is not a grid point", i)
		}
	}
}

// One grid point: the GTM is a single isotropic Gaussian, whose EM fixed
// point is the closed form f = ȳ (up to the weight prior, negligible at tiny
// α) and β⁻¹ = Σ_i ‖y_i − ȳ‖²/(np).
func TestGTMSingleGaussianClosedForm(t *testing.T) {
	Y := gtmTestData(100, 4)
	m := &GTM{Q: 2, Grid: 1, Basis: GTMLinearBasis, Alpha: 1e-12, Tol: 1e-14}
	fitOK(t, m.Fit(Y))
	mu := linalg.ColumnMeans(Y)
	var F mat.Dense
	var G mat.Dense
	m.GridTo(&G)
	m.MapTo(&F, &G)
	for j, v := range mu {
		if math.Abs(F.At(0, j)-v) > 1e-8 {
			t.Errorf("f(x̂)_%d = %v, want mean %v", j, F.At(0, j), v)
		}
	}
	s := 0.0
	for i := 0; i < 100; i++ {
		for j := 0; j < 5; j++ {
			s += (Y.At(i, j) - mu[j]) * (Y.At(i, j) - mu[j])
		}
	}
	if want := s / 500; math.Abs(m.NoiseVariance()-want) > 1e-8*want {
		t.Errorf("β⁻¹ = %v, want %v", m.NoiseVariance(), want)
	}
}

// A linear mapping on a dense grid behaves like PPCA: the fitted plane
// f(x) = Aᵀx + b spans the principal subspace of data that lie near a
// plane.
func TestGTMLinearFindsPrincipalSubspace(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 5))
	n, p := 300, 6
	Wt := mat.NewDense(2, p, []float64{3, 1, 0, 1, -1, 2, -1, 2, 1, 0, 1.5, 0.5})
	Y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		x := []float64{rnd.NormFloat64(), rnd.NormFloat64()}
		for j := 0; j < p; j++ {
			Y.Set(i, j, x[0]*Wt.At(0, j)+x[1]*Wt.At(1, j)+0.1*rnd.NormFloat64()+float64(j))
		}
	}
	m := &GTM{Q: 2, Grid: 15, Basis: GTMLinearBasis}
	fitOK(t, m.Fit(Y))
	var J mat.Dense
	m.JacobianTo(&J, []float64{0.3, -0.2})
	pca := &PCA{Q: 2}
	if err := pca.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var U mat.Dense
	pca.LoadingsTo(&U)
	if a := linalg.SubspaceAngle(&J, &U); a > 0.01 {
		t.Errorf("angle between the linear GTM plane and the principal subspace = %v rad", a)
	}
}

// The magnification factor of a linear map f(x) = Aᵀx + b is √det(AAᵀ)
// everywhere; for the RBF map it is √det(JᵀJ) with J checked against
// finite differences of the map.
func TestGTMMagnification(t *testing.T) {
	Y := gtmTestData(120, 6)
	lin := &GTM{Q: 2, Grid: 8, Basis: GTMLinearBasis}
	fitOK(t, lin.Fit(Y))
	A := lin.w.Slice(0, 2, 0, 5)
	var AAt mat.SymDense
	AAt.SymOuterK(1, A)
	want := math.Sqrt(mat.Det(&AAt))
	X := mat.NewDense(3, 2, []float64{0, 0, 1, -1, -2, 0.5})
	for i, v := range lin.MagnificationFactors(X) {
		if math.Abs(v-want) > 1e-10*want {
			t.Errorf("linear magnification at row %d = %v, want √det(AAᵀ) = %v", i, v, want)
		}
	}

	for _, basis := range []GTMBasis{GTMRandomCentres, GTMGridCentres} {
		m := &GTM{Q: 2, Grid: 8, Basis: basis}
		fitOK(t, m.Fit(Y))
		x := []float64{0.3, -0.4}
		var J mat.Dense
		m.JacobianTo(&J, x)
		const h = 1e-6
		for l := 0; l < 2; l++ {
			xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
			xp[l] += h
			xm[l] -= h
			var Fp, Fm mat.Dense
			m.MapTo(&Fp, mat.NewDense(1, 2, xp))
			m.MapTo(&Fm, mat.NewDense(1, 2, xm))
			for j := 0; j < 5; j++ {
				fd := (Fp.At(0, j) - Fm.At(0, j)) / (2 * h)
				if math.Abs(fd-J.At(j, l)) > 1e-6*(1+math.Abs(fd)) {
					t.Errorf("basis %d: J[%d,%d] = %v, finite difference %v", basis, j, l, J.At(j, l), fd)
				}
			}
		}
		var JtJ mat.SymDense
		JtJ.SymOuterK(1, J.T())
		got := m.MagnificationFactors(mat.NewDense(1, 2, x))[0]
		if w := math.Sqrt(mat.Det(&JtJ)); math.Abs(got-w) > 1e-12*w {
			t.Errorf("basis %d: magnification %v, √det(JᵀJ) %v", basis, got, w)
		}
	}
}

func TestGTMErrors(t *testing.T) {
	Y := gtmTestData(20, 1)
	Y.Set(3, 2, math.NaN())
	m := &GTM{Q: 2, Grid: 4}
	if err := m.Fit(Y); !errors.Is(err, ErrNaN) {
		t.Errorf("NaN: err = %v, want ErrNaN", err)
	}
	mustPanic(t, "unfitted", func() { m.MagnificationFactors(mat.NewDense(1, 2, nil)) })
	mustPanic(t, "Q ≥ p", func() { (&GTM{Q: 5}).Fit(gtmTestData(20, 1)) })
}

// Other latent dimensions: q = 1 (a string, g points) and q = 3 (g³ points).
func TestGTMLatentDimensions(t *testing.T) {
	Y := gtmTestData(60, 11)
	for _, c := range []struct{ q, g, m int }{{1, 15, 15}, {3, 4, 64}} {
		m := &GTM{Q: c.q, Grid: c.g}
		fitOK(t, m.Fit(Y))
		var X, G mat.Dense
		m.LatentTo(&X)
		m.GridTo(&G)
		if r, q := X.Dims(); r != 60 || q != c.q {
			t.Errorf("q = %d: latent %d×%d", c.q, r, q)
		}
		if r, _ := G.Dims(); r != c.m {
			t.Errorf("q = %d: %d grid points, want %d", c.q, r, c.m)
		}
		if mf := m.MagnificationFactors(&G); len(mf) != c.m || !(mf[0] >= 0) {
			t.Errorf("q = %d: magnification factors %v", c.q, mf[:1])
		}
	}
}

// Centres fixes the random-centre basis: two fits with different seeds but
// the same Centres are identical (and differ from a fit with drawn
// centres). InitLatent sets X₀ as given: the grid spans 1.2 ×
// its range, so a mirrored X₀ mirrors the grid.
func TestGTMFixedCentresAndInitLatent(t *testing.T) {
	Y := gtmTestData(120, 3)
	C := mat.NewDense(6, 2, []float64{-1, -1, 1, -1, 0, 0, -1, 1, 1, 1, 0.5, -0.5})
	fit := func(m *GTM) *mat.Dense {
		fitOK(t, m.Fit(Y))
		var F mat.Dense
		m.MapTo(&F, mat.NewDense(3, 2, []float64{0, 0, 0.5, -0.5, -1, 1}))
		return &F
	}
	a := fit(&GTM{Q: 2, Grid: 5, Centres: C, Src: rand.NewPCG(1, 1), MaxIter: 30})
	b := fit(&GTM{Q: 2, Grid: 5, Centres: C, Src: rand.NewPCG(2, 2), MaxIter: 30})
	c := fit(&GTM{Q: 2, Grid: 5, NumBasis: 6, Src: rand.NewPCG(1, 1), MaxIter: 30})
	if !mat.Equal(a, b) {
		t.Errorf("fixed Centres: the seed changed the fit")
	}
	if mat.EqualApprox(a, c, 1e-6) {
		t.Errorf("fixed Centres gave the same fit as random ones")
	}
	X0 := mat.NewDense(120, 2, nil)
	for i := 0; i < 120; i++ {
		X0.Set(i, 0, Y.At(i, 0))
		X0.Set(i, 1, -2*Y.At(i, 1))
	}
	m := &GTM{Q: 2, Grid: 5, InitLatent: X0, MaxIter: 5}
	fitOK(t, m.Fit(Y))
	var G mat.Dense
	m.GridTo(&G)
	for l := 0; l < 2; l++ {
		g, x := mat.Col(nil, l, &G), mat.Col(nil, l, X0)
		if math.Abs(floats.Min(g)-1.2*floats.Min(x)) > 1e-12 || math.Abs(floats.Max(g)-1.2*floats.Max(x)) > 1e-12 {
			t.Errorf("axis %d: grid [%v, %v], 1.2 × X₀ range [%v, %v]", l, floats.Min(g), floats.Max(g), 1.2*floats.Min(x), 1.2*floats.Max(x))
		}
	}
	for _, bad := range []func(){
		func() { (&GTM{Q: 2, Centres: mat.NewDense(3, 3, nil)}).Fit(Y) },
		func() { (&GTM{Q: 2, NumBasis: 4, Centres: C}).Fit(Y) },
		func() { (&GTM{Q: 2, InitLatent: mat.NewDense(10, 2, nil)}).Fit(Y) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("wrong-shaped Centres or InitLatent did not panic")
				}
			}()
			bad()
		}()
	}
	nan := mat.DenseCopyOf(C)
	nan.Set(0, 0, math.NaN())
	if err := (&GTM{Q: 2, Centres: nan}).Fit(Y); !errors.Is(err, ErrNaN) {
		t.Errorf("NaN centre: %v", err)
	}
}
