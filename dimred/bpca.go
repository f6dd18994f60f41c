package dimred

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// BayesianPCA is PPCA with an automatic-relevance-determination prior on
// the columns of W (Bishop 1999a, "Bayesian PCA"; book §2.15, a placeholder
// in the draft):
//
//	p(W|α) = Π_{i=1}^q (αᵢ/2π)^{p/2} exp(−½ αᵢ ‖w_{:,i}‖²),
//
// fitted by MAP-EM with type-II updates of α, accelerated by SQUAREM (see
// PlainEM) and stopped on both the objective and the parameters (see
// ParamTol). One EM step is the PPCA
// E-step (M = WᵀW + σ²I, ⟨X⟩ = ŶWM⁻¹, ⟨XᵀX⟩ = nσ²M⁻¹ + ⟨X⟩ᵀ⟨X⟩), then
//
//	W' = Ŷᵀ⟨X⟩ (⟨XᵀX⟩ + σ²A)⁻¹,  A = diag(α),
//	σ²' = (np)⁻¹[tr ŶᵀŶ − 2 tr(⟨X⟩ᵀŶW') + tr(W'ᵀW'⟨XᵀX⟩)],
//	αᵢ' = p / ‖w'_{:,i}‖².
//
// Columns the data do not support shrink to zero and their αᵢ → ∞: the
// model switches off unneeded latent dimensions, so Q can be set high
// (default p − 1; ⌊n/2⌋ when p ≥ n, where MAP estimation with q near
// n − 1 explains nearly everything as signal and stalls) and the
// effective dimensionality read off with ActiveDims. A column is pruned (w_{:,i} = 0, αᵢ = +Inf) once
// ‖w_{:,i}‖² < PruneTol · tr S. EM starts from the PPCA eigen solution.
// Each step increases log p(Y|W, σ²) + log p(W|α) over the active columns,
// the objective passed to Monitor; pruning a column drops its (large)
// prior term, so the objective may fall at that iteration.
//
// Bishop (1999b) also gives a variational treatment with hyperpriors; this
// is the simpler MAP/ARD version of the 1999a paper.
type BayesianPCA struct {
	Q int // maximum latent dimension; 0 means p−1 (⌊n/2⌋ when p ≥ n)
	// MaxIter is the largest number of iterations (SQUAREM cycles of three
	// EM steps, or single EM steps with PlainEM); 0 means 10000. EM
	// stops when one iteration changes the objective (up or down: pruning
	// lowers it) by at most Tol per data point (Tol·n) and the parameter
	// test (ParamTol) holds; Tol 0 means 1e-8, ten
	// times the other EM fits' default, because the MAP objective's ridge
	// (a column's norm and its αᵢ drifting together) is flatter still; a
	// negative Tol switches the test off, so EM runs exactly MaxIter
	// iterations and does not report ErrNotConverged.
	MaxIter int
	Tol     float64
	// ParamTol is the test on the parameters that must hold as well: the
	// estimated distance of θ = (W, σ²) from the fixed point of EM,
	// ‖θ − θ*‖ ≈ ‖Δθ‖ r/(1 − r) from the size ‖Δθ‖ of the last plain EM
	// step and its contraction rate r = ‖Δθ‖/‖Δθ_prev‖ (EM converges
	// linearly), at most ParamTol·‖θ‖. 0 means 1e-9; a negative value
	// switches it off (the objective test alone, which on the oil data
	// stopped 1.6·10⁻³ from the fixed point: the objective is flat where
	// two αᵢ are nearly equal and their columns rotate slowly).
	ParamTol float64
	// PlainEM switches off the SQUAREM acceleration (Varadhan & Roland
	// 2008, "Simple and globally convergent methods for accelerating the
	// convergence of any EM algorithm", scheme S3): by default one
	// iteration is two EM steps θ₁ = F(θ₀), θ₂ = F(θ₁), the extrapolation
	// θ' = θ₀ − 2a r + a² v (r = θ₁ − θ₀, v = θ₂ − 2θ₁ + θ₀,
	// a = min(−‖r‖/‖v‖, −1)) and one EM step from θ', kept only if its
	// objective is at least θ₂'s (else θ₂ is kept), so the objective never
	// falls below plain EM's; a step that prunes a column ends the
	// iteration where it is. The fixed point is
	// the same; the work is less (oil data, q = 11: 48 iterations, about
	// 150 EM steps, against 4153 plain steps, both stopped by ParamTol).
	PlainEM  bool
	PruneTol float64 // 0 means 1e-12
	// Monitor, if set, is called before each EM iteration and once at the
	// end with the iteration number (from 0) and the objective
	// log p(Y|W, σ²) + log p(W|α) of the current parameters; returning
	// true stops EM.
	Monitor func(iter int, objective float64) bool
	// Eigen tunes the eigensolver of the PPCA initialisation; nil means
	// defaults.
	Eigen *linalg.EigenSettings

	n, p, q, iters int
	mu             []float64
	w              *mat.Dense
	alpha          []float64
	sigma2, ll     float64
	x              *mat.Dense
}

// Fit fits the model. Errors: ErrNaN, ErrTooFewPoints (n ≤ Q or n < 2),
// ErrNotConverged. Panics unless 0 ≤ Q < p.
//
// A Fit that returns any error other than ErrNotConverged leaves the model
// unfitted, discarding an earlier fit: later use panics.
func (m *BayesianPCA) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *BayesianPCA) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.w)
	checkSettings("BayesianPCA", m)
	n, p := Y.Dims()
	q, err := m.latentDim(n, p)
	if err != nil {
		return err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	st, err := newBPCAState(dense.AsDense(Y), q, m.PruneTol, m.Eigen)
	if err != nil {
		return err
	}
	ptol := m.ParamTol
	if ptol == 0 {
		ptol = 1e-9
	}
	if math.IsNaN(ptol) {
		panic("dimred: BayesianPCA ParamTol is NaN")
	}
	// The objective falls when a column is pruned, so the change is
	// tested in either direction.
	ctl := newIteration("BayesianPCA EM", m.MaxIter, m.Tol, m.Monitor, 10000, 10*defaultEMTol).perPoint(n).anyDirection().under(ctx)
	if ptol > 0 {
		ctl = ctl.alsoParams(func() bool { return st.dist <= ptol })
	}
	step := st.squarem
	if m.PlainEM {
		step = st.plainStep
	}
	it, _, err := ctl.run(st.objective, step)
	if err != nil && !errors.Is(err, ErrNotConverged) {
		return err
	}
	x, xerr := st.latent()
	if xerr != nil {
		return xerr
	}
	m.n, m.p, m.q, m.mu, m.w, m.alpha, m.sigma2, m.ll, m.iters = n, p, q, st.mu, st.w, st.alpha, st.s2, st.ll, it
	m.x = x
	return err
}

// latentDim resolves Q for n×p data: Q, or its default p−1 (⌊n/2⌋ when
// p ≥ n: the centred data have rank n−1, and a model with q near n−1
// explains almost everything as signal, leaving σ² tiny and the MAP
// iteration stuck).
func (m *BayesianPCA) latentDim(n, p int) (int, error) {
	q := m.Q
	if q < 0 || q >= p {
		panic(fmt.Sprintf("dimred: BayesianPCA Q = %d outside [0, p−1 = %d] (0 means the default)", q, p-1))
	}
	if n < 2 {
		return 0, fmt.Errorf("%w: BayesianPCA needs n ≥ 2 observations, have %d", ErrTooFewPoints, n)
	}
	if q == 0 {
		q = p - 1
		if p >= n {
			q = n / 2
		}
		if q < 1 {
			return 0, fmt.Errorf("%w: BayesianPCA needs p ≥ 2 features for the default Q, have %d", ErrTooFewPoints, p)
		}
	}
	if n <= q {
		return 0, fmt.Errorf("%w: BayesianPCA with q = %d needs n > q observations, have %d", ErrTooFewPoints, q, n)
	}
	return q, nil
}

// bpcaState is the state of the Bayesian PCA EM. Pruned columns of w are
// zero with α = +Inf; active lists the others.
type bpcaState struct {
	y          *mat.Dense
	mu         []float64
	S          *mat.SymDense // n⁻¹ŶᵀŶ, nil when p > n
	trS, prune float64
	w          *mat.Dense // p×q
	s2         float64
	alpha      []float64
	active     []int
	// Set by objective at the current parameters:
	wa, sw *mat.Dense // the active columns W_a and S W_a
	ll     float64    // log p(Y|W, σ²)
	// The parameter test: the last plain EM step's size and the estimated
	// relative distance to the fixed point (+Inf until known).
	lastStep, dist float64
}

// newBPCAState starts from the PPCA eigen solution with αᵢ = p/‖w_{:,i}‖²,
// pruning columns below the threshold at once.
func newBPCAState(Y *mat.Dense, q int, pruneTol float64, es *linalg.EigenSettings) (*bpcaState, error) {
	n, p := Y.Dims()
	init := PPCA{Q: q, Eigen: es}
	if err := init.Fit(Y); err != nil {
		return nil, errs.Wrap(err, "BayesianPCA initialisation")
	}
	if pruneTol == 0 {
		pruneTol = 1e-12
	}
	st := &bpcaState{y: Y, mu: init.mu, w: mat.NewDense(p, q, nil), s2: init.sigma2, alpha: make([]float64, q), lastStep: math.NaN(), dist: math.Inf(1)}
	if p <= n {
		st.S = sampleCov(Y, st.mu)
	}
	st.trS = centredSumSq(Y, st.mu) / float64(n)
	st.prune = pruneTol * st.trS
	all := make([]int, q)
	for i := range all {
		all[i] = i
	}
	st.setColumns(init.w, all)
	return st, nil
}

// setColumns stores the columns wn (p×len(cols)) as the columns cols of W,
// prunes those with ‖w_{:,i}‖² below the threshold, and sets αᵢ = p/‖w_{:,i}‖²
// (Bishop 1999a: the most probable α given W, the paper's d being our p).
func (st *bpcaState) setColumns(wn *mat.Dense, cols []int) {
	p, _ := st.w.Dims()
	st.w.Zero()
	st.active = st.active[:0]
	for t, i := range cols {
		nrm := colNormSq(wn, t)
		if nrm < st.prune {
			st.alpha[i] = math.Inf(1)
			continue
		}
		for j := 0; j < p; j++ {
			st.w.Set(j, i, wn.At(j, t))
		}
		st.alpha[i] = float64(p) / nrm
		st.active = append(st.active, i)
	}
}

// objective returns log p(Y|W, σ²) + Σ_{i active} log p(w_{:,i}|αᵢ) at the
// current parameters, storing the log-likelihood and W_a, S W_a. Pruned
// columns are zero and drop out of C = W_a W_aᵀ + σ²I.
func (st *bpcaState) objective() (float64, error) {
	n, p := st.y.Dims()
	if len(st.active) == 0 {
		st.ll = ppcaNullLogLik(n, p, st.trS, st.s2)
		return st.ll, nil
	}
	st.wa = subCols(st.w, st.active)
	st.sw = mat.NewDense(p, len(st.active), nil)
	covTimes(st.sw, st.y, st.mu, st.S, st.wa)
	ll, err := ppcaLogLik(n, p, st.trS, st.wa, st.s2, st.sw)
	if err != nil {
		return 0, err
	}
	st.ll = ll
	obj := ll
	for t, i := range st.active {
		a := st.alpha[i]
		obj += 0.5*float64(p)*math.Log(a/(2*math.Pi)) - 0.5*a*colNormSq(st.wa, t)
	}
	return obj, nil
}

// step is one MAP-EM update from the quantities of the last objective:
// the PPCA E-step (divided by n), W' = n⁻¹Ŷᵀ⟨X⟩ (n⁻¹⟨XᵀX⟩ + n⁻¹σ²A)⁻¹,
// σ²' = p⁻¹[tr S − 2 tr(W'ᵀ n⁻¹Ŷᵀ⟨X⟩) + tr(W'ᵀW' n⁻¹⟨XᵀX⟩)], then α'.
func (st *bpcaState) step() error {
	if len(st.active) == 0 {
		return nil
	}
	n, p := st.y.Dims()
	ka := len(st.active)
	minv, _, err := mInverse(st.wa, st.s2)
	if err != nil {
		return err
	}
	var swm, wswm, exx mat.Dense
	swm.Mul(st.sw, minv) // n⁻¹Ŷᵀ⟨X⟩
	wswm.Mul(st.wa.T(), &swm)
	exx.Mul(minv, &wswm)
	exxS := mat.NewSymDense(ka, nil) // n⁻¹⟨XᵀX⟩
	reg := mat.NewSymDense(ka, nil)  // n⁻¹(⟨XᵀX⟩ + σ²A)
	for a := 0; a < ka; a++ {
		for b := a; b < ka; b++ {
			v := st.s2*minv.At(a, b) + 0.5*(exx.At(a, b)+exx.At(b, a))
			exxS.SetSym(a, b, v)
			if a == b {
				v += st.s2 * st.alpha[st.active[a]] / float64(n)
			}
			reg.SetSym(a, b, v)
		}
	}
	rinv, _, err := symInverse(reg)
	if err != nil {
		return fmt.Errorf("BayesianPCA M-step: %w", err)
	}
	wn := mat.NewDense(p, ka, nil)
	wn.Mul(&swm, rinv)
	var aa, wtw, bb mat.Dense
	aa.Mul(wn.T(), &swm)
	wtw.Mul(wn.T(), wn)
	bb.Mul(&wtw, exxS)
	s2 := (st.trS - 2*mat.Trace(&aa) + mat.Trace(&bb)) / float64(p)
	if !(s2 > 0) {
		return fmt.Errorf("%w: BayesianPCA noise variance σ² = %g", ErrSingular, s2)
	}
	st.s2 = s2
	st.setColumns(wn, append([]int(nil), st.active...))
	return nil
}

// theta returns the parameters θ = (vec W_a, σ²) of the active columns.
func (st *bpcaState) theta() []float64 {
	p, _ := st.w.Dims()
	th := make([]float64, 0, p*len(st.active)+1)
	for _, i := range st.active {
		for j := 0; j < p; j++ {
			th = append(th, st.w.At(j, i))
		}
	}
	return append(th, st.s2)
}

// setTheta stores θ, laid out for the active columns cols, and the αᵢ it
// implies. It reports false, leaving the state unusable until the next
// setTheta, when σ² ≤ 0 or a column would be pruned.
func (st *bpcaState) setTheta(th []float64, cols []int) bool {
	p, _ := st.w.Dims()
	cols = append([]int(nil), cols...)
	// th holds the columns one after the other.
	wn := mat.DenseCopyOf(mat.NewDense(len(cols), p, th[:p*len(cols)]).T())
	s2 := th[len(th)-1]
	if !(s2 > 0) {
		return false
	}
	st.s2 = s2
	st.setColumns(wn, cols)
	return len(st.active) == len(cols)
}

// emMap is one EM step from the current parameters (objective, which the
// step reads, then step). It reports whether a column was pruned.
func (st *bpcaState) emMap() (pruned bool, err error) {
	k := len(st.active)
	if _, err := st.objective(); err != nil {
		return false, err
	}
	if err := st.step(); err != nil {
		return false, err
	}
	return len(st.active) != k, nil
}

// plainStep is one unaccelerated EM step (PlainEM), updating the parameter
// test from its size and the previous step's. The caller has just called
// objective at the current parameters.
func (st *bpcaState) plainStep() error {
	th0 := st.theta()
	k := len(st.active)
	if err := st.step(); err != nil {
		return err
	}
	if len(st.active) != k {
		st.lastStep, st.dist = math.NaN(), math.Inf(1)
		return nil
	}
	d := diffNorm(st.theta(), th0)
	st.noteSteps(st.lastStep, d, th0)
	st.lastStep = d
	return nil
}

// noteSteps sets the estimated relative distance to the fixed point from
// two successive plain EM step sizes d0, d1 taken from θ: with the
// contraction r = d1/d0, ‖θ₁ − θ*‖ ≈ d1·r/(1 − r) and, conservatively for
// θ itself, d0/(1 − r).
func (st *bpcaState) noteSteps(d0, d1 float64, th []float64) {
	nrm := math.Sqrt(dot(th, th))
	switch {
	case d0 == 0 || d1 == 0:
		st.dist = 0
	case !(d1 < d0): // not (yet) contracting, or NaN
		st.dist = math.Inf(1)
	default:
		st.dist = d0 / (1 - d1/d0) / nrm
	}
}

// squarem is one SQUAREM iteration (see BayesianPCA.PlainEM). The caller
// has just called objective at the current parameters θ₀.
func (st *bpcaState) squarem() error {
	th0 := st.theta()
	k := len(st.active)
	if err := st.step(); err != nil {
		return err
	}
	if len(st.active) != k {
		st.dist = math.Inf(1)
		return nil
	}
	th1 := st.theta()
	pruned, err := st.emMap()
	if err != nil {
		return err
	}
	if pruned {
		st.dist = math.Inf(1)
		return nil
	}
	th2 := st.theta()
	d0, d1 := diffNorm(th1, th0), diffNorm(th2, th1)
	st.noteSteps(d0, d1, th0)
	r := make([]float64, len(th0))
	v := make([]float64, len(th0))
	for t := range th0 {
		r[t] = th1[t] - th0[t]
		v[t] = th2[t] - 2*th1[t] + th0[t]
	}
	nr, nv := math.Sqrt(dot(r, r)), math.Sqrt(dot(v, v))
	if nv == 0 || nr == 0 {
		return nil // at θ₂
	}
	a := math.Min(-nr/nv, -1)
	if a == -1 {
		return nil // the extrapolation is θ₂ itself
	}
	obj2, err := st.objective()
	if err != nil {
		return err
	}
	ext := make([]float64, len(th0))
	for t := range th0 {
		ext[t] = th0[t] - 2*a*r[t] + a*a*v[t]
	}
	act := append([]int(nil), st.active...) // θ₂'s columns
	back := func() error {
		if !st.setTheta(th2, act) {
			panic("dimred: BayesianPCA: restoring an EM iterate failed")
		}
		return nil
	}
	if !st.setTheta(ext, act) {
		return back()
	}
	if pruned, err := st.emMap(); err != nil || pruned {
		return back()
	}
	obj, err := st.objective()
	if err != nil || !(obj >= obj2) {
		return back()
	}
	return nil
}

func diffNorm(a, b []float64) float64 {
	s := 0.0
	for t := range a {
		d := a[t] - b[t]
		s += d * d
	}
	return math.Sqrt(s)
}

// latent returns the posterior means ⟨X⟩ = Ŷ W_a M⁻¹ in the active
// columns of an n×q matrix, zero in the pruned ones.
func (st *bpcaState) latent() (*mat.Dense, error) {
	n, _ := st.y.Dims()
	_, q := st.w.Dims()
	x := mat.NewDense(n, q, nil)
	if len(st.active) == 0 {
		return x, nil
	}
	wa := subCols(st.w, st.active)
	minv, _, err := mInverse(wa, st.s2)
	if err != nil {
		return nil, err
	}
	var wm mat.Dense
	wm.Mul(wa, minv)
	xa := mat.NewDense(n, len(st.active), nil)
	centredMul(xa, st.y, st.mu, &wm)
	for t, i := range st.active {
		for r := 0; r < n; r++ {
			x.Set(r, i, xa.At(r, t))
		}
	}
	return x, nil
}

func colNormSq(w *mat.Dense, i int) float64 {
	r, _ := w.Dims()
	var s float64
	for j := 0; j < r; j++ {
		v := w.At(j, i)
		s += v * v
	}
	return s
}

func subCols(w *mat.Dense, cols []int) *mat.Dense {
	r, _ := w.Dims()
	out := mat.NewDense(r, len(cols), nil)
	for t, i := range cols {
		for j := 0; j < r; j++ {
			out.Set(j, t, w.At(j, i))
		}
	}
	return out
}

// ActiveDims returns the number of columns of W that were not switched
// off: the effective latent dimensionality.
func (m *BayesianPCA) ActiveDims() int {
	m.mustFit()
	c := 0
	for _, a := range m.alpha {
		if !math.IsInf(a, 1) {
			c++
		}
	}
	return c
}

// AlphasTo stores the ARD precisions αᵢ (+Inf for switched-off columns)
// in dst and returns it. A nil or empty dst is allocated; a dst of another length panics with
// mat.ErrShape.
func (m *BayesianPCA) AlphasTo(dst []float64) []float64 {
	m.mustFit()
	return dense.CopyVecTo(dst, m.alpha)
}

// LatentTo stores the posterior means ⟨X⟩ (n×q; switched-off columns are
// zero) in dst.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *BayesianPCA) LatentTo(dst *mat.Dense) {
	m.mustFit()
	dense.ReuseAs(dst, m.n, m.q)
	dst.Copy(m.x)
}

// LoadingsTo stores W (p×q; switched-off columns are zero) in dst.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *BayesianPCA) LoadingsTo(dst *mat.Dense) {
	m.mustFit()
	dense.ReuseAs(dst, m.p, m.q)
	dst.Copy(m.w)
}

// NoiseVariance returns σ².
func (m *BayesianPCA) NoiseVariance() float64 { m.mustFit(); return m.sigma2 }

// LogLikelihood returns log p(Y|W, μ, σ²) = Σᵢ log N(y_{i,:} | μ, W Wᵀ + σ²I)
// at the fitted parameters (natural log, including the −(np/2) log 2π
// constant; without the prior on W).
func (m *BayesianPCA) LogLikelihood() float64 { m.mustFit(); return m.ll }

// MeanTo stores in dst and returns the column means μ (length p). A nil or
// empty dst is allocated; a dst of another length panics with mat.ErrShape.
func (m *BayesianPCA) MeanTo(dst []float64) []float64 {
	m.mustFit()
	return dense.CopyVecTo(dst, m.mu)
}

// Iterations returns the number of iterations made (SQUAREM cycles, or EM
// steps with PlainEM).
func (m *BayesianPCA) Iterations() int { return m.iters }

func (m *BayesianPCA) mustFit() {
	if m.w == nil {
		panic("dimred: BayesianPCA used before a successful Fit")
	}
}
