package dimred

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dimredbook/book/dimred/kernel"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// gplvmCurve returns n points of a noisy 1-D curve in p = 4 dimensions.
func gplvmCurve(n int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 7))
	Y := mat.NewDense(n, 4, nil)
	for i := range n {
		t := -2 + 4*float64(i)/float64(n-1)
		Y.SetRow(i, []float64{
			t + 0.05*rnd.NormFloat64(),
			math.Sin(2*t) + 0.05*rnd.NormFloat64(),
			math.Cos(t) + 0.05*rnd.NormFloat64(),
			0.3*t*t + 0.05*rnd.NormFloat64(),
		})
	}
	return Y
}

// checkObjectiveGradient compares the analytic gradient of the fit's
// objective at params with central differences.
func checkObjectiveGradient(t *testing.T, f *gplvmFit, params []float64, fix bool, tol float64) {
	t.Helper()
	grad := make([]float64, len(params))
	f.unpack(params, fix)
	if _, err := f.objective(grad, fix); err != nil {
		t.Fatal(err)
	}
	eval := func(v []float64) float64 {
		f.unpack(v, fix)
		o, err := f.objective(nil, fix)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	x := append([]float64(nil), params...)
	const h = 1e-5
	var worst float64
	for i := range x {
		x0 := x[i]
		x[i] = x0 + h
		fp := eval(x)
		x[i] = x0 - h
		fm := eval(x)
		x[i] = x0
		fd := (fp - fm) / (2 * h)
		if e := math.Abs(fd-grad[i]) / math.Max(1, math.Abs(fd)); e > worst {
			worst = e
		}
		if e := math.Abs(fd - grad[i]); e > tol*math.Max(1, math.Abs(fd)) {
			t.Errorf("gradient[%d] = %.8g, finite difference %.8g", i, grad[i], fd)
		}
	}
	t.Logf("worst relative gradient error %.2g over %d parameters", worst, len(x))
}

// newTestFit builds an unoptimised gplvmFit as Fit does, with MaxIter 1.
func newTestFit(t *testing.T, m *GPLVM, Y *mat.Dense) *gplvmFit {
	t.Helper()
	m.MaxIter, m.Tol = 2, -1
	if err := m.Fit(Y); err != nil {
		t.Fatal(err)
	}
	return m.fit
}

// Gradients of the exact log posterior, the variational bound and the
// back-constrained objective against central differences, with random
// (not optimal) parameters so no term vanishes.
func TestGPLVMGradients(t *testing.T) {
	Y := gplvmCurve(25, 1)
	rbf := func() kernel.CrossParamKernel {
		return kernel.Sum{&kernel.RBF{Variance: 0.8, LengthScale: 0.9}, &kernel.Bias{Variance: 0.2}, &kernel.White{Variance: 0.01}}
	}
	cases := []struct {
		name string
		m    *GPLVM
	}{
		{"exact RBF+bias+white", &GPLVM{Q: 2, Kernel: rbf()}},
		{"exact RBF+bias (default kernel)", &GPLVM{Q: 2}},
		{"exact linear", &GPLVM{Q: 2, Kernel: &kernel.Linear{Variance: 0.7}}},
		{"sparse m=6 RBF+bias+white", &GPLVM{Q: 2, Kernel: rbf(), Inducing: 6}},
		{"sparse m=2 linear+bias", &GPLVM{Q: 2, Kernel: kernel.Sum{&kernel.Linear{Variance: 0.7}, &kernel.Bias{Variance: 0.3}}, Inducing: 2}},
		{"back-constrained exact", &GPLVM{Q: 2, Kernel: rbf(), BackConstraint: kernel.RBF{LengthScale: 1}}},
		{"back-constrained sparse", &GPLVM{Q: 2, Kernel: rbf(), BackConstraint: kernel.RBF{LengthScale: 1}, Inducing: 6}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newTestFit(t, c.m, Y)
			params := f.pack(false)
			rnd := rand.New(rand.NewPCG(3, 4))
			for i := range params {
				params[i] += 0.1 * rnd.NormFloat64()
			}
			checkObjectiveGradient(t, f, params, false, 1e-5)
		})
	}
}

// The gradient of ProjectTo's predictive log density in x*.
func TestGPLVMProjectGradient(t *testing.T) {
	Y := gplvmCurve(25, 2)
	for _, inducing := range []int{0, 6} {
		m := &GPLVM{Q: 2, Inducing: inducing, MaxIter: 20, Tol: -1}
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		f := m.fit
		y := []float64{0.3, -0.2, 0.1, 0.4}
		x := []float64{0.2, -0.7}
		g := make([]float64, 2)
		f.predictiveLogDensity(g, x, y)
		const h = 1e-5
		for k := range x {
			xp := append([]float64(nil), x...)
			xm := append([]float64(nil), x...)
			xp[k] += h
			xm[k] -= h
			fd := (f.predictiveLogDensity(nil, xp, y) - f.predictiveLogDensity(nil, xm, y)) / (2 * h)
			if math.Abs(fd-g[k]) > 1e-5*math.Max(1, math.Abs(fd)) {
				t.Errorf("m=%d: ∂/∂x*_%d = %.8g, finite difference %.8g", inducing, k, g[k], fd)
			}
		}
	}
}

// With the linear kernel the GP-LVM is dual PPCA (Lawrence 2005 §3.2): its
// maximum-likelihood X spans the principal subspace of Y, so the column
// space of X equals that of PPCA's posterior means (both are YU for U the
// top q eigenvectors of YᵀY, up to a q×q transform).
func TestGPLVMLinearIsPPCA(t *testing.T) {
	Y := conformanceData()
	m := &GPLVM{Q: 2, Kernel: &kernel.Linear{Variance: 1}, Tol: 1e-12, MaxIter: 5000}
	// The fit maximises log p(Y|X) − ½‖X‖²; the prior shrinks X but keeps
	// it in the principal subspace: with K = σ_w²XXᵀ + σ²I the stationary
	// condition σ_w²(K⁻¹YYᵀK⁻¹ − pK⁻¹)X = X holds for X = U_q L R with U_q
	// the top eigenvectors of YYᵀ (both sides lie in span U_q).
	if err := m.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var X mat.Dense
	m.LatentTo(&X)
	pp := PPCA{Q: 2}
	if err := pp.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var Xp mat.Dense
	pp.LatentTo(&Xp)
	angle := linalg.SubspaceAngle(&X, &Xp)
	// Round-off of the optimiser's stationary point: L-BFGS to ‖∇‖∞ ≤ 1e-6.
	if angle > 1e-4 {
		t.Errorf("largest principal angle between GP-LVM (linear) and PPCA latent subspaces %.3g rad", angle)
	}
	t.Logf("angle %.3g rad, %d iterations", angle, m.Iterations())
}

// The variational bound approaches the exact log-likelihood as the
// inducing points approach the latent points: with Z = X (m = n) it equals
// it; with fewer inducing points it is below it.
func TestGPLVMSparseApproachesExact(t *testing.T) {
	Y := gplvmCurve(40, 3)
	full := &GPLVM{Q: 2, MaxIter: 200, Tol: -1}
	if err := full.Fit(Y); err != nil {
		t.Fatal(err)
	}
	f := full.fit
	// The bound at any parameters (here σ² = 0.1), with a jitter of 1e-10
	// of K_mm's mean diagonal (the default 1e-8 leaves a gap of
	// O(‖Y‖²ε/σ⁴) at Z = X, see gplvm_sparse.go).
	fitted := f.sigma2
	f.sigma2 = 0.1
	exact, _, err := f.exactLogLik(mat.NewDense(40, 2, nil), make([]float64, f.kern.NumParams()), false)
	if err != nil {
		t.Fatal(err)
	}
	prev := math.Inf(-1)
	for _, m := range []int{5, 10, 20, 40} {
		g := *f
		g.jitter = 1e-10
		g.z = mat.NewDense(m, 2, nil)
		for i := range m {
			g.z.SetRow(i, f.x.RawRowView(i*40/m))
		}
		dX, dZ := mat.NewDense(40, 2, nil), mat.NewDense(m, 2, nil)
		bound, _, err := g.sparseBound(dX, dZ, make([]float64, f.kern.NumParams()), false)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("m = %d: bound %.6f, exact %.6f", m, bound, exact)
		if bound > exact+1e-6*math.Abs(exact) {
			t.Errorf("m = %d: bound %.8g above the exact log-likelihood %.8g", m, bound, exact)
		}
		if bound < prev-1e-6*math.Abs(exact) {
			t.Errorf("m = %d: bound %.8g fell from %.8g with more (nested) inducing points", m, bound, prev)
		}
		prev = bound
		if m == 40 && math.Abs(bound-exact) > 1e-5*math.Abs(exact) {
			t.Errorf("Z = X: bound %.10g, exact %.10g", bound, exact)
		}
	}
	// A fitted sparse model with all points as inducing inputs reaches the
	// exact model's optimum (to the optimiser's tolerance).
	f.sigma2 = fitted
	sp := &GPLVM{Q: 2, Inducing: 40, MaxIter: 200, Tol: -1}
	if err := sp.Fit(Y); err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(sp.Objective() - full.Objective()); d > 0.01*math.Abs(full.Objective()) {
		t.Errorf("sparse m = n objective %.6g, exact %.6g", sp.Objective(), full.Objective())
	}
}

// Fit increases the objective from the PCA start, and ProjectTo of a
// training row lands near its latent point.
func TestGPLVMFitAndProject(t *testing.T) {
	Y := gplvmCurve(40, 4)
	var first float64
	m := &GPLVM{Q: 2, MaxIter: 300, Monitor: func(it int, obj float64) bool {
		if it == 0 {
			first = obj
		}
		return false
	}}
	if err := m.Fit(Y); err != nil && !isNotConverged(err) {
		t.Fatal(err)
	}
	if !(m.Objective() > first) {
		t.Errorf("objective %.6g not above the start %.6g", m.Objective(), first)
	}
	var X, P mat.Dense
	m.LatentTo(&X)
	m.ProjectTo(&P, Y)
	var d mat.Dense
	d.Sub(&X, &P)
	if r := mat.Norm(&d, math.Inf(1)) / mat.Norm(&X, math.Inf(1)); r > 0.5 {
		t.Errorf("projected training rows differ from X by %.3g relative", r)
	}
}

// For p > n the likelihood is computed from an n×n factor of YYᵀ; it and
// its gradient equal those from Y itself (exact and sparse).
func TestGPLVMWideDataFactor(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 9))
	Y := mat.NewDense(12, 30, nil)
	for i := range 12 {
		for j := range 30 {
			Y.Set(i, j, math.Sin(float64(i*j)/7)+0.1*rnd.NormFloat64())
		}
	}
	for _, ind := range []int{0, 4} {
		f := newTestFit(t, &GPLVM{Q: 2, Inducing: ind}, Y)
		params := f.pack(false)
		g1 := make([]float64, len(params))
		g2 := make([]float64, len(params))
		f.unpack(params, false)
		o1, _ := f.objective(g1, false)
		f.yfit = f.yc
		o2, _ := f.objective(g2, false)
		if math.Abs(o1-o2) > 1e-9*math.Abs(o2) {
			t.Errorf("m=%d: objective %.12g from the factor, %.12g from Y", ind, o1, o2)
		}
		for i := range g1 {
			if math.Abs(g1[i]-g2[i]) > 1e-7*math.Max(1, math.Abs(g2[i])) {
				t.Errorf("m=%d: gradient[%d] %.10g from the factor, %.10g from Y", ind, i, g1[i], g2[i])
			}
		}
	}
}

// FitMissing: the gradient of the marginal likelihood with missing
// entries against finite differences, and with nothing missing the same
// objective as Fit.
func TestGPLVMMissing(t *testing.T) {
	Y := gplvmCurve(25, 5)
	m := &GPLVM{Q: 2, MaxIter: 2, Tol: -1}
	if err := m.FitMissing(Y); err != nil {
		t.Fatal(err)
	}
	full := &GPLVM{Q: 2, MaxIter: 2, Tol: -1}
	if err := full.Fit(Y); err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(m.Objective() - full.Objective()); d > 1e-9*math.Abs(full.Objective()) {
		t.Errorf("FitMissing on complete data: objective %.12g, Fit %.12g", m.Objective(), full.Objective())
	}
	Ym := mat.DenseCopyOf(Y)
	for _, e := range [][2]int{{0, 1}, {3, 1}, {7, 2}, {7, 0}, {20, 3}, {21, 3}} {
		Ym.Set(e[0], e[1], math.NaN())
	}
	mm := &GPLVM{Q: 2, MaxIter: 2, Tol: -1, Kernel: kernel.Sum{&kernel.RBF{Variance: 0.8, LengthScale: 0.9}, &kernel.Bias{Variance: 0.2}, &kernel.White{Variance: 0.01}}}
	if err := mm.FitMissing(Ym); err != nil {
		t.Fatal(err)
	}
	if len(mm.fit.groups) != 3 {
		t.Errorf("%d column groups, want 3 (columns 0 and 2 both miss row 7 only)", len(mm.fit.groups))
	}
	params := mm.fit.pack(false)
	rnd := rand.New(rand.NewPCG(8, 1))
	for i := range params {
		params[i] += 0.1 * rnd.NormFloat64()
	}
	checkObjectiveGradient(t, mm.fit, params, false, 1e-5)
	// A full fit with missing data runs and improves on its start.
	var first float64
	mf := &GPLVM{Q: 2, MaxIter: 100, Tol: -1, Monitor: func(it int, o float64) bool {
		if it == 0 {
			first = o
		}
		return false
	}}
	if err := mf.FitMissing(Ym); err != nil {
		t.Fatal(err)
	}
	if !(mf.Objective() > first) {
		t.Errorf("FitMissing objective %.6g not above its start %.6g", mf.Objective(), first)
	}
	// A column with nothing observed is an error.
	Ym2 := mat.DenseCopyOf(Y)
	for i := range 25 {
		Ym2.Set(i, 2, math.NaN())
	}
	if err := (&GPLVM{Q: 2}).FitMissing(Ym2); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("all-missing column: error %v, want ErrTooFewPoints", err)
	}
}

// With the N(0, I) prior on X the log posterior has a finite maximiser
// only when the RBF length scale is held: log p(Y|X) depends on X only
// through X/ℓ, so with ℓ learnt X and ℓ shrink together without bound
// (oil[:100], learnt ℓ: ℓ = 0.066, max|X| = 0.27 after the default 1000
// iterations, ℓ = 0.006, max|X| = 0.028 at 7446). By default ℓ stays at 1:
// within the default budget max|X| is of the order of the prior's unit,
// and a long run converges to a nearby optimum rather than drifting on.
func TestGPLVMFiniteMaximiser(t *testing.T) {
	if testing.Short() {
		t.Skip("GP-LVM fits to 100 oil points (seconds)")
	}
	Y, _ := loadOilTrain(t)
	Ys := mat.DenseCopyOf(Y.Slice(0, 100, 0, 12))
	fit := func(maxIter int) (*GPLVM, float64, float64, error) {
		m := &GPLVM{Q: 2, MaxIter: maxIter}
		err := m.Fit(Ys)
		if err != nil && !errors.Is(err, ErrNotConverged) {
			t.Fatal(err)
		}
		var X mat.Dense
		m.LatentTo(&X)
		mx := 0.0
		for _, v := range X.RawMatrix().Data {
			mx = math.Max(mx, math.Abs(v))
		}
		ell := math.NaN()
		for i, name := range m.FittedKernel().ParamNames() {
			if strings.HasSuffix(name, "length scale") {
				ell = math.Exp(m.FittedKernel().Params(nil)[i])
			}
		}
		return m, ell, mx, err
	}
	def, ell, mx, _ := fit(0)
	t.Logf("default budget: %d iterations, ℓ = %.4g, max|X| = %.4g, objective %.6g", def.Iterations(), ell, mx, def.fit.obj)
	if ell != 1 || !(mx > 1) {
		t.Errorf("default fit: ℓ = %.4g, max|X| = %.4g; want ℓ = 1 and max|X| > 1 (no collapse)", ell, mx)
	}
	long, ell2, mx2, err := fit(5000)
	t.Logf("long run: %d iterations (%v), ℓ = %.4g, max|X| = %.4g, objective %.6g", long.Iterations(), err, ell2, mx2, long.fit.obj)
	if err != nil {
		t.Errorf("long run did not converge: %v", err)
	}
	if ell2 != 1 || math.Abs(mx2-mx) > 0.05*mx {
		t.Errorf("long run: ℓ = %.4g, max|X| = %.4g; the default-budget fit had max|X| = %.4g", ell2, mx2, mx)
	}
	// The default fit is near the optimum: within 0.01 nats per point.
	if d := (long.fit.obj - def.fit.obj) / 100; d > 0.01 || d < -1e-6 {
		t.Errorf("long-run objective %.6g vs default %.6g: %.3g nats per point", long.fit.obj, def.fit.obj, d)
	}
}
