package dimred

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/internal/rng"
	"github.com/dimredbook/book/dimred/kernel"

	"gonum.org/v1/gonum/mat"
)

// GPLVM is the Gaussian process latent variable model (Lawrence 2005,
// "Probabilistic non-linear principal component analysis with Gaussian
// process latent variable models", JMLR 6). Each of the p centred columns
// of the data Y (n×p) is an independent draw from a Gaussian process over
// the latent points X (n×q):
//
//	p(Y | X, θ, σ²) = Π_d N(y_:,d | 0, K + σ²I),  K_ij = k(x_i, x_j; θ),
//
//	log p = −(p/2) log|K + σ²I| − ½ tr((K + σ²I)⁻¹YYᵀ) − (np/2) log 2π.
//
// Fit maximises log p(Y | X, θ, σ²) + log p(X) jointly over the latent
// points X, the kernel's hyperparameters θ and the noise variance σ² by
// L-BFGS (the package's gradient driver), with p(X) = Π_i N(x_i | 0, I)
// (Lawrence 2005 §3; dropped with back-constraints), starting from the
// principal components of Y scaled to unit variance. The gradient with
// respect to K is G = ½((K+σ²I)⁻¹YYᵀ(K+σ²I)⁻¹ − p(K+σ²I)⁻¹), chained
// through the kernel to X and θ.
//
// With the linear kernel k(x, x') = σ_w² xᵀx' the model is dual
// probabilistic PCA: its maximum-likelihood X spans the principal
// subspace of Y (Lawrence 2005 §3.2), the same subspace as PPCA's.
//
// Options:
//   - Inducing > 0 replaces the exact likelihood by the variational lower
//     bound of Titsias (2009) with m inducing inputs Z (m×q) optimised
//     alongside X (see gplvm_sparse.go): O(nm²) per iteration instead of
//     O(n³), exact when Z = X.
//   - BackConstraint ties the latent points to the data by a kernel
//     regression, x_i = Σ_j a_j k_bc(y_i, y_j) (Lawrence and
//     Quiñonero-Candela 2006, "Local distance preservation in the GP-LVM
//     through back constraints"); the weights A (n×q) are optimised instead
//     of X, points close in data space stay close in latent space, and
//     ProjectTo starts from the back-constraint's map of the new point.
//
// Missing data: Fit rejects a NaN in Y (ErrNaN); FitMissing marginalises
// missing entries exactly for the exact model, grouping the columns by
// their pattern of observed rows (O(n³) per pattern per iteration).
type GPLVM struct {
	Q int // q, latent dimension, 1 ≤ q < p
	// Kernel is the covariance function k(x, x'; θ) of the mapping, with
	// its starting hyperparameters. Fit optimises a copy (kernel.Clone)
	// and leaves Kernel as it was; FittedKernel returns the fitted copy,
	// which LogLikelihood, LatentTo and ProjectTo use. nil
	// means kernel.Sum{&RBF{σ², 1}, &Bias{σ²/10}} with σ² the mean
	// variance of Y's columns, GPmat's fgplvm default less its white term,
	// which is NoiseVariance here.
	Kernel kernel.CrossParamKernel
	// NoiseVariance is the starting σ² (β⁻¹); 0 means a tenth of the mean
	// variance of Y's columns.
	NoiseVariance float64
	// Inducing is m, the number of inducing points of the sparse
	// (variational) approximation; 0 means the exact model, O(n³) per
	// iteration (use m ≈ 100 for n ≥ 1000). Z starts at m distinct
	// training latent points drawn with Src.
	Inducing int
	// BackConstraint, if non-nil, is the kernel k_bc on data space of the
	// back-constraint x_i = Σ_j a_j k_bc(y_i, y_j) (e.g. kernel.RBF with a
	// length scale of the order of the data's nearest-neighbour
	// distances). It costs an n×n matrix, also with Inducing.
	BackConstraint kernel.Kernel
	// FixParams keeps θ and σ² at their starting values and optimises the
	// latent points only.
	FixParams bool
	// LearnLengthScale also learns the kernel's length scales (the
	// hyperparameters named "… length scale", RBF's ℓ) when the latent
	// prior is on. By default they stay at their starting values (ℓ = 1
	// for the default kernel). Why: the likelihood depends on X only
	// through X/ℓ (K is unchanged by X → cX, ℓ → cℓ), so with ℓ free the
	// prior −½‖X‖² is raised without bound by shrinking X and ℓ together:
	// the log posterior has no finite maximiser, and a long fit drifts
	// towards X = 0 (oil[:100]: ℓ = 0.006, max|X| = 0.028 after 7446
	// iterations). Holding ℓ fixes the unit of the latent space, which the
	// prior N(0, I) then measures; the signal variance, bias and σ² are
	// still learnt (fixing the signal variance instead would not help: it
	// is not part of the invariance). GPmat's fgplvm learns ℓ and relies on
	// its iteration budget. Back-constrained fits have no prior on X and
	// learn ℓ whatever this setting.
	LearnLengthScale bool

	MaxIter int                                    // L-BFGS iterations; 0 means 1000
	Tol     float64                                // change of the objective per point; 0 means 1e-9 (see iterate.go); negative: run MaxIter
	Monitor func(iter int, objective float64) bool // sees the log posterior (bound) per iteration
	Src     rand.Source                            // choice of the starting inducing points; nil: the package's fixed seed

	fit *gplvmFit
}

// gplvmFit is a fitted GP-LVM: the parameters and what ProjectTo needs.
type gplvmFit struct {
	n, p, q int
	mu      []float64
	yc      *mat.Dense // centred data, n×p
	// yfit is yc, or for p > n an n×n factor with yfit yfitᵀ = yc ycᵀ: the
	// likelihood depends on Y through YYᵀ only.
	yfit     *mat.Dense
	x        *mat.Dense // n×q
	z        *mat.Dense // m×q inducing inputs (sparse), nil for the full model
	kern     kernel.CrossParamKernel
	sigma2   float64
	ll       float64 // log p(Y|X) or its bound at the optimum
	obj      float64 // the maximised objective (ll + log prior)
	iters    int
	prior    bool
	bcK      *mat.SymDense // back-constraint Gram matrix, n×n
	bcA      *mat.Dense    // back-constraint weights, n×q
	bcKernel kernel.Kernel
	// Predictive quantities on the basis points B (X or Z): the mean at x*
	// is k(x*, B) alpha and the variance k(x*, x*) − k(x*,B) W k(B,x*) + σ².
	basis *mat.Dense
	alpha *mat.Dense    // |B|×p
	w     *mat.SymDense // |B|×|B|
	// jitter is ε/mean diag K_mm of the sparse bound; 0 means 1e-8.
	jitter float64
	// groups are FitMissing's columns grouped by observed rows (nil: Y
	// complete).
	groups []missGroup
}

const gplvmDefaultMaxIter = 1000

// Fit fits the model to Y (n×p) by maximising the log posterior of X, θ
// and σ². It returns an error wrapping ErrNaN for a NaN or Inf in Y,
// ErrTooFewPoints when n ≤ q, ErrNotConverged when MaxIter is reached with
// Tol ≥ 0 (the model is fitted and usable), and ErrSingular or ErrOverflow
// when the covariance is not positive definite at the start. It panics
// unless 1 ≤ Q < p, and when Inducing > n.
func (m *GPLVM) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *GPLVM) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.fit)
	checkSettings("GPLVM", m)
	n, p := Y.Dims()
	q := m.Q
	if err := checkLatentDim("GPLVM", q, n, p); err != nil {
		return err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return errs.Wrap(err, "GPLVM")
	}
	return m.fitPrepared(ctx, dense.AsDense(Y), nil)
}

// fitPrepared fits the model to the checked, finite Y (n×p); groups, when
// non-nil, are FitMissing's column groups (Y is then mean-filled).
func (m *GPLVM) fitPrepared(ctx context.Context, yd *mat.Dense, groups []missGroup) error {
	n, p := yd.Dims()
	q := m.Q
	if m.Inducing < 0 || m.Inducing > n {
		panic(fmt.Sprintf("dimred: GPLVM Inducing = %d outside [0, n = %d]", m.Inducing, n))
	}
	if m.NoiseVariance < 0 || math.IsNaN(m.NoiseVariance) || math.IsInf(m.NoiseVariance, 0) {
		panic(fmt.Sprintf("dimred: GPLVM NoiseVariance = %v", m.NoiseVariance))
	}
	f := &gplvmFit{n: n, p: p, q: q, prior: m.BackConstraint == nil, groups: groups}
	f.mu = make([]float64, p)
	for j := range p {
		f.mu[j] = mat.Sum(yd.ColView(j)) / float64(n)
	}
	f.yc = mat.NewDense(n, p, nil)
	f.yc.Apply(func(i, j int, v float64) float64 { return v - f.mu[j] }, yd)
	var meanVar float64
	for _, v := range f.yc.RawMatrix().Data {
		meanVar += v * v
	}
	meanVar /= float64(n * p)
	if !(meanVar > 0) {
		return fmt.Errorf("%w: GPLVM: every column of Y is constant", ErrSingular)
	}

	f.yfit = f.yc
	if p > n {
		f.yfit = gramFactor(f.yc)
	}

	// Starting latent points: principal components scaled to unit variance.
	pca := PCA{Q: q}
	if err := pca.FitContext(ctx, f.yc); err != nil {
		return errs.Wrap(err, "GPLVM initialisation")
	}
	f.x = mat.NewDense(n, q, nil)
	pca.LatentTo(f.x)
	for j := range q {
		col := f.x.ColView(j).(*mat.VecDense)
		s := math.Sqrt(mat.Dot(col, col) / float64(n))
		if s > 0 {
			col.ScaleVec(1/s, col)
		}
	}

	// Fit optimises a copy: the caller's Kernel keeps its starting
	// hyperparameters, so a refit starts where the first fit did.
	f.kern = kernel.Clone(m.Kernel)
	if f.kern == nil {
		f.kern = kernel.Sum{&kernel.RBF{Variance: meanVar, LengthScale: 1}, &kernel.Bias{Variance: meanVar / 10}}
	}
	f.sigma2 = m.NoiseVariance
	if f.sigma2 == 0 {
		f.sigma2 = meanVar / 10
	}
	if m.Inducing > 0 {
		f.z = mat.NewDense(m.Inducing, q, nil)
		perm := rand.New(rng.FitSource(m.Src)).Perm(n)
		for i := range m.Inducing {
			f.z.SetRow(i, f.x.RawRowView(perm[i]))
		}
	}
	if m.BackConstraint != nil {
		f.bcKernel = m.BackConstraint
		f.bcK = mat.NewSymDense(n, nil)
		kernel.Gram(f.bcK, m.BackConstraint, f.yc)
		// A from the ridge regression (K_bc + λI) A = X, λ = 10⁻⁶ tr K_bc/n.
		var ch mat.Cholesky
		reg := mat.NewSymDense(n, nil)
		reg.CopySym(f.bcK)
		lambda := 1e-6 * mat.Trace(f.bcK) / float64(n)
		for i := range n {
			reg.SetSym(i, i, reg.At(i, i)+lambda)
		}
		if !ch.Factorize(reg) {
			return fmt.Errorf("%w: GPLVM back-constraint Gram matrix is not positive definite", ErrSingular)
		}
		f.bcA = mat.NewDense(n, q, nil)
		if err := illConditioned(ch.SolveTo(f.bcA, f.x)); err != nil {
			return fmt.Errorf("%w: GPLVM back-constraint: %v", ErrSingular, err)
		}
		f.x.Mul(f.bcK, f.bcA)
	}

	params := f.pack(m.FixParams)
	held := f.heldParams(m.FixParams, m.LearnLengthScale)
	it := newIteration("GPLVM", m.MaxIter, m.Tol, m.Monitor, gplvmDefaultMaxIter, defaultEMTol).perPoint(n).under(ctx)
	var evalErr error
	obj := func(grad, x []float64) float64 {
		f.unpack(x, m.FixParams)
		v, e := f.objective(grad, m.FixParams)
		if e != nil {
			evalErr = e
			return math.Inf(-1)
		}
		if grad != nil {
			// A held parameter has a zero gradient: L-BFGS's steps (and
			// so its curvature pairs) then never move it.
			for _, t := range held {
				grad[t] = 0
			}
		}
		return v
	}
	iters, _, ferr := it.maximise(params, 1e-6, obj)
	if cancelled(ferr) {
		return ferr
	}
	f.unpack(params, m.FixParams)
	if _, e := f.objective(nil, m.FixParams); e != nil {
		if evalErr != nil {
			e = evalErr
		}
		return e
	}
	f.iters = iters
	if err := f.predictive(); err != nil {
		return err
	}
	m.fit = f
	return ferr
}

// heldParams returns the positions, in pack's layout, of the kernel
// hyperparameters held at their starting values: the length scales
// (ParamNames ending in "length scale") when the latent prior is on and
// learnLS is false (see GPLVM.LearnLengthScale).
func (f *gplvmFit) heldParams(fixParams, learnLS bool) []int {
	if fixParams || learnLS || !f.prior {
		return nil
	}
	off := f.n * f.q
	if f.z != nil {
		off += len(f.z.RawMatrix().Data)
	}
	var held []int
	for t, name := range f.kern.ParamNames() {
		if strings.HasSuffix(name, "length scale") {
			held = append(held, off+t)
		}
	}
	return held
}

// pack lays out the optimisation variables: X (or A, back-constrained),
// then Z, then θ and log σ² unless fixed.
func (f *gplvmFit) pack(fixParams bool) []float64 {
	var v []float64
	if f.bcA != nil {
		v = append(v, f.bcA.RawMatrix().Data...)
	} else {
		v = append(v, f.x.RawMatrix().Data...)
	}
	if f.z != nil {
		v = append(v, f.z.RawMatrix().Data...)
	}
	if !fixParams {
		v = append(v, f.kern.Params(nil)...)
		v = append(v, math.Log(f.sigma2))
	}
	return v
}

func (f *gplvmFit) unpack(v []float64, fixParams bool) {
	nq := f.n * f.q
	if f.bcA != nil {
		copy(f.bcA.RawMatrix().Data, v[:nq])
		f.x.Mul(f.bcK, f.bcA)
	} else {
		copy(f.x.RawMatrix().Data, v[:nq])
	}
	off := nq
	if f.z != nil {
		mq := len(f.z.RawMatrix().Data)
		copy(f.z.RawMatrix().Data, v[off:off+mq])
		off += mq
	}
	if !fixParams {
		nt := f.kern.NumParams()
		f.kern.SetParams(v[off : off+nt])
		f.sigma2 = math.Exp(v[off+nt])
	}
}

// objective returns the log posterior (or its sparse bound) at the current
// parameters, storing f.ll, and its gradient in grad (layout of pack) when
// grad is non-nil.
func (f *gplvmFit) objective(grad []float64, fixParams bool) (float64, error) {
	n, q := f.n, f.q
	dX := mat.NewDense(n, q, nil)
	gTheta := make([]float64, f.kern.NumParams())
	var dZ *mat.Dense
	var gLogS2 float64
	var ll float64
	var err error
	if f.z != nil {
		dZ = mat.NewDense(len(f.z.RawMatrix().Data)/q, q, nil)
		ll, gLogS2, err = f.sparseBound(dX, dZ, gTheta, grad != nil)
	} else if f.groups != nil {
		ll, gLogS2, err = f.exactLogLikMissing(dX, gTheta, grad != nil)
	} else {
		ll, gLogS2, err = f.exactLogLik(dX, gTheta, grad != nil)
	}
	if err != nil {
		return math.Inf(-1), err
	}
	f.ll = ll
	obj := ll
	if f.prior {
		// log N(X | 0, I) = −½ Σ x_ik² − (nq/2) log 2π.
		xd := f.x.RawMatrix().Data
		var ss float64
		for _, v := range xd {
			ss += v * v
		}
		obj -= 0.5*ss + 0.5*float64(n*q)*math.Log(2*math.Pi)
		if grad != nil {
			dX.Sub(dX, f.x)
		}
	}
	f.obj = obj
	if grad == nil {
		return obj, nil
	}
	nq := n * q
	if f.bcA != nil {
		// x = K_bc a: ∂/∂A = K_bc ∂/∂X (K_bc symmetric).
		dA := mat.NewDense(n, q, grad[:nq])
		dA.Mul(f.bcK, dX)
	} else {
		copy(grad[:nq], dX.RawMatrix().Data)
	}
	off := nq
	if dZ != nil {
		copy(grad[off:], dZ.RawMatrix().Data)
		off += len(dZ.RawMatrix().Data)
	}
	if !fixParams {
		copy(grad[off:], gTheta)
		grad[off+len(gTheta)] = gLogS2
	}
	return obj, nil
}

// exactLogLik computes log N(Y | 0, K + σ²I) and, when wantGrad, adds its
// gradient to dX and gTheta and returns ∂/∂log σ².
func (f *gplvmFit) exactLogLik(dX *mat.Dense, gTheta []float64, wantGrad bool) (ll, gLogS2 float64, err error) {
	n, p := f.n, f.p
	var K mat.SymDense
	f.kern.GramTo(&K, f.x)
	for i := range n {
		K.SetSym(i, i, K.At(i, i)+f.sigma2)
	}
	var ch mat.Cholesky
	if !ch.Factorize(&K) {
		return 0, 0, fmt.Errorf("%w: GPLVM covariance K + σ²I is not positive definite (σ² = %g)", ErrSingular, f.sigma2)
	}
	_, py := f.yfit.Dims()
	alpha := mat.NewDense(n, py, nil)
	if err := illConditioned(ch.SolveTo(alpha, f.yfit)); err != nil {
		return 0, 0, fmt.Errorf("%w: GPLVM: %v", ErrSingular, err)
	}
	var tr float64
	ad, yd := alpha.RawMatrix().Data, f.yfit.RawMatrix().Data
	for i := range ad {
		tr += ad[i] * yd[i]
	}
	ll = -0.5*float64(p)*ch.LogDet() - 0.5*tr - 0.5*float64(n*p)*math.Log(2*math.Pi)
	if math.IsNaN(ll) || math.IsInf(ll, 0) {
		return 0, 0, fmt.Errorf("%w: GPLVM log-likelihood %v", ErrOverflow, ll)
	}
	if !wantGrad {
		return ll, 0, nil
	}
	// G = ½(ααᵀ − p K⁻¹).
	var kinv mat.SymDense
	if err := illConditioned(ch.InverseTo(&kinv)); err != nil {
		return 0, 0, fmt.Errorf("%w: GPLVM: %v", ErrSingular, err)
	}
	G := mat.NewSymDense(n, nil)
	G.SymOuterK(0.5, alpha)
	raw, kr := G.RawSymmetric(), kinv.RawSymmetric()
	hp := 0.5 * float64(p)
	parallel.TriRows(n, func(i int) {
		for j := i; j < n; j++ {
			raw.Data[i*raw.Stride+j] -= hp * kr.Data[i*kr.Stride+j]
		}
	})
	if hasWhite(f.kern) {
		// The white term is defined by index: only ParamGrad sees it.
		f.kern.ParamGrad(gTheta, G, f.x)
		f.kern.CrossGrad(nil, dX, dX, G, f.x, f.x)
	} else {
		// One parallel pass for θ and X (ParamGrad is serial).
		f.kern.CrossGrad(gTheta, dX, dX, G, f.x, f.x)
	}
	// ∂/∂log σ² = σ² tr G.
	var trG float64
	for i := range n {
		trG += G.At(i, i)
	}
	return ll, f.sigma2 * trG, nil
}

// predictive stores the basis points, alpha and W of the predictive
// distribution used by ProjectTo.
func (f *gplvmFit) predictive() error {
	if f.z != nil {
		return f.sparsePredictive()
	}
	n := f.n
	var K mat.SymDense
	f.kern.GramTo(&K, f.x)
	for i := range n {
		K.SetSym(i, i, K.At(i, i)+f.sigma2)
	}
	var ch mat.Cholesky
	if !ch.Factorize(&K) {
		return fmt.Errorf("%w: GPLVM covariance K + σ²I is not positive definite", ErrSingular)
	}
	f.alpha = mat.NewDense(n, f.p, nil)
	if err := illConditioned(ch.SolveTo(f.alpha, f.yc)); err != nil {
		return fmt.Errorf("%w: GPLVM: %v", ErrSingular, err)
	}
	f.w = new(mat.SymDense)
	if err := illConditioned(ch.InverseTo(f.w)); err != nil {
		return fmt.Errorf("%w: GPLVM: %v", ErrSingular, err)
	}
	f.basis = f.x
	return nil
}

// LatentTo stores the n×q latent points X in dst.
func (m *GPLVM) LatentTo(dst *mat.Dense) {
	m.mustFit()
	dense.ReuseAs(dst, m.fit.n, m.fit.q)
	dst.Copy(m.fit.x)
}

// InducingTo stores the m×q inducing inputs Z of a sparse fit in dst (the
// dst rule of LatentTo). It panics for the exact model.
func (m *GPLVM) InducingTo(dst *mat.Dense) {
	m.mustFit()
	if m.fit.z == nil {
		panic("dimred: GPLVM.InducingTo: the exact model has no inducing points")
	}
	r, c := m.fit.z.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(m.fit.z)
}

// LogLikelihood returns log p(Y | X, θ, σ²) at the fitted parameters —
// for a sparse fit, Titsias's lower bound on it.
func (m *GPLVM) LogLikelihood() float64 { m.mustFit(); return m.fit.ll }

// Objective returns the maximised objective: LogLikelihood plus the log
// prior density of X (no prior with back-constraints).
func (m *GPLVM) Objective() float64 { m.mustFit(); return m.fit.obj }

// NoiseVarianceFitted returns the fitted noise variance σ² = β⁻¹.
func (m *GPLVM) NoiseVarianceFitted() float64 { m.mustFit(); return m.fit.sigma2 }

// FittedKernel returns the kernel with its fitted hyperparameters (the
// same value as Kernel when that was set).
func (m *GPLVM) FittedKernel() kernel.CrossParamKernel { m.mustFit(); return m.fit.kern }

// Iterations returns the number of L-BFGS iterations of the fit.
func (m *GPLVM) Iterations() int { m.mustFit(); return m.fit.iters }

// MeanTo stores the data mean (len p) in dst and returns it.
func (m *GPLVM) MeanTo(dst []float64) []float64 {
	m.mustFit()
	return dense.CopyVecTo(dst, m.fit.mu)
}

func (m *GPLVM) mustFit() {
	if m.fit == nil {
		panic("dimred: GPLVM used before a successful Fit")
	}
}

// hasWhite reports whether k is, or sums, a kernel.White.
func hasWhite(k kernel.ParamKernel) bool {
	switch k := k.(type) {
	case *kernel.White:
		return true
	case kernel.Sum:
		for _, t := range k {
			if hasWhite(t) {
				return true
			}
		}
	}
	return false
}

// gramFactor returns F (n×n) with FFᵀ = YYᵀ: U Λ^{1/2} from the
// eigendecomposition of YYᵀ (negative round-off eigenvalues set to zero).
func gramFactor(Y *mat.Dense) *mat.Dense {
	n, _ := Y.Dims()
	S := mat.NewSymDense(n, nil)
	S.SymOuterK(1, Y)
	var es mat.EigenSym
	if !es.Factorize(S, true) {
		return Y
	}
	vals := es.Values(nil)
	var U mat.Dense
	es.VectorsTo(&U)
	for j, v := range vals {
		s := math.Sqrt(math.Max(v, 0))
		for i := range n {
			U.Set(i, j, U.At(i, j)*s)
		}
	}
	return &U
}
