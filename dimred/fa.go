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

// FactorAnalysis is the factor-analysis model (book §2.13, a placeholder in
// the draft; Rubin & Thayer 1982, Ghahramani & Hinton 1996): PPCA with a
// diagonal noise covariance,
//
//	y_{i,:} = W x_{i,:} + μ + ε_{i,:},  x ~ N(0, I_q),  ε ~ N(0, Ψ),  Ψ = diag(ψ₁, …, ψ_p),
//
// so y ~ N(μ, C) with C = W Wᵀ + Ψ. There is no closed form; Fit runs EM
// with S = n⁻¹ŶᵀŶ:
//
//	E: G = (I + WᵀΨ⁻¹W)⁻¹ (q×q), β = G WᵀΨ⁻¹ (q×p), ⟨x_i⟩ = β ŷ_i,
//	   n⁻¹Σ⟨x_i x_iᵀ⟩ = G + β S βᵀ
//	M: W' = S βᵀ (G + β S βᵀ)⁻¹,  Ψ' = diag(S − W' β S).
//
// Unlike PPCA, FA is equivariant to rescaling the features: scaling
// feature j by c scales row j of W by c and ψ_j by c². To avoid Heywood
// cases (ψ_j → 0) each ψ_j is kept ≥ 1e-6·S_jj. EM starts from the PPCA
// solution.
type FactorAnalysis struct {
	Q int // q, number of factors, 1 ≤ q < p, q < n
	// MaxIter is the largest number of EM iterations; 0 means 10000. EM
	// stops when one iteration raises the log-likelihood by at most Tol
	// per data point (Tol·n); 0 means 1e-9; a negative Tol switches the
	// test off, so EM runs exactly MaxIter iterations and does not report
	// ErrNotConverged.
	MaxIter int
	Tol     float64
	// Monitor, if set, is called before each EM iteration and once at the
	// end with the iteration number (from 0) and the log-likelihood of the
	// current parameters; returning true stops EM.
	Monitor func(iter int, logLik float64) bool
	// Eigen tunes the eigensolver of the PPCA initialisation; nil means
	// defaults.
	Eigen *linalg.EigenSettings

	n, p, iters int
	mu, psi     []float64
	w           *mat.Dense // p×q
	ll          float64
	x           *mat.Dense // n×q
	g           *mat.Dense // posterior covariance G
}

// Fit fits the model by EM. Errors: ErrNaN for non-finite entries,
// ErrTooFewPoints when n ≤ q, ErrNotConverged when MaxIter is reached (the
// model is still usable). Panics unless 1 ≤ Q < p.
//
// A Fit that returns any error other than ErrNotConverged leaves the model
// unfitted, discarding an earlier fit: later use panics.
func (m *FactorAnalysis) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *FactorAnalysis) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.w)
	checkSettings("FactorAnalysis", m)
	n, p := Y.Dims()
	q := m.Q
	if err := checkLatentDim("FactorAnalysis", q, n, p); err != nil {
		return err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	st, err := newFAState(dense.AsDense(Y), q, m.Eigen)
	if err != nil {
		return err
	}
	// run ends with eval (eStep), so G and Ψ⁻¹W match the final W, Ψ.
	ctl := newIteration("FactorAnalysis EM", m.MaxIter, m.Tol, m.Monitor, 10000, defaultEMTol).perPoint(n).under(ctx)
	it, ll, err := ctl.run(st.eStep, st.mStep)
	if err != nil && !errors.Is(err, ErrNotConverged) {
		return err
	}
	m.n, m.p, m.mu, m.psi, m.w, m.ll, m.iters = n, p, st.mu, st.psi, st.w, ll, it
	m.g = mat.DenseCopyOf(st.g)
	m.x = mat.NewDense(n, q, nil)
	var bt mat.Dense // βᵀ = Ψ⁻¹ W G
	bt.Mul(st.pw, st.g)
	centredMul(m.x, st.y, st.mu, &bt)
	return err
}

// faState is the state of the factor-analysis EM.
type faState struct {
	y     *mat.Dense
	mu    []float64
	S     *mat.SymDense // n⁻¹ŶᵀŶ, nil when p > n (products with Ŷ instead)
	sdiag []float64     // S_jj
	w     *mat.Dense    // p×q
	psi   []float64
	// Set by eStep at the current W, Ψ:
	pw *mat.Dense    // Ψ⁻¹W (p×q)
	z  *mat.Dense    // S Ψ⁻¹W (p×q)
	g  *mat.SymDense // G = (I + WᵀΨ⁻¹W)⁻¹ (q×q)
}

// newFAState starts EM from the PPCA solution: W = W_PPCA and
// ψ_j = S_jj − ‖w_{j,:}‖², floored as in mStep.
func newFAState(Y *mat.Dense, q int, es *linalg.EigenSettings) (*faState, error) {
	n, p := Y.Dims()
	init := PPCA{Q: q, Eigen: es}
	if err := init.Fit(Y); err != nil {
		return nil, errs.Wrap(err, "FactorAnalysis initialisation")
	}
	st := &faState{y: Y, mu: init.mu, sdiag: make([]float64, p), w: mat.DenseCopyOf(init.w),
		psi: make([]float64, p), pw: mat.NewDense(p, q, nil), z: mat.NewDense(p, q, nil)}
	if p <= n {
		st.S = sampleCov(Y, st.mu)
	}
	for i := 0; i < n; i++ {
		for j, v := range Y.RawRowView(i) {
			d := v - st.mu[j]
			st.sdiag[j] += d * d
		}
	}
	for j := range st.sdiag {
		st.sdiag[j] /= float64(n)
	}
	for j := range st.psi {
		var ww float64
		for _, v := range st.w.RawRowView(j) {
			ww += v * v
		}
		st.psi[j] = st.floorPsi(j, st.sdiag[j]-ww)
	}
	return st, nil
}

// floorPsi keeps ψ_j ≥ 1e-6·S_jj (and > 0), against Heywood cases.
func (st *faState) floorPsi(j int, v float64) float64 {
	v = math.Max(v, 1e-6*st.sdiag[j])
	if v == 0 {
		v = 1e-12
	}
	return v
}

// eStep sets Ψ⁻¹W, SΨ⁻¹W and G at the current W, Ψ and returns the
// log-likelihood −(n/2)[p log 2π + log|C| + tr C⁻¹S], written with the
// inversion and determinant lemmas: log|C| = Σ log ψ_j + log|G⁻¹| and
// tr C⁻¹S = Σ S_jj/ψ_j − tr(G WᵀΨ⁻¹SΨ⁻¹W).
func (st *faState) eStep() (float64, error) {
	n, p := st.y.Dims()
	_, q := st.w.Dims()
	for j := 0; j < p; j++ {
		for a := 0; a < q; a++ {
			st.pw.Set(j, a, st.w.At(j, a)/st.psi[j])
		}
	}
	covTimes(st.z, st.y, st.mu, st.S, st.pw)
	gi := mat.NewSymDense(q, nil) // G⁻¹ = I + WᵀΨ⁻¹W
	for a := 0; a < q; a++ {
		for b := a; b < q; b++ {
			var s float64
			for j := 0; j < p; j++ {
				s += st.w.At(j, a) * st.pw.At(j, b)
			}
			if a == b {
				s++
			}
			gi.SetSym(a, b, s)
		}
	}
	g, logdetGi, err := symInverse(gi)
	if err != nil {
		return 0, fmt.Errorf("FactorAnalysis E-step: %w", err)
	}
	st.g = g
	var t1, t2 mat.Dense
	t1.Mul(st.pw.T(), st.z) // WᵀΨ⁻¹SΨ⁻¹W
	t2.Mul(g, &t1)
	var sumLog, sumRatio float64
	for j := 0; j < p; j++ {
		sumLog += math.Log(st.psi[j])
		sumRatio += st.sdiag[j] / st.psi[j]
	}
	return -0.5 * float64(n) * (float64(p)*math.Log(2*math.Pi) + sumLog + logdetGi + sumRatio - mat.Trace(&t2)), nil
}

// mStep updates W and Ψ from the quantities of the last eStep:
// Sβᵀ = SΨ⁻¹WG, n⁻¹Σ⟨xxᵀ⟩ = G + βSβᵀ, W' = Sβᵀ(G + βSβᵀ)⁻¹ and
// ψ_j = S_jj − Σ_a W'_ja (Sβᵀ)_ja.
func (st *faState) mStep() error {
	p, q := st.w.Dims()
	var sb mat.Dense
	sb.Mul(st.z, st.g)
	var wz mat.Dense
	wz.Mul(st.pw.T(), &sb)
	var bsb mat.Dense
	bsb.Mul(st.g, &wz)
	exx := mat.NewSymDense(q, nil)
	for a := 0; a < q; a++ {
		for b := a; b < q; b++ {
			exx.SetSym(a, b, st.g.At(a, b)+0.5*(bsb.At(a, b)+bsb.At(b, a)))
		}
	}
	einv, _, err := symInverse(exx)
	if err != nil {
		return fmt.Errorf("FactorAnalysis M-step: %w", err)
	}
	st.w.Mul(&sb, einv)
	for j := 0; j < p; j++ {
		var s float64
		for a := 0; a < q; a++ {
			s += st.w.At(j, a) * sb.At(j, a)
		}
		st.psi[j] = st.floorPsi(j, st.sdiag[j]-s)
	}
	return nil
}

// LatentTo stores the posterior means ⟨X⟩ = Ŷ Ψ⁻¹ W G (n×q) in dst.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *FactorAnalysis) LatentTo(dst *mat.Dense) {
	m.mustFit()
	dense.ReuseAs(dst, m.n, m.fq())
	dst.Copy(m.x)
}

// LoadingsTo stores W (p×q) in dst.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *FactorAnalysis) LoadingsTo(dst *mat.Dense) {
	m.mustFit()
	dense.ReuseAs(dst, m.p, m.fq())
	dst.Copy(m.w)
}

// NoiseVariancesTo stores the p noise variances ψ_j (the diagonal of Ψ) in
// dst and returns it. A nil or empty dst is allocated; a dst of another length panics with
// mat.ErrShape.
func (m *FactorAnalysis) NoiseVariancesTo(dst []float64) []float64 {
	m.mustFit()
	return dense.CopyVecTo(dst, m.psi)
}

// LogLikelihood returns log p(Y|W, μ, Ψ) at the fitted parameters.
func (m *FactorAnalysis) LogLikelihood() float64 { m.mustFit(); return m.ll }

// Iterations returns the number of EM iterations made.
func (m *FactorAnalysis) Iterations() int { return m.iters }

// MeanTo stores in dst and returns the mean μ (length p). A nil or empty
// dst is allocated; a dst of another length panics with mat.ErrShape.
func (m *FactorAnalysis) MeanTo(dst []float64) []float64 {
	m.mustFit()
	return dense.CopyVecTo(dst, m.mu)
}

// ProjectTo stores the posterior means of new observations (rows of Ynew)
// in dst. It panics on a shape mismatch or a NaN or Inf in Ynew.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *FactorAnalysis) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	m.mustFit()
	r, c := Ynew.Dims()
	if c != m.p {
		panic(mat.ErrShape)
	}
	checkProjectInput("FactorAnalysis.ProjectTo", Ynew, "Ynew")
	bt := mat.NewDense(m.p, m.fq(), nil)
	for j := 0; j < m.p; j++ {
		for a := 0; a < m.fq(); a++ {
			bt.Set(j, a, m.w.At(j, a)/m.psi[j])
		}
	}
	var b2 mat.Dense
	b2.Mul(bt, m.g)
	dense.ReuseAs(dst, r, m.fq())
	centredMul(dst, dense.AsDense(Ynew), m.mu, &b2)
}

// fq is the latent dimension of the fit (Q may have been changed since).
func (m *FactorAnalysis) fq() int { _, q := m.w.Dims(); return q }

func (m *FactorAnalysis) mustFit() {
	if m.w == nil {
		panic("dimred: FactorAnalysis used before a successful Fit")
	}
}
