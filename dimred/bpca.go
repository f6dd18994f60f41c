package dimred

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"

	"gonum.org/v1/gonum/mat"
)

// BayesianPCA is PPCA with an automatic-relevance-determination prior on
// the columns of W (Bishop 1999a, "Bayesian PCA"; book §2.15, a placeholder
// in the draft):
//
//	p(W|α) = Π_{i=1}^q (αᵢ/2π)^{p/2} exp(−½ αᵢ ‖w_{:,i}‖²),
//
// fitted by MAP-EM with type-II updates of α. One iteration is the PPCA
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
	Q        int     // maximum latent dimension; 0 means p−1 (⌊n/2⌋ when p ≥ n)
	MaxIter  int     // 0 means 10000
	Tol      float64 // stop when the objective changes by less than Tol·|objective|; 0 means 1e-10; negative: run MaxIter
	PruneTol float64 // 0 means 1e-12
	Monitor  func(iter int, objective float64) bool

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
func (m *BayesianPCA) Fit(Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.w)
	n, p := Y.Dims()
	q := m.Q
	if q < 0 || q >= p {
		panic(fmt.Sprintf("dimred: BayesianPCA Q = %d outside [0, p−1 = %d] (0 means the default)", q, p-1))
	}
	if n < 2 {
		return fmt.Errorf("%w: BayesianPCA needs n ≥ 2 observations, have %d", ErrTooFewPoints, n)
	}
	if q == 0 {
		// p−1; when p ≥ n the centred data have rank n−1 and a model
		// with q near n−1 explains almost everything as signal, leaving
		// σ² tiny and the MAP iteration stuck, so use ⌊n/2⌋ there.
		q = p - 1
		if p >= n {
			q = n / 2
		}
		if q < 1 {
			return fmt.Errorf("%w: BayesianPCA needs n ≥ 2 observations for the default Q, have %d", ErrTooFewPoints, n)
		}
	}
	if n <= q {
		return fmt.Errorf("%w: BayesianPCA with q = %d needs n > q observations, have %d", ErrTooFewPoints, q, n)
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	yd := dense.AsDense(Y)
	init := PPCA{Q: q}
	if err := init.Fit(yd); err != nil {
		return errs.Wrap(err, "BayesianPCA initialisation")
	}
	mu := init.mu
	var S *mat.SymDense
	if p <= n {
		S = sampleCov(yd, mu)
	}
	trS := centredSumSq(yd, mu) / float64(n)
	maxIter, tol := emLimits(m.MaxIter, m.Tol, 10000, 1e-10)
	prune := m.PruneTol
	if prune == 0 {
		prune = 1e-12
	}
	w := mat.DenseCopyOf(init.w)
	s2 := init.sigma2
	alpha := make([]float64, q)
	active := make([]int, 0, q)
	for i := 0; i < q; i++ {
		nrm := colNormSq(w, i)
		if nrm < prune*trS {
			alpha[i] = math.Inf(1)
			continue
		}
		alpha[i] = float64(p) / nrm
		active = append(active, i)
	}
	nf := float64(n)
	prev := math.Inf(-1)
	converged := false
	it := 0
	var obj, ll float64
	for ; it < maxIter; it++ {
		if len(active) == 0 {
			converged = true
			break
		}
		wa := subCols(w, active)
		ka := len(active)
		sw := mat.NewDense(p, ka, nil)
		covTimes(sw, yd, mu, S, wa)
		var err error
		ll, err = ppcaLogLik(n, ka+0, trS, wa, s2, sw)
		if err != nil {
			return err
		}
		// ppcaLogLik assumes W is p×q with q = its column count, which
		// is right: pruned columns are zero and drop out of C.
		obj = ll
		for t, i := range active {
			obj += 0.5*float64(p)*math.Log(alpha[i]/(2*math.Pi)) - 0.5*alpha[i]*colNormSq(wa, t)
		}
		// BayesianPCA's objective (log-likelihood plus log prior) is
		// tested on its absolute change.
		if emStop(m.Monitor, it, obj, math.Abs(obj-prev), tol) {
			converged = true
			break
		}
		prev = obj
		// E-step quantities (divided by n).
		minv, _, err := mInverse(wa, s2)
		if err != nil {
			return err
		}
		var swm mat.Dense
		swm.Mul(sw, minv) // n⁻¹Ŷᵀ⟨X⟩
		var wswm mat.Dense
		wswm.Mul(wa.T(), &swm)
		var exx mat.Dense
		exx.Mul(minv, &wswm)
		exxS := mat.NewSymDense(ka, nil) // n⁻¹⟨XᵀX⟩
		reg := mat.NewSymDense(ka, nil)  // n⁻¹(⟨XᵀX⟩ + σ²A)
		for a := 0; a < ka; a++ {
			for b := a; b < ka; b++ {
				v := s2*minv.At(a, b) + 0.5*(exx.At(a, b)+exx.At(b, a))
				exxS.SetSym(a, b, v)
				if a == b {
					v += s2 * alpha[active[a]] / nf
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
		var aa mat.Dense
		aa.Mul(wn.T(), &swm)
		var wtw, bb mat.Dense
		wtw.Mul(wn.T(), wn)
		bb.Mul(&wtw, exxS)
		s2n := (trS - 2*mat.Trace(&aa) + mat.Trace(&bb)) / float64(p)
		if !(s2n > 0) {
			return fmt.Errorf("%w: BayesianPCA noise variance σ² = %g", ErrSingular, s2n)
		}
		s2 = s2n
		w.Zero()
		keep := active[:0:0]
		for t, i := range active {
			nrm := colNormSq(wn, t)
			if nrm < prune*trS {
				alpha[i] = math.Inf(1)
				continue
			}
			for j := 0; j < p; j++ {
				w.Set(j, i, wn.At(j, t))
			}
			alpha[i] = float64(p) / nrm
			keep = append(keep, i)
		}
		active = keep
	}
	if len(active) == 0 {
		ll = ppcaNullLogLik(n, p, trS, s2)
	}
	m.n, m.p, m.q, m.mu, m.w, m.alpha, m.sigma2, m.ll, m.iters = n, p, q, mu, w, alpha, s2, ll, it
	// Posterior means with the full (partly zero) W.
	m.x = mat.NewDense(n, q, nil)
	if len(active) > 0 {
		wa := subCols(w, active)
		minv, _, err := mInverse(wa, s2)
		if err != nil {
			return err
		}
		var wm mat.Dense
		wm.Mul(wa, minv)
		xa := mat.NewDense(n, len(active), nil)
		centredMul(xa, yd, mu, &wm)
		for t, i := range active {
			for r := 0; r < n; r++ {
				m.x.Set(r, i, xa.At(r, t))
			}
		}
	}
	if !converged && tol >= 0 {
		return fmt.Errorf("%w: BayesianPCA EM after %d iterations", ErrNotConverged, it)
	}
	return nil
}

// ppcaNullLogLik is the log-likelihood of N(μ, σ²I).
func ppcaNullLogLik(n, p int, trS, s2 float64) float64 {
	return -0.5 * float64(n) * (float64(p)*math.Log(2*math.Pi*s2) + trS/s2)
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

// LogLikelihood returns log p(Y|W, μ, σ²) at the fitted parameters.
func (m *BayesianPCA) LogLikelihood() float64 { m.mustFit(); return m.ll }

// Iterations returns the number of EM updates made.
func (m *BayesianPCA) Iterations() int { return m.iters }

func (m *BayesianPCA) mustFit() {
	if m.w == nil {
		panic("dimred: BayesianPCA used before a successful Fit")
	}
}
