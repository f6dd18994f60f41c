package dimred

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/progress"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/rng"

	"gonum.org/v1/gonum/mat"
)

// PPCAMethod selects how PPCA maximises the likelihood.
type PPCAMethod int

const (
	// PPCAEigen is the closed-form maximum-likelihood solution of Tipping &
	// Bishop (1999b), book §2.6.1–2.7: W = U_q(Λ_q − σ²I)^½ with
	// σ² = (p−q)⁻¹ Σ_{i>q} λᵢ, the mean of the discarded eigenvalues of S.
	PPCAEigen PPCAMethod = iota
	// PPCAEM is the EM algorithm of book §2.11.1 with the draft's two
	// errors corrected (its ⟨X⟩ lacks the inverse of M, its ⟨XᵀX⟩ the σ² in
	// ⟨XᵀX⟩ = nσ²M⁻¹ + ⟨X⟩ᵀ⟨X⟩); Roweis (1998), Tipping & Bishop (1999b).
	PPCAEM
)

// PPCA is probabilistic principal component analysis (book §2.2–2.11):
//
//	y_{i,:} = W x_{i,:} + μ + ε_{i,:},  x_{i,:} ~ N(0, I_q),  ε_{i,:} ~ N(0, σ²I_p),
//
// so that marginally y_{i,:} ~ N(μ, C) with C = W Wᵀ + σ² I (p×p), W p×q.
// Fit maximises the log-likelihood (book eq 2.1)
//
//	log p(Y|W, μ, σ²) = −(n/2)[p log 2π + log|C| + tr(C⁻¹S)],  S = n⁻¹ŶᵀŶ,
//
// by the eigen solution or by EM; FitMissing does EM with missing values
// marginalised. The latent positions are the posterior means (book eq 2.5)
//
//	⟨X⟩ = Ŷ W M⁻¹,  M = WᵀW + σ²I (q×q),  posterior covariance σ²M⁻¹.
//
// The eigen solution fixes the rotation R = I, so W's columns are the
// principal directions scaled by √(λᵢ − σ²); EM's W is W_ML R for some
// orthogonal R (compare W Wᵀ or use linalg.SubspaceAngle).
type PPCA struct {
	Q      int        // q, latent dimension, 1 ≤ q < p and q < n
	Method PPCAMethod // zero value PPCAEigen
	// Solver is the PCA solver of the PPCAEigen path (see PCA.Method);
	// zero value PCAAuto.
	Solver PCAMethod
	// Eigen tunes the eigensolver of the PPCAEigen path (see PCA.Eigen);
	// nil means defaults.
	Eigen *linalg.EigenSettings

	// EM (Method PPCAEM and FitMissing), with the package's iteration
	// rule: MaxIter is the largest number of EM iterations, 0 meaning
	// 10000. EM stops when one iteration raises the log-likelihood by at
	// most Tol per data point (Tol·n); 0 means 1e-9; a negative Tol
	// switches the test off, so EM runs exactly MaxIter iterations (or
	// until Monitor stops it) and does not report ErrNotConverged.
	MaxIter int
	Tol     float64
	// Monitor, if set, is called before each EM iteration and once at the
	// end with the iteration number (from 0) and the log-likelihood of the
	// current parameters; returning true stops EM. EM never decreases it.
	Monitor func(iter int, logLik float64) bool
	Src     rand.Source // random initial W for PPCAEM; nil means rand.NewPCG(1, 2)

	n, p, iters int
	mu          []float64
	w           *mat.Dense // p×q
	sigma2, ll  float64
	x           *mat.Dense      // n×q posterior means
	sx          *mat.SymDense   // q×q posterior covariance (complete data)
	sxi         []*mat.SymDense // per-point posterior covariances (FitMissing)
}

// Fit fits PPCA to the n×p data Y by Method. It returns an error
// wrapping ErrNaN for a NaN or Inf entry (use FitMissing for missing values),
// ErrTooFewPoints when n ≤ q, and, for EM, ErrNotConverged when MaxIter is
// reached first (the model is still usable). It panics unless 1 ≤ Q < p.
//
// A Fit that returns any error other than ErrNotConverged leaves the model
// unfitted, discarding an earlier fit: later use panics.
func (m *PPCA) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *PPCA) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.w)
	checkSettings("PPCA", m)
	n, p := Y.Dims()
	q := m.Q
	if err := checkLatentDim("PPCA", q, n, p); err != nil {
		return err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	if err := progress.Check(ctx, "PPCA"); err != nil {
		return err
	}
	yd := dense.AsDense(Y)
	m.sxi = nil
	switch m.Method {
	case PPCAEigen:
		return m.fitEigen(yd)
	case PPCAEM:
		return m.fitEM(ctx, yd)
	}
	panic(fmt.Sprintf("dimred: unknown PPCAMethod %d", m.Method))
}

func (m *PPCA) fitEigen(Y *mat.Dense) error {
	n, p := Y.Dims()
	q := m.Q
	pca := PCA{Q: q, Method: m.Solver, Eigen: m.Eigen}
	if err := pca.Fit(Y); err != nil {
		return err
	}
	vals := pca.vals
	var kept float64
	for _, v := range vals {
		kept += v
	}
	// σ² = mean of the p−q discarded eigenvalues = (tr S − Σ_{i≤q} λᵢ)/(p−q).
	s2 := (pca.totalVar - kept) / float64(p-q)
	if s2 <= roundoffVariance(pca.totalVar, pca.mu, p) {
		return fmt.Errorf("%w: PPCA noise variance σ² = %g: the data lie in a %d-dimensional subspace", ErrSingular, s2, q)
	}
	w := mat.DenseCopyOf(pca.u)
	for j := 0; j < q; j++ {
		l := math.Sqrt(math.Max(vals[j]-s2, 0)) // ℓⱼ = √(λⱼ − σ²)
		for i := 0; i < p; i++ {
			w.Set(i, j, w.At(i, j)*l)
		}
	}
	m.n, m.p, m.mu, m.w, m.sigma2, m.iters = n, p, pca.mu, w, s2, 0
	// log p = −(n/2)[p log 2π + Σ_{i≤q} log λᵢ + (p−q) log σ² + p] when all
	// λᵢ > σ²; the general formula below covers λᵢ = σ² as well.
	sw := mat.NewDense(p, q, nil)
	covTimes(sw, Y, pca.mu, nil, w)
	ll, err := ppcaLogLik(n, p, pca.totalVar, w, s2, sw)
	if err != nil {
		return err
	}
	m.ll = ll
	return m.posterior(Y)
}

// roundoffVariance is the largest noise variance σ² = (tr S − Σ_{i≤q} λᵢ)/(p−q)
// that round-off alone can produce when the data lie exactly in a
// q-dimensional subspace: the eigensolver's error, p·ε·tr S, plus the
// variance left by centring rows that are all equal, (4ε max_j |μ_j|)².
// Below it σ² is indistinguishable from zero (identical rows used to give
// σ² ≈ 1e-32 and a fit of pure rounding noise).
func roundoffVariance(trS float64, mu []float64, p int) float64 {
	const eps = 0x1p-52
	m := 0.0
	for _, v := range mu {
		m = math.Max(m, math.Abs(v))
	}
	return float64(p)*eps*trS + (4*eps*m)*(4*eps*m)
}

// posterior stores ⟨X⟩ = Ŷ W M⁻¹ and σ²M⁻¹ for the complete data Y.
func (m *PPCA) posterior(Y *mat.Dense) error {
	minv, _, err := mInverse(m.w, m.sigma2)
	if err != nil {
		return err
	}
	n, _ := Y.Dims()
	q := m.Q
	var wm mat.Dense
	wm.Mul(m.w, minv)
	m.x = mat.NewDense(n, q, nil)
	centredMul(m.x, Y, m.mu, &wm)
	m.sx = mat.NewSymDense(q, nil)
	m.sx.ScaleSym(m.sigma2, minv)
	return nil
}

// emIteration is the iteration control of PPCAEM and FitMissing for n
// points.
func (m *PPCA) emIteration(name string, n int) iteration {
	return newIteration(name, m.MaxIter, m.Tol, m.Monitor, 10000, defaultEMTol).perPoint(n)
}

// fitEM runs EM on complete data. With S = n⁻¹ŶᵀŶ (or products with Ŷ
// when p > n), one iteration is
//
//	E: M = WᵀW + σ²I, n⁻¹Ŷᵀ⟨X⟩ = S W M⁻¹, n⁻¹⟨XᵀX⟩ = σ²M⁻¹ + M⁻¹WᵀSWM⁻¹
//	M: W' = (S W M⁻¹)(n⁻¹⟨XᵀX⟩)⁻¹,
//	   σ²' = p⁻¹[tr S − 2 tr(W'ᵀ S W M⁻¹) + tr(W'ᵀW' n⁻¹⟨XᵀX⟩)].
func (m *PPCA) fitEM(ctx context.Context, Y *mat.Dense) error {
	n, p := Y.Dims()
	q := m.Q
	mu := linalg.ColumnMeans(Y)
	var S *mat.SymDense
	if p <= n {
		S = sampleCov(Y, mu)
	}
	trS := centredSumSq(Y, mu) / float64(n)
	if math.IsInf(trS, 0) || S != nil && errs.CheckOverflow(S, "PPCA covariance S") != nil {
		return errs.Overflowf("PPCA EM: tr S = %v", trS)
	}
	rnd := rand.New(rng.FitSource(m.Src))
	w := rng.NormalDense(rnd, p, q)
	w.Scale(math.Sqrt(trS/float64(p)), w)
	s2 := trS / float64(p)
	sw := mat.NewDense(p, q, nil) // S W at the current W
	eval := func() (float64, error) {
		covTimes(sw, Y, mu, S, w)
		return ppcaLogLik(n, p, trS, w, s2, sw)
	}
	step := func() (err error) {
		w, s2, err = ppcaEMStep(w, s2, sw, trS)
		return err
	}
	it, ll, err := m.emIteration("PPCA EM", n).under(ctx).run(eval, step)
	if err != nil && !errors.Is(err, ErrNotConverged) {
		return err
	}
	m.n, m.p, m.mu, m.w, m.sigma2, m.ll, m.iters = n, p, mu, w, s2, ll, it
	if perr := m.posterior(Y); perr != nil {
		return perr
	}
	return err
}

// ppcaEMStep is one EM update from (W, σ²) given sw = S W.
func ppcaEMStep(w *mat.Dense, s2 float64, sw *mat.Dense, trS float64) (*mat.Dense, float64, error) {
	p, q := w.Dims()
	minv, _, err := mInverse(w, s2)
	if err != nil {
		return nil, 0, err
	}
	var swm mat.Dense // S W M⁻¹ = n⁻¹ Ŷᵀ⟨X⟩
	swm.Mul(sw, minv)
	var wswm mat.Dense // WᵀSWM⁻¹
	wswm.Mul(w.T(), &swm)
	var exx mat.Dense // n⁻¹⟨XᵀX⟩ = σ²M⁻¹ + M⁻¹WᵀSWM⁻¹
	exx.Mul(minv, &wswm)
	for i := 0; i < q; i++ {
		for j := 0; j < q; j++ {
			exx.Set(i, j, s2*minv.At(i, j)+0.5*(exx.At(i, j)+exx.At(j, i)))
		}
	}
	exxS := mat.NewSymDense(q, nil)
	for i := 0; i < q; i++ {
		for j := i; j < q; j++ {
			exxS.SetSym(i, j, exx.At(i, j))
		}
	}
	einv, _, err := symInverse(exxS)
	if err != nil {
		return nil, 0, err
	}
	wn := mat.NewDense(p, q, nil)
	wn.Mul(&swm, einv)
	var a mat.Dense
	a.Mul(wn.T(), &swm)
	var wtw mat.Dense
	wtw.Mul(wn.T(), wn)
	var b mat.Dense
	b.Mul(&wtw, exxS)
	s2n := (trS - 2*mat.Trace(&a) + mat.Trace(&b)) / float64(p)
	if !(s2n > 0) {
		return nil, 0, fmt.Errorf("%w: PPCA EM noise variance σ² = %g", ErrSingular, s2n)
	}
	return wn, s2n, nil
}

// LatentTo stores the posterior means ⟨X⟩ (n×q) of the latent points in dst.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *PPCA) LatentTo(dst *mat.Dense) {
	m.mustFit()
	dense.ReuseAs(dst, m.n, m.fq())
	dst.Copy(m.x)
}

// LoadingsTo stores W (p×q) in dst.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *PPCA) LoadingsTo(dst *mat.Dense) {
	m.mustFit()
	dense.ReuseAs(dst, m.p, m.fq())
	dst.Copy(m.w)
}

// CovarianceTo stores the model covariance C = W Wᵀ + σ²I (p×p) in dst.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *PPCA) CovarianceTo(dst *mat.SymDense) {
	m.mustFit()
	dense.ReuseAsSym(dst, m.p)
	dst.SymOuterK(1, m.w)
	for i := 0; i < m.p; i++ {
		dst.SetSym(i, i, dst.At(i, i)+m.sigma2)
	}
}

// PosteriorCovTo stores the q×q posterior covariance of x_{i,:}, σ²M⁻¹
// (book eq 2.5; the same for every point with complete data, σ²M_i⁻¹ with
// M_i built from point i's observed features after FitMissing).
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *PPCA) PosteriorCovTo(dst *mat.SymDense, i int) {
	m.mustFit()
	if i < 0 || i >= m.n {
		panic(fmt.Sprintf("dimred: PPCA point %d outside [0, %d)", i, m.n))
	}
	dense.ReuseAsSym(dst, m.fq())
	if m.sxi != nil {
		dst.CopySym(m.sxi[i])
		return
	}
	dst.CopySym(m.sx)
}

// NoiseVariance returns σ².
func (m *PPCA) NoiseVariance() float64 { m.mustFit(); return m.sigma2 }

// LogLikelihood returns log p(Y|W, μ, σ²) of the training data at the fitted
// parameters (natural log, including the −(np/2) log 2π constant; over the
// observed entries only after FitMissing).
func (m *PPCA) LogLikelihood() float64 { m.mustFit(); return m.ll }

// MeanTo stores in dst and returns the mean μ (length p). A nil or empty
// dst is allocated; a dst of another length panics with mat.ErrShape.
func (m *PPCA) MeanTo(dst []float64) []float64 {
	m.mustFit()
	return dense.CopyVecTo(dst, m.mu)
}

// Iterations returns the number of EM iterations made (0 for PPCAEigen).
func (m *PPCA) Iterations() int { return m.iters }

// ProjectTo stores the posterior means (Ynew − 1μᵀ) W M⁻¹ of new
// observations (rows of Ynew, r×p) in dst (r×q). A NaN in Ynew marks a
// missing value and is marginalised: that row's mean is M_o⁻¹W_oᵀ(y_o − μ_o)
// over its observed features o (the prior mean 0 if none is observed). It
// panics on a shape mismatch or an infinite entry.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *PPCA) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	m.mustFit()
	r, c := Ynew.Dims()
	if c != m.p {
		panic(mat.ErrShape)
	}
	if r == 0 {
		panic("dimred: PPCA.ProjectTo: Ynew has no rows")
	}
	yd := mat.DenseCopyOf(Ynew)
	missing := false
	for i := 0; i < r; i++ {
		for j, v := range yd.RawRowView(i) {
			if math.IsInf(v, 0) {
				panic(fmt.Sprintf("dimred: PPCA.ProjectTo: Ynew[%d,%d] = %v", i, j, v))
			}
			missing = missing || math.IsNaN(v)
		}
	}
	minv, _, err := mInverse(m.w, m.sigma2)
	if err != nil {
		panic(err) // M is positive definite for a fitted model
	}
	dense.ReuseAs(dst, r, m.fq())
	if !missing {
		var wm mat.Dense
		wm.Mul(m.w, minv)
		centredMul(dst, yd, m.mu, &wm)
		return
	}
	// Some entry is missing: each row's posterior from its observed features.
	q := m.fq()
	rp := newRowPosterior(q)
	var obs []int
	for i := 0; i < r; i++ {
		obs = obs[:0]
		for k, v := range yd.RawRowView(i) {
			if !math.IsNaN(v) {
				obs = append(obs, k)
			}
		}
		gramRows(rp.m, m.w, obs, q)
		rp.project(m.w, yd.RawRowView(i), m.mu, obs)
		if _, _, ok := rp.solve(dst.RawRowView(i), m.sigma2); !ok {
			panic("dimred: PPCA.ProjectTo: M_i not positive definite")
		}
	}
}

// fq is the latent dimension of the fit (Q may have been changed since).
func (m *PPCA) fq() int { _, q := m.w.Dims(); return q }

func (m *PPCA) mustFit() {
	if m.w == nil {
		panic("dimred: PPCA used before a successful Fit")
	}
}

// PPCALogLikelihood returns the PPCA log-likelihood (book eq 2.1)
//
//	log p(Y|W, μ, σ²) = Σᵢ log N(y_{i,:} | μ, W Wᵀ + σ²I)
//
// of the n×p data Y for arbitrary parameters W (p×q), μ (length p) and
// σ² > 0, computed in O(npq) with the inversion and determinant lemmas. It
// panics on mismatched shapes or σ² ≤ 0 and returns an error wrapping
// ErrNaN for a non-finite entry of Y, W or μ, ErrTooFewPoints for n = 0,
// and ErrOverflow when the result of finite input is beyond float64.
func PPCALogLikelihood(Y, W mat.Matrix, mu []float64, sigma2 float64) (ll float64, err error) {
	n, p := Y.Dims()
	pw, q := W.Dims()
	if pw != p || len(mu) != p {
		panic(mat.ErrShape)
	}
	if !(sigma2 > 0) {
		panic(fmt.Sprintf("dimred: PPCALogLikelihood σ² = %v must be positive", sigma2))
	}
	if n == 0 {
		return 0, fmt.Errorf("%w: PPCALogLikelihood of no points", ErrTooFewPoints)
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return 0, err
	}
	if err := errs.CheckFinite(W, "W"); err != nil {
		return 0, err
	}
	for j, v := range mu {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%w: mu[%d] = %v", ErrNaN, j, v)
		}
	}
	yd := dense.AsDense(Y)
	w := mat.DenseCopyOf(W)
	trS := centredSumSq(yd, mu) / float64(n)
	sw := mat.NewDense(p, q, nil)
	covTimes(sw, yd, mu, nil, w)
	ll, err = ppcaLogLik(n, p, trS, w, sigma2, sw)
	if err == nil && (math.IsNaN(ll) || math.IsInf(ll, 0)) {
		return 0, errs.Overflowf("PPCALogLikelihood = %v", ll)
	}
	return ll, err
}

// Sample stores n draws from the fitted model, y = W x + μ + ε with
// x ~ N(0, I_q) and ε ~ N(0, σ²I_p), as the rows of dst (n×p); an empty dst
// is resized. src nil means rand.NewPCG(1, 2).
func (m *PPCA) Sample(dst *mat.Dense, n int, src rand.Source) {
	m.mustFit()
	if n < 1 {
		panic(fmt.Sprintf("dimred: PPCA.Sample n = %d < 1", n))
	}
	rnd := rand.New(rng.FitSource(src))
	q, p := m.fq(), m.p
	dense.ReuseAs(dst, n, p)
	x := rng.NormalDense(rnd, n, q)
	dst.Mul(x, m.w.T())
	s := math.Sqrt(m.sigma2)
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		for j := range row {
			row[j] += m.mu[j] + s*rnd.NormFloat64()
		}
	}
}
