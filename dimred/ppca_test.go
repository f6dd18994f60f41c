package dimred

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/datasets/dstest"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// loadOilTrain loads the oil training set (1000×12) and its labels with
// datasets.Oil, skipping (or failing under DIMRED_REQUIRE_DATA=1) when the
// data cannot be found (datasets imports no dimred package, so this
// internal test can use it).
func loadOilTrain(t testing.TB) (*mat.Dense, []int) {
	t.Helper()
	ds, err := datasets.Oil("train")
	dstest.Check(t, err)
	return ds.Y, ds.Labels
}

// lowRank returns n×p data Y = X Wᵀ + μ + noise from a q-dimensional
// latent Gaussian.
func lowRank(n, p, q int, noise float64, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, q, nil)
	w := mat.NewDense(p, q, nil)
	for i := range x.RawMatrix().Data {
		x.RawMatrix().Data[i] = rnd.NormFloat64()
	}
	for i := range w.RawMatrix().Data {
		w.RawMatrix().Data[i] = rnd.NormFloat64()
	}
	y := mat.NewDense(n, p, nil)
	y.Mul(x, w.T())
	for i := 0; i < n; i++ {
		row := y.RawRowView(i)
		for j := range row {
			row[j] += noise*rnd.NormFloat64() + float64(j%5)
		}
	}
	return y
}

func wwT(w *mat.Dense) *mat.Dense {
	var c mat.Dense
	c.Mul(w, w.T())
	return &c
}

func TestPPCAOil(t *testing.T) {
	y, labels := loadOilTrain(t)
	m := PPCA{Q: 2}
	if err := m.Fit(y); err != nil {
		t.Fatal(err)
	}
	// Reference values: the oil numbers of book §2.2, recomputed (S with
	// 1/n, natural log, −(np/2) log 2π included).
	if got := m.NoiseVariance(); math.Abs(got-0.088569) > 5e-7 {
		t.Errorf("σ² = %.7f, want 0.088569", got)
	}
	if got := m.LogLikelihood(); math.Abs(got-(-4732.6168)) > 1e-3 {
		t.Errorf("log-likelihood = %.4f, want −4732.6168", got)
	}
	var x mat.Dense
	m.LatentTo(&x)
	if got := NearestNeighbourErrors(&x, labels); got != 162 {
		t.Errorf("1-NN errors = %d, want 162", got)
	}
	// Log-likelihood by q, the closed form recomputed for each q.
	for _, c := range []struct {
		q      int
		s2, ll float64
	}{{1, 0.144418, -6386.007}, {3, 0.053952, -3255.998}, {4, 0.038131, -2471.614}, {11, 0.001782, 223.843}} {
		m := PPCA{Q: c.q}
		if err := m.Fit(y); err != nil {
			t.Fatal(err)
		}
		if math.Abs(m.NoiseVariance()-c.s2) > 5e-7 || math.Abs(m.LogLikelihood()-c.ll) > 1e-3 {
			t.Errorf("q = %d: σ² = %.7f, log p = %.4f; want %g, %g", c.q, m.NoiseVariance(), m.LogLikelihood(), c.s2, c.ll)
		}
	}
}

// TestPPCAClosedForm checks σ² = mean of discarded eigenvalues, the
// closed-form log-likelihood and the stationarity of the solution.
func TestPPCAClosedForm(t *testing.T) {
	y := lowRank(400, 6, 2, 0.3, 1)
	n, p := y.Dims()
	q := 2
	m := PPCA{Q: q}
	if err := m.Fit(y); err != nil {
		t.Fatal(err)
	}
	mu := linalg.ColumnMeans(y)
	S := sampleCov(y, mu)
	var es mat.EigenSym
	es.Factorize(S, false)
	lam := es.Values(nil) // ascending
	var disc float64
	for i := 0; i < p-q; i++ {
		disc += lam[i]
	}
	if got, want := m.NoiseVariance(), disc/float64(p-q); math.Abs(got-want) > 1e-12 {
		t.Errorf("σ² = %v, mean of discarded eigenvalues %v", got, want)
	}
	ll := float64(p) * math.Log(2*math.Pi)
	for i := p - q; i < p; i++ {
		ll += math.Log(lam[i])
	}
	ll += float64(p-q)*math.Log(m.NoiseVariance()) + float64(p)
	ll *= -0.5 * float64(n)
	if got := m.LogLikelihood(); math.Abs(got-ll) > 1e-9*math.Abs(ll) {
		t.Errorf("log-likelihood %v, closed form %v", got, ll)
	}
	// Direct: −(n/2)(p log 2π + log|C| + tr C⁻¹S).
	var C mat.SymDense
	m.CovarianceTo(&C)
	var ch mat.Cholesky
	ch.Factorize(&C)
	var ci mat.SymDense
	ch.InverseTo(&ci)
	var cs mat.Dense
	cs.Mul(&ci, S)
	direct := -0.5 * float64(n) * (float64(p)*math.Log(2*math.Pi) + ch.LogDet() + mat.Trace(&cs))
	if math.Abs(direct-ll) > 1e-9*math.Abs(ll) {
		t.Errorf("direct log-likelihood %v, closed form %v", direct, ll)
	}
	// Posterior mean equals the σ²→... form Ŷ W (WᵀW + σ²I)⁻¹.
	var x, w mat.Dense
	m.LatentTo(&x)
	m.LoadingsTo(&w)
	var proj mat.Dense
	m.ProjectTo(&proj, y)
	if !mat.EqualApprox(&x, &proj, 1e-12) {
		t.Error("ProjectTo(Y) differs from LatentTo")
	}
}

func TestPPCAEMReachesClosedForm(t *testing.T) {
	for _, c := range []struct {
		name  string
		y     *mat.Dense
		iters int
	}{
		{"n>p", lowRank(300, 8, 2, 0.5, 3), 3000},
		{"p>n", lowRank(30, 60, 2, 0.5, 4), 12000}, // EM through Ŷ products, not S
	} {
		t.Run(c.name, func(t *testing.T) {
			eig := PPCA{Q: 2}
			if err := eig.Fit(c.y); err != nil {
				t.Fatal(err)
			}
			prev := math.Inf(-1)
			dec := 0.0
			em := PPCA{Q: 2, Method: PPCAEM, Tol: -1, MaxIter: c.iters,
				Monitor: func(it int, ll float64) bool {
					if ll < prev {
						dec = math.Max(dec, prev-ll)
					}
					prev = ll
					return false
				}}
			if err := em.Fit(c.y); err != nil {
				t.Fatal(err)
			}
			if dec > 1e-9*math.Abs(prev) {
				t.Errorf("EM decreased the log-likelihood by %g", dec)
			}
			var we, wm mat.Dense
			eig.LoadingsTo(&we)
			em.LoadingsTo(&wm)
			if a := linalg.SubspaceAngle(&we, &wm); a > 1e-6 {
				t.Errorf("principal angle between EM and eigen W: %g", a)
			}
			var d mat.Dense
			d.Sub(wwT(&we), wwT(&wm))
			if r := mat.Norm(&d, math.Inf(1)) / mat.Norm(wwT(&we), math.Inf(1)); r > 1e-7 {
				t.Errorf("W Wᵀ differs: relative max-row-sum %g (iterations %d)", r, em.Iterations())
			}
			if d := math.Abs(em.NoiseVariance() - eig.NoiseVariance()); d > 1e-8 {
				t.Errorf("σ²: EM %v eigen %v", em.NoiseVariance(), eig.NoiseVariance())
			}
			if d := math.Abs(em.LogLikelihood() - eig.LogLikelihood()); d > 1e-8*math.Abs(eig.LogLikelihood()) {
				t.Errorf("log p: EM %v eigen %v", em.LogLikelihood(), eig.LogLikelihood())
			}
		})
	}
}

func TestPPCAPrimalDual(t *testing.T) {
	y := lowRank(50, 20, 3, 0.4, 5)
	a := PPCA{Q: 3, Solver: PCACovariance}
	b := PPCA{Q: 3, Solver: PCAGram}
	if err := a.Fit(y); err != nil {
		t.Fatal(err)
	}
	if err := b.Fit(y); err != nil {
		t.Fatal(err)
	}
	var wa, wb mat.Dense
	a.LoadingsTo(&wa)
	b.LoadingsTo(&wb)
	if !mat.EqualApprox(&wa, &wb, 1e-9) || math.Abs(a.NoiseVariance()-b.NoiseVariance()) > 1e-12 ||
		math.Abs(a.LogLikelihood()-b.LogLikelihood()) > 1e-8 {
		t.Errorf("primal and dual differ: σ² %v %v, log p %v %v", a.NoiseVariance(), b.NoiseVariance(), a.LogLikelihood(), b.LogLikelihood())
	}
}

func TestPPCAMissingRecoversComplete(t *testing.T) {
	y := lowRank(300, 10, 2, 0.3, 6)
	full := PPCA{Q: 2}
	if err := full.Fit(y); err != nil {
		t.Fatal(err)
	}
	var wf mat.Dense
	full.LoadingsTo(&wf)
	rnd := rand.New(rand.NewPCG(9, 9))
	prevAngle := math.Inf(1)
	for _, frac := range []float64{0.2, 0.05, 0.01, 0} {
		ym := mat.DenseCopyOf(y)
		for i := range ym.RawMatrix().Data {
			if rnd.Float64() < frac {
				ym.RawMatrix().Data[i] = math.NaN()
			}
		}
		prev := math.Inf(-1)
		m := PPCA{Q: 2, Tol: 1e-10, Monitor: func(_ int, ll float64) bool {
			if ll < prev-1e-9*math.Abs(ll) {
				t.Errorf("missing %.0f%%: log-likelihood decreased %v → %v", 100*frac, prev, ll)
			}
			prev = ll
			return false
		}}
		if err := m.FitMissing(ym); err != nil {
			t.Fatal(err)
		}
		var w mat.Dense
		m.LoadingsTo(&w)
		a := linalg.SubspaceAngle(&w, &wf)
		if frac == 0 {
			if a > 1e-6 || math.Abs(m.NoiseVariance()-full.NoiseVariance()) > 1e-9 ||
				math.Abs(m.LogLikelihood()-full.LogLikelihood()) > 1e-7*math.Abs(full.LogLikelihood()) {
				t.Errorf("no missing values: angle %g, σ² %v vs %v, log p %v vs %v", a, m.NoiseVariance(), full.NoiseVariance(), m.LogLikelihood(), full.LogLikelihood())
			}
		} else if a > prevAngle*1.5+1e-3 {
			t.Errorf("missing %.0f%%: angle %g did not shrink (previous %g)", 100*frac, a, prevAngle)
		}
		prevAngle = a
		if frac > 0 && a > 0.1 {
			t.Errorf("missing %.0f%%: angle to complete-data W %g", 100*frac, a)
		}
	}
}

func TestPPCABadInput(t *testing.T) {
	y := lowRank(20, 5, 2, 0.1, 8)
	bad := mat.DenseCopyOf(y)
	bad.Set(3, 2, math.NaN())
	if err := (&PPCA{Q: 2}).Fit(bad); !errors.Is(err, ErrNaN) {
		t.Errorf("NaN: got %v", err)
	}
	bad.Set(3, 2, math.Inf(1))
	if err := (&PPCA{Q: 2}).FitMissing(bad); !errors.Is(err, ErrNaN) {
		t.Errorf("Inf in FitMissing: got %v", err)
	}
	if err := (&PPCA{Q: 2}).Fit(y.Slice(0, 2, 0, 5)); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("n ≤ q: got %v", err)
	}
	if err := (&PCA{Q: 1}).Fit(y.Slice(0, 1, 0, 5)); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("PCA n < 2: got %v", err)
	}
	allMissing := mat.DenseCopyOf(y)
	for i := 0; i < 20; i++ {
		allMissing.Set(i, 1, math.NaN())
	}
	if err := (&PPCA{Q: 2}).FitMissing(allMissing); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("feature never observed: got %v", err)
	}
	for _, q := range []int{0, 5, 6} {
		mustPanic(t, "PPCA q", func() { _ = (&PPCA{Q: q}).Fit(y) })
	}
	mustPanic(t, "PCA q", func() { _ = (&PCA{Q: 6}).Fit(y) })
	mustPanic(t, "unfitted", func() { (&PPCA{Q: 2}).NoiseVariance() })
	m := PPCA{Q: 2}
	if err := m.Fit(y); err != nil {
		t.Fatal(err)
	}
	mustPanic(t, "dst shape", func() { m.LatentTo(mat.NewDense(3, 3, nil)) })
	mustPanic(t, "project shape", func() { m.ProjectTo(&mat.Dense{}, mat.NewDense(2, 4, nil)) })
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", what)
		}
	}()
	f()
}

func TestSmallCholInverse(t *testing.T) {
	a := []float64{4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2}
	inv := make([]float64, 9)
	logdet, ok := smallCholInverse(inv, a, make([]float64, 9), 3)
	if !ok {
		t.Fatal("not positive definite")
	}
	A := mat.NewDense(3, 3, a)
	var want mat.Dense
	if err := want.Inverse(A); err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(mat.NewDense(3, 3, inv), &want, 1e-13) || math.Abs(logdet-math.Log(mat.Det(A))) > 1e-13 {
		t.Errorf("inverse %v, log det %v", inv, logdet)
	}
	if _, ok := smallCholInverse(inv, []float64{1, 2, 2, 1}, make([]float64, 4), 2); ok {
		t.Error("indefinite matrix accepted")
	}
}

func TestPPCAProjectMissing(t *testing.T) {
	y := lowRank(200, 6, 2, 0.2, 19)
	m := PPCA{Q: 2}
	if err := m.Fit(y); err != nil {
		t.Fatal(err)
	}
	// A row with a NaN is projected by marginalising that feature: the
	// same as a model fitted without it.
	row := mat.DenseCopyOf(y.Slice(0, 1, 0, 6))
	row.Set(0, 3, math.NaN())
	var got mat.Dense
	m.ProjectTo(&got, row)
	var w mat.Dense
	m.LoadingsTo(&w)
	mu := m.MeanTo(nil)
	wo := mat.NewDense(5, 2, nil)
	r := mat.NewVecDense(5, nil)
	k := 0
	for j := 0; j < 6; j++ {
		if j == 3 {
			continue
		}
		wo.SetRow(k, w.RawRowView(j))
		r.SetVec(k, y.At(0, j)-mu[j])
		k++
	}
	var mo mat.Dense
	mo.Mul(wo.T(), wo)
	mo.Set(0, 0, mo.At(0, 0)+m.NoiseVariance())
	mo.Set(1, 1, mo.At(1, 1)+m.NoiseVariance())
	var wr, want mat.VecDense
	wr.MulVec(wo.T(), r)
	if err := want.SolveVec(&mo, &wr); err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.At(0, 0)-want.AtVec(0)) > 1e-12 || math.Abs(got.At(0, 1)-want.AtVec(1)) > 1e-12 {
		t.Errorf("projection with a missing value %v, want %v", got.RawRowView(0), want.RawVector().Data)
	}
	row.Set(0, 2, math.Inf(1))
	mustPanic(t, "Inf in ProjectTo", func() { m.ProjectTo(&mat.Dense{}, row) })
	p := PCA{Q: 2}
	if err := p.Fit(y); err != nil {
		t.Fatal(err)
	}
	mustPanic(t, "NaN in PCA.ProjectTo", func() { p.ProjectTo(&mat.Dense{}, row) })
}

func TestPPCALogLikelihoodAndAngleBadInput(t *testing.T) {
	y := lowRank(20, 4, 1, 0.1, 23)
	w := mat.NewDense(4, 1, []float64{1, 0, 0, 0})
	mu := make([]float64, 4)
	mustPanic(t, "σ² = 0", func() { _, _ = PPCALogLikelihood(y, w, mu, 0) })
	mustPanic(t, "W shape", func() { _, _ = PPCALogLikelihood(y, mat.NewDense(3, 1, nil), mu, 1) })
	mustPanic(t, "μ length", func() { _, _ = PPCALogLikelihood(y, w, mu[:3], 1) })
	y.Set(4, 1, math.NaN())
	if _, err := PPCALogLikelihood(y, w, mu, 1); !errors.Is(err, ErrNaN) {
		t.Errorf("NaN: %v", err)
	}
	mustPanic(t, "angle shapes", func() { linalg.SubspaceAngle(w, mat.NewDense(4, 2, nil)) })
	if a := linalg.SubspaceAngle(w, mat.NewDense(4, 1, []float64{0, 3, 0, 0})); math.Abs(a-math.Pi/2) > 1e-12 {
		t.Errorf("orthogonal lines: angle %v", a)
	}
}

func TestPPCASample(t *testing.T) {
	m := PPCA{Q: 2}
	if err := m.Fit(lowRank(300, 5, 2, 0.5, 29)); err != nil {
		t.Fatal(err)
	}
	var ys mat.Dense
	m.Sample(&ys, 100000, nil)
	S := sampleCov(&ys, linalg.ColumnMeans(&ys))
	var C mat.SymDense
	m.CovarianceTo(&C)
	var d mat.Dense
	d.Sub(S, &C)
	if r := mat.Norm(&d, 2) / mat.Norm(&C, 2); r > 0.02 {
		t.Errorf("sample covariance off by %.3g (relative)", r)
	}
	mu, got := m.MeanTo(nil), linalg.ColumnMeans(&ys)
	for j := range mu {
		if math.Abs(got[j]-mu[j]) > 0.05 {
			t.Errorf("mean %d: %v vs %v", j, got[j], mu[j])
		}
	}
}

// TestChapter2FailedRefitDiscardsFit checks DESIGN's rule that a failed
// refit must not silently serve the previous fit: after a successful Fit,
// a Fit on bad data returns the error and later use panics as if unfitted;
// the error names the offending entry.
func TestChapter2FailedRefitDiscardsFit(t *testing.T) {
	y := lowRank(40, 5, 2, 0.1, 8)
	bad := mat.DenseCopyOf(y)
	bad.Set(3, 2, math.NaN())
	inf := mat.DenseCopyOf(y)
	inf.Set(3, 2, math.Inf(1))
	pcaM := &PCA{Q: 2}
	ppcaM := &PPCA{Q: 2}
	emM := &PPCA{Q: 2, Method: PPCAEM}
	missM := &PPCA{Q: 2}
	faM := &FactorAnalysis{Q: 2}
	mixM := &MixturePPCA{M: 2, Q: 1}
	bM := &BayesianPCA{}
	cases := []struct {
		name     string
		fit      func(Y mat.Matrix) error
		bad      *mat.Dense
		use      func()
		wantName string
	}{
		{"PCA", pcaM.Fit, bad, func() { pcaM.LatentTo(&mat.Dense{}) }, "Y[3,2] = NaN"},
		{"PPCA", ppcaM.Fit, bad, func() { ppcaM.LatentTo(&mat.Dense{}) }, "Y[3,2] = NaN"},
		{"PPCA EM", emM.Fit, bad, func() { emM.NoiseVariance() }, "Y[3,2] = NaN"},
		{"PPCA FitMissing", missM.FitMissing, inf, func() { missM.LoadingsTo(&mat.Dense{}) }, "Y[3,2] = +Inf"},
		{"FactorAnalysis", faM.Fit, bad, func() { faM.LatentTo(&mat.Dense{}) }, "Y[3,2] = NaN"},
		{"MixturePPCA", mixM.Fit, bad, func() { mixM.LatentTo(&mat.Dense{}) }, "Y[3,2] = NaN"},
		{"BayesianPCA", bM.Fit, bad, func() { bM.LatentTo(&mat.Dense{}) }, "Y[3,2] = NaN"},
	}
	for _, c := range cases {
		if err := c.fit(y); err != nil && !errors.Is(err, ErrNotConverged) {
			t.Fatalf("%s: first fit: %v", c.name, err)
		}
		c.use() // fitted: must not panic
		err := c.fit(c.bad)
		if !errors.Is(err, ErrNaN) {
			t.Errorf("%s: refit on bad data: got %v, want ErrNaN", c.name, err)
		} else if !strings.Contains(err.Error(), c.wantName) {
			t.Errorf("%s: error %q does not name the entry %q", c.name, err, c.wantName)
		}
		mustPanic(t, c.name+" after failed refit", c.use)
	}
}

// TestChapter2HyperparametersChangedAfterFit: changing Q (or M) after Fit
// must not change the shape of what the fitted model reports, and a mixture
// must not read the caller's Y after Fit.
func TestChapter2HyperparametersChangedAfterFit(t *testing.T) {
	y := lowRank(40, 5, 2, 0.1, 8)
	pp := PPCA{Q: 2}
	fa := FactorAnalysis{Q: 2}
	mix := MixturePPCA{M: 2, Q: 2}
	ycopy := mat.DenseCopyOf(y)
	for _, f := range []func(mat.Matrix) error{pp.Fit, fa.Fit, mix.Fit} {
		if err := f(ycopy); err != nil {
			t.Fatal(err)
		}
	}
	var before mat.Dense
	mix.LatentTo(&before)
	ycopy.Zero()
	pp.Q, fa.Q, mix.Q, mix.M = 3, 3, 3, 3
	for name, f := range map[string]func(*mat.Dense){"PPCA": pp.LatentTo, "FactorAnalysis": fa.LatentTo, "MixturePPCA": mix.LatentTo} {
		var x mat.Dense
		f(&x)
		if r, c := x.Dims(); r != 40 || c != 2 {
			t.Errorf("%s: LatentTo after changing Q is %d×%d, want 40×2", name, r, c)
		}
	}
	var after mat.Dense
	mix.LatentTo(&after)
	if !mat.Equal(&before, &after) {
		t.Error("MixturePPCA.LatentTo changed when the caller overwrote Y after Fit")
	}
	mustPanic(t, "component 2 of a 2-component fit", func() { mix.ComponentLoadingsTo(&mat.Dense{}, 2) })
}

// With the defaults PPCA EM converges on the 40×5 conformance data and
// reaches the closed form (it used to stop at MaxIter = 10000 with
// ErrNotConverged: EM's rate there is 1 − 8·10⁻⁴ per iteration, and a gain
// of 10⁻¹² |log p| per iteration is reached only after 15 000).
func TestPPCAEMDefaultsConverge(t *testing.T) {
	y := conformanceData()
	n, _ := y.Dims()
	eig := PPCA{Q: 2}
	if err := eig.Fit(y); err != nil {
		t.Fatal(err)
	}
	em := PPCA{Q: 2, Method: PPCAEM}
	if err := em.Fit(y); err != nil {
		t.Fatal(err)
	}
	var we, wm mat.Dense
	eig.LoadingsTo(&we)
	em.LoadingsTo(&wm)
	if a := linalg.SubspaceAngle(&we, &wm); a > 1e-8 {
		t.Errorf("principal angle between EM and eigen W: %g", a)
	}
	if d := math.Abs(em.NoiseVariance()-eig.NoiseVariance()) / eig.NoiseVariance(); d > 1e-6 {
		t.Errorf("σ²: EM %v eigen %v", em.NoiseVariance(), eig.NoiseVariance())
	}
	// EM is below the maximum; the gap per point is a few times Tol/(1 − rate).
	if gap := (eig.LogLikelihood() - em.LogLikelihood()) / float64(n); gap < -1e-12 || gap > 1e-5 {
		t.Errorf("log-likelihood gap per point %g", gap)
	}
}

// PosteriorCovTo is Cov[x_i | y_i] = I − Wᵀ C⁻¹ W (C = WWᵀ + σ²I), computed
// by Gaussian conditioning; after FitMissing, point i's is I − W_oᵀ C_oo⁻¹ W_o
// over its observed features o.
func TestPPCAPosteriorCov(t *testing.T) {
	y := lowRank(100, 6, 2, 0.4, 21)
	_, p := y.Dims()
	m := PPCA{Q: 2}
	if err := m.Fit(y); err != nil {
		t.Fatal(err)
	}
	var w mat.Dense
	m.LoadingsTo(&w)
	want := condCov(&w, isoNoise(p, m.NoiseVariance()))
	for _, i := range []int{0, 57, 99} {
		var got mat.SymDense
		m.PosteriorCovTo(&got, i)
		if !mat.EqualApprox(&got, want, 1e-12) {
			t.Errorf("complete data, point %d: %v, want %v", i, mat.Formatted(&got), mat.Formatted(want))
		}
	}
	// Missing data: point 3 misses features 0 and 4, point 8 feature 2.
	ym := mat.DenseCopyOf(y)
	ym.Set(3, 0, math.NaN())
	ym.Set(3, 4, math.NaN())
	ym.Set(8, 2, math.NaN())
	mm := PPCA{Q: 2}
	if err := mm.FitMissing(ym); err != nil {
		t.Fatal(err)
	}
	mm.LoadingsTo(&w)
	s2 := mm.NoiseVariance()
	for _, c := range []struct {
		i   int
		obs []int
	}{{3, []int{1, 2, 3, 5}}, {8, []int{0, 1, 3, 4, 5}}, {0, []int{0, 1, 2, 3, 4, 5}}} {
		wo := mat.NewDense(len(c.obs), 2, nil)
		for r, k := range c.obs {
			wo.SetRow(r, w.RawRowView(k))
		}
		want := condCov(wo, isoNoise(len(c.obs), s2))
		var got mat.SymDense
		mm.PosteriorCovTo(&got, c.i)
		if !mat.EqualApprox(&got, want, 1e-12) {
			t.Errorf("missing data, point %d: %v, want %v", c.i, mat.Formatted(&got), mat.Formatted(want))
		}
	}
	mustPanic(t, "point out of range", func() { var d mat.SymDense; m.PosteriorCovTo(&d, 100) })
	mustPanic(t, "wrong dst size", func() { m.PosteriorCovTo(mat.NewSymDense(3, nil), 0) })
}

// A refit that panics on a bad setting (Q ≥ p) leaves the model unfitted
// once the panic is recovered: it never serves the previous fit.
func TestChapter2PanickedRefitDiscardsFit(t *testing.T) {
	y := lowRank(40, 5, 2, 0.1, 8)
	ppcaM := &PPCA{Q: 2}
	emM := &PPCA{Q: 2, Method: PPCAEM}
	missM := &PPCA{Q: 2}
	faM := &FactorAnalysis{Q: 2}
	mixM := &MixturePPCA{M: 2, Q: 1}
	bM := &BayesianPCA{}
	for _, c := range []struct {
		name string
		fit  func(Y mat.Matrix) error
		setQ func(q int)
		use  func()
	}{
		{"PPCA", ppcaM.Fit, func(q int) { ppcaM.Q = q }, func() { ppcaM.LatentTo(&mat.Dense{}) }},
		{"PPCA EM", emM.Fit, func(q int) { emM.Q = q }, func() { emM.NoiseVariance() }},
		{"PPCA FitMissing", missM.FitMissing, func(q int) { missM.Q = q }, func() { missM.LoadingsTo(&mat.Dense{}) }},
		{"FactorAnalysis", faM.Fit, func(q int) { faM.Q = q }, func() { faM.LatentTo(&mat.Dense{}) }},
		{"MixturePPCA", mixM.Fit, func(q int) { mixM.Q = q }, func() { mixM.LatentTo(&mat.Dense{}) }},
		{"BayesianPCA", bM.Fit, func(q int) { bM.Q = q }, func() { bM.LatentTo(&mat.Dense{}) }},
	} {
		if err := c.fit(y); err != nil && !errors.Is(err, ErrNotConverged) {
			t.Fatalf("%s: first fit: %v", c.name, err)
		}
		c.use() // fitted: must not panic
		c.setQ(5)
		mustPanic(t, c.name+" refit with Q = p", func() { _ = c.fit(y) })
		mustPanic(t, c.name+" after panicked refit", c.use)
	}
}
