package dimred

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"

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
	Q       int     // q, number of factors, 1 ≤ q < p, q < n
	MaxIter int     // EM iteration limit; 0 means 10000
	Tol     float64 // stop when log p gains less than Tol·|log p|; 0 means 1e-10; negative: run MaxIter
	// Monitor is called before each EM update with the log-likelihood of
	// the current parameters; returning true stops EM.
	Monitor func(iter int, logLik float64) bool

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
func (m *FactorAnalysis) Fit(Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.w)
	n, p := Y.Dims()
	q := m.Q
	if err := checkLatentDim("FactorAnalysis", q, n, p); err != nil {
		return err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	yd := dense.AsDense(Y)
	init := PPCA{Q: q}
	if err := init.Fit(yd); err != nil {
		return errs.Wrap(err, "FactorAnalysis initialisation")
	}
	mu := init.mu
	var S *mat.SymDense
	if p <= n {
		S = sampleCov(yd, mu)
	}
	sdiag := make([]float64, p) // S_jj
	for i := 0; i < n; i++ {
		for j, v := range yd.RawRowView(i) {
			d := v - mu[j]
			sdiag[j] += d * d
		}
	}
	for j := range sdiag {
		sdiag[j] /= float64(n)
	}
	w := mat.DenseCopyOf(init.w)
	psi := make([]float64, p)
	for j := range psi {
		var ww float64
		for _, v := range w.RawRowView(j) {
			ww += v * v
		}
		psi[j] = math.Max(sdiag[j]-ww, 1e-6*sdiag[j])
		if psi[j] == 0 {
			psi[j] = 1e-12
		}
	}
	maxIter, tol := emLimits(m.MaxIter, m.Tol, 10000, 1e-10)
	pw := mat.NewDense(p, q, nil) // Ψ⁻¹W
	z := mat.NewDense(p, q, nil)  // S Ψ⁻¹ W
	prev := math.Inf(-1)
	converged := false
	it := 0
	var ll float64
	var g *mat.SymDense
	step := func() error {
		for j := 0; j < p; j++ {
			for a := 0; a < q; a++ {
				pw.Set(j, a, w.At(j, a)/psi[j])
			}
		}
		covTimes(z, yd, mu, S, pw)
		// G = (I + WᵀΨ⁻¹W)⁻¹.
		gi := mat.NewSymDense(q, nil)
		for a := 0; a < q; a++ {
			for b := a; b < q; b++ {
				var s float64
				for j := 0; j < p; j++ {
					s += w.At(j, a) * pw.At(j, b)
				}
				if a == b {
					s++
				}
				gi.SetSym(a, b, s)
			}
		}
		var logdetGi float64
		var err error
		g, logdetGi, err = symInverse(gi)
		if err != nil {
			return fmt.Errorf("FactorAnalysis E-step: %w", err)
		}
		var t1 mat.Dense
		t1.Mul(pw.T(), z) // WᵀΨ⁻¹SΨ⁻¹W
		var t2 mat.Dense
		t2.Mul(g, &t1)
		var sumLog, sumRatio float64
		for j := 0; j < p; j++ {
			sumLog += math.Log(psi[j])
			sumRatio += sdiag[j] / psi[j]
		}
		ll = -0.5 * float64(n) * (float64(p)*math.Log(2*math.Pi) + sumLog + logdetGi + sumRatio - mat.Trace(&t2))
		return nil
	}
	for ; it < maxIter; it++ {
		if err := step(); err != nil {
			return err
		}
		if emStop(m.Monitor, it, ll, ll-prev, tol) {
			converged = true
			break
		}
		prev = ll
		// Sβᵀ = S Ψ⁻¹ W G; βSβᵀ = G WᵀΨ⁻¹SΨ⁻¹W G.
		var sb mat.Dense
		sb.Mul(z, g)
		var wz mat.Dense
		wz.Mul(pw.T(), &sb)
		var bsb mat.Dense
		bsb.Mul(g, &wz)
		exx := mat.NewSymDense(q, nil)
		for a := 0; a < q; a++ {
			for b := a; b < q; b++ {
				exx.SetSym(a, b, g.At(a, b)+0.5*(bsb.At(a, b)+bsb.At(b, a)))
			}
		}
		einv, _, err := symInverse(exx)
		if err != nil {
			return fmt.Errorf("FactorAnalysis M-step: %w", err)
		}
		w.Mul(&sb, einv)
		for j := 0; j < p; j++ {
			// ψ_j = S_jj − w_jᵀ (βS)_{:,j} = S_jj − Σ_a W'_ja (Sβᵀ)_ja.
			var s float64
			for a := 0; a < q; a++ {
				s += w.At(j, a) * sb.At(j, a)
			}
			psi[j] = math.Max(sdiag[j]-s, 1e-6*sdiag[j])
			if psi[j] == 0 {
				psi[j] = 1e-12
			}
		}
	}
	if !converged {
		if err := step(); err != nil {
			return err
		}
	}
	m.n, m.p, m.mu, m.psi, m.w, m.ll, m.iters = n, p, mu, psi, w, ll, it
	m.g = mat.DenseCopyOf(g)
	m.x = mat.NewDense(n, q, nil)
	var bt mat.Dense // βᵀ = Ψ⁻¹ W G
	bt.Mul(pw, g)
	centredMul(m.x, yd, mu, &bt)
	if !converged && tol >= 0 {
		return fmt.Errorf("%w: FactorAnalysis EM after %d iterations (log-likelihood %.10g)", ErrNotConverged, it, ll)
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

// Iterations returns the number of EM updates made.
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
