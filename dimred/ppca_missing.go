package dimred

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/linalg"
	"gonum.org/v1/gonum/mat"
)

// FitMissing fits PPCA by EM to an n×p matrix Y in which NaN marks a
// missing value (missing at random). The missing entries are marginalised,
// not imputed: point i contributes N(y_{i,o} | μ_o, W_o W_oᵀ + σ²I) over
// its observed features o (Tipping & Bishop 1999b, App. C; Ilin & Raiko
// 2010). One EM iteration is
//
//	E: M_i = W_oᵀW_o + σ²I, ⟨x_i⟩ = M_i⁻¹W_oᵀ(y_{i,o} − μ_o), Σ_i = σ²M_i⁻¹,
//	M: for each feature k, [w_{k,:}; μ_k] solves the regression of y_{ik} on
//	   [⟨x_i⟩; 1] over the points observing k, with Σ Σ_i added to the Gram
//	   matrix; σ² = N_obs⁻¹ Σ_{(i,k) observed} [(y_ik − μ_k − w_{k,:}ᵀ⟨x_i⟩)²
//	   + w_{k,:}ᵀΣ_i w_{k,:}].
//
// This is the "proper" EM the book's §2.12.4.1 calls for; the draft's
// Fig 2.4 was drawn with a cheaper variant (the full M for every point and
// μ fixed) that inflates σ² as the missing fraction grows. μ is estimated
// jointly with W; EM starts from PCA of the mean-filled data, so with no
// missing values it starts (and stays) at the eigen solution.
//
// Inf is still an error (ErrNaN); a feature observed in no point is an
// error wrapping ErrTooFewPoints. MaxIter, Tol and Monitor apply as for
// PPCAEM; LogLikelihood is then the log-likelihood of the observed entries.
//
// A FitMissing that returns any error other than ErrNotConverged leaves the
// model unfitted, discarding an earlier fit: later use panics.
func (m *PPCA) FitMissing(Y mat.Matrix) error {
	return m.FitMissingContext(context.Background(), Y)
}

// FitMissingContext is FitMissing under ctx (see FitContext).
func (m *PPCA) FitMissingContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.w)
	checkSettings("PPCA", m)
	n, p := Y.Dims()
	q := m.Q
	if err := checkLatentDim("PPCA", q, n, p); err != nil {
		return err
	}
	yd := mat.DenseCopyOf(Y)
	obs, nobs, err := observedEntries(yd)
	if err != nil {
		return err
	}
	w, mu, s2, err := missingInit(yd, q, m.Eigen)
	if err != nil {
		return err
	}
	st := newMissingState(yd, obs, nobs, q)
	eval := func() (float64, error) { return st.eStep(w, mu, s2) }
	step := func() (err error) {
		w, mu, s2, err = st.mStep()
		return err
	}
	// run ends with eval, so the posteriors in st match (w, μ, σ²).
	it, ll, err := m.emIteration("PPCA missing-data EM", n).under(ctx).run(eval, step)
	if err != nil && !errors.Is(err, ErrNotConverged) {
		return err
	}
	m.n, m.p, m.mu, m.w, m.sigma2, m.ll, m.iters = n, p, mu, w, s2, ll, it
	m.x = st.x
	m.sxi = make([]*mat.SymDense, n)
	for i := range m.sxi {
		m.sxi[i] = st.covTo(i)
	}
	m.sx = nil
	return err
}

// observedEntries returns the observed features of each row of Y (NaN
// marks a missing value) and their total. It returns an error wrapping
// ErrNaN for an infinite entry and ErrTooFewPoints for a feature observed
// in no row.
func observedEntries(Y *mat.Dense) (obs [][]int, nobs int, err error) {
	n, p := Y.Dims()
	obs = make([][]int, n)
	count := make([]int, p)
	for i := 0; i < n; i++ {
		for k, v := range Y.RawRowView(i) {
			switch {
			case math.IsNaN(v):
			case math.IsInf(v, 0):
				return nil, 0, fmt.Errorf("%w: Y[%d,%d] = %v (only NaN marks a missing value)", ErrNaN, i, k, v)
			default:
				obs[i] = append(obs[i], k)
				count[k]++
				nobs++
			}
		}
	}
	for k, c := range count {
		if c == 0 {
			return nil, 0, fmt.Errorf("%w: feature %d is missing in every point", ErrTooFewPoints, k)
		}
	}
	return obs, nobs, nil
}

// missingInit is the start of the missing-data EM: the PPCA eigen solution
// of Y with each missing entry replaced by its feature's observed mean.
func missingInit(Y *mat.Dense, q int, es *linalg.EigenSettings) (w *mat.Dense, mu []float64, s2 float64, err error) {
	n, p := Y.Dims()
	mu = make([]float64, p)
	count := make([]int, p)
	for i := 0; i < n; i++ {
		for k, v := range Y.RawRowView(i) {
			if !math.IsNaN(v) {
				mu[k] += v
				count[k]++
			}
		}
	}
	for k := range mu {
		mu[k] /= float64(count[k])
	}
	filled := mat.DenseCopyOf(Y)
	for i := 0; i < n; i++ {
		row := filled.RawRowView(i)
		for k, v := range row {
			if math.IsNaN(v) {
				row[k] = mu[k]
			}
		}
	}
	init := PPCA{Q: q, Eigen: es}
	if err := init.Fit(filled); err != nil {
		return nil, nil, 0, errs.Wrap(err, "PPCA FitMissing initialisation")
	}
	return init.w, init.mu, init.sigma2, nil
}

type missingState struct {
	y        *mat.Dense
	obs      [][]int // observed features of each point
	miss     [][]int // missing features of each point
	obsRows  [][]int // points observing each feature
	missRows [][]int // points missing each feature
	nobs     int
	q        int
	x        *mat.Dense // n×q posterior means
	cov      []float64  // posterior covariances Σ_i, n blocks of q×q
}

func newMissingState(y *mat.Dense, obs [][]int, nobs, q int) *missingState {
	n, p := y.Dims()
	s := &missingState{y: y, obs: obs, nobs: nobs, q: q,
		miss: make([][]int, n), obsRows: make([][]int, p), missRows: make([][]int, p)}
	for i := 0; i < n; i++ {
		seen := 0
		for k := 0; k < p; k++ {
			if seen < len(obs[i]) && obs[i][seen] == k {
				seen++
				s.obsRows[k] = append(s.obsRows[k], i)
			} else {
				s.miss[i] = append(s.miss[i], k)
				s.missRows[k] = append(s.missRows[k], i)
			}
		}
	}
	return s
}

// covTo copies Σ_i into a SymDense.
func (s *missingState) covTo(i int) *mat.SymDense {
	q := s.q
	c := mat.NewSymDense(q, nil)
	ci := s.cov[i*q*q : (i+1)*q*q]
	for a := 0; a < q; a++ {
		for b := a; b < q; b++ {
			c.SetSym(a, b, ci[a*q+b])
		}
	}
	return c
}

// gramRows returns Σ_{k∈rows} w_k w_kᵀ (q×q, row-major) into dst.
func gramRows(dst []float64, w *mat.Dense, rows []int, q int) {
	for t := range dst {
		dst[t] = 0
	}
	for _, k := range rows {
		wk := w.RawRowView(k)
		for a := 0; a < q; a++ {
			for b := 0; b < q; b++ {
				dst[a*q+b] += wk[a] * wk[b]
			}
		}
	}
}

// eStep computes the posteriors at (W, μ, σ²) and returns the observed-data
// log-likelihood Σᵢ log N(y_{i,o} | μ_o, W_oW_oᵀ + σ²I). W_oᵀW_o is formed
// from whichever of the observed and missing features is fewer (WᵀW minus
// the missing rows' outer products when most features are observed).
func (s *missingState) eStep(w *mat.Dense, mu []float64, s2 float64) (float64, error) {
	n, p := s.y.Dims()
	q := s.q
	if s.x == nil {
		s.x = mat.NewDense(n, q, nil)
		s.cov = make([]float64, n*q*q)
	}
	all := make([]int, p)
	for k := range all {
		all[k] = k
	}
	wtw := make([]float64, q*q)
	gramRows(wtw, w, all, q)
	rp := newRowPosterior(q)
	g := make([]float64, q*q)
	var ll float64
	for i := 0; i < n; i++ {
		o := s.obs[i]
		if len(s.miss[i]) < len(o) {
			gramRows(g, w, s.miss[i], q)
			for t := range rp.m {
				rp.m[t] = wtw[t] - g[t]
			}
		} else {
			gramRows(rp.m, w, o, q)
		}
		rr := rp.project(w, s.y.RawRowView(i), mu, o)
		logdet, quad, ok := rp.solve(s.x.RawRowView(i), s2)
		if !ok {
			return 0, fmt.Errorf("%w: PPCA missing-data E-step, point %d: M_i not positive definite", ErrSingular, i)
		}
		ci := s.cov[i*q*q : (i+1)*q*q]
		for t, v := range rp.minv {
			ci[t] = s2 * v
		}
		if no := float64(len(o)); len(o) > 0 {
			ll -= 0.5 * (no*math.Log(2*math.Pi) + (no-float64(q))*math.Log(s2) + logdet + (rr-quad)/s2)
		}
	}
	return ll, nil
}

// rowPosterior is the workspace of the posterior of one point's latent
// position from its observed features o: M_i = W_oᵀW_o + σ²I (q×q,
// row-major), W_oᵀ(y_o − μ_o), M_i⁻¹ and ⟨x_i⟩ = M_i⁻¹W_oᵀ(y_o − μ_o).
type rowPosterior struct {
	q                 int
	m, minv, work, wr []float64
}

func newRowPosterior(q int) *rowPosterior {
	return &rowPosterior{q: q, m: make([]float64, q*q), minv: make([]float64, q*q),
		work: make([]float64, q*q), wr: make([]float64, q)}
}

// project sets wr = W_oᵀ(y_o − μ_o) and returns ‖y_o − μ_o‖².
func (r *rowPosterior) project(w *mat.Dense, y, mu []float64, o []int) float64 {
	clear(r.wr)
	var rr float64
	for _, k := range o {
		wk := w.RawRowView(k)
		d := y[k] - mu[k]
		rr += d * d
		for a := range r.wr {
			r.wr[a] += wk[a] * d
		}
	}
	return rr
}

// solve adds σ² to the diagonal of m (which holds W_oᵀW_o), stores M_i⁻¹
// in minv and ⟨x_i⟩ in x, and returns log|M_i| and wrᵀ⟨x_i⟩; ok is false
// when M_i is not positive definite.
func (r *rowPosterior) solve(x []float64, s2 float64) (logdet, quad float64, ok bool) {
	q := r.q
	for a := 0; a < q; a++ {
		r.m[a*q+a] += s2
	}
	logdet, ok = smallCholInverse(r.minv, r.m, r.work, q)
	if !ok {
		return 0, 0, false
	}
	for a := 0; a < q; a++ {
		var v float64
		for b := 0; b < q; b++ {
			v += r.minv[a*q+b] * r.wr[b]
		}
		x[a] = v
		quad += r.wr[a] * v
	}
	return logdet, quad, true
}

// mStep returns the new (W, μ, σ²) from the posteriors of the last E-step:
// the regression of each feature on the posterior means (regress), then σ²
// with the new W and μ (noiseVariance).
func (s *missingState) mStep() (*mat.Dense, []float64, float64, error) {
	E, total := s.moments()
	w, mu, err := s.regress(E, total)
	if err != nil {
		return nil, nil, 0, err
	}
	s2 := s.noiseVariance(w, mu)
	if !(s2 > 0) {
		return nil, nil, 0, fmt.Errorf("%w: PPCA missing-data EM noise variance σ² = %g", ErrSingular, s2)
	}
	return w, mu, s2, nil
}

// moments returns the (q+1)×(q+1) second moments of the augmented latent
// points, e_i = [⟨x⟩⟨x⟩ᵀ+Σ_i, ⟨x⟩; ⟨x⟩ᵀ, 1] (n blocks, row-major), and
// their total over all points.
func (s *missingState) moments() (E, total []float64) {
	n, _ := s.y.Dims()
	q := s.q
	d := q + 1
	dd := d * d
	E = make([]float64, n*dd)
	total = make([]float64, dd)
	for i := 0; i < n; i++ {
		xi := s.x.RawRowView(i)
		ci := s.cov[i*q*q : (i+1)*q*q]
		e := E[i*dd : (i+1)*dd]
		for a := 0; a < q; a++ {
			for b := 0; b < q; b++ {
				e[a*d+b] = xi[a]*xi[b] + ci[a*q+b]
			}
			e[a*d+q] = xi[a]
			e[q*d+a] = xi[a]
		}
		e[q*d+q] = 1
		for t, v := range e {
			total[t] += v
		}
	}
	return E, total
}

// regress solves, for each feature k, A_k [w_{k,:}; μ_k] = b_k with
// A_k = Σ_{i observing k} e_i and b_k = Σ_{i observing k} y_ik [⟨x_i⟩; 1].
// A_k is formed from whichever of the observing and missing points is
// fewer (the total minus the missing ones when most are observed), so a
// nearly complete wide data set costs little more than a complete one.
func (s *missingState) regress(E, total []float64) (*mat.Dense, []float64, error) {
	_, p := s.y.Dims()
	q := s.q
	d := q + 1
	dd := d * d
	raw := s.y.RawMatrix()
	w := mat.NewDense(p, q, nil)
	mu := make([]float64, p)
	ak, bk := make([]float64, dd), make([]float64, d)
	inv, work := make([]float64, dd), make([]float64, dd)
	for k := 0; k < p; k++ {
		if len(s.missRows[k]) < len(s.obsRows[k]) {
			copy(ak, total)
			for _, i := range s.missRows[k] {
				for t, v := range E[i*dd : (i+1)*dd] {
					ak[t] -= v
				}
			}
		} else {
			clear(ak)
			for _, i := range s.obsRows[k] {
				for t, v := range E[i*dd : (i+1)*dd] {
					ak[t] += v
				}
			}
		}
		clear(bk)
		for _, i := range s.obsRows[k] {
			y := raw.Data[i*raw.Stride+k]
			for a, x := range s.x.RawRowView(i) {
				bk[a] += y * x
			}
			bk[q] += y
		}
		if _, ok := smallCholInverse(inv, ak, work, d); !ok {
			return nil, nil, fmt.Errorf("%w: PPCA missing-data M-step, feature %d", ErrSingular, k)
		}
		wk := w.RawRowView(k)
		for a := 0; a < d; a++ {
			var v float64
			for b := 0; b < d; b++ {
				v += inv[a*d+b] * bk[b]
			}
			if a < q {
				wk[a] = v
			} else {
				mu[k] = v
			}
		}
	}
	return w, mu, nil
}

// noiseVariance returns σ² = N_obs⁻¹ Σᵢ [Σ_{k observed} (y_ik − μ_k −
// w_{k,:}ᵀ⟨x_i⟩)² + tr(Σ_i W_oᵀW_o)] for the new W and μ.
func (s *missingState) noiseVariance(w *mat.Dense, mu []float64) float64 {
	n, p := s.y.Dims()
	q := s.q
	all := make([]int, p)
	for k := range all {
		all[k] = k
	}
	wtw := make([]float64, q*q)
	gramRows(wtw, w, all, q)
	g := make([]float64, q*q)
	var ss float64
	for i := 0; i < n; i++ {
		xi := s.x.RawRowView(i)
		row := s.y.RawRowView(i)
		for _, k := range s.obs[i] {
			wk := w.RawRowView(k)
			r := row[k] - mu[k]
			for a := 0; a < q; a++ {
				r -= wk[a] * xi[a]
			}
			ss += r * r
		}
		if len(s.miss[i]) < len(s.obs[i]) {
			gramRows(g, w, s.miss[i], q)
			for t := range g {
				g[t] = wtw[t] - g[t]
			}
		} else {
			gramRows(g, w, s.obs[i], q)
		}
		ci := s.cov[i*q*q : (i+1)*q*q]
		for t, v := range ci {
			ss += v * g[t] // tr(Σ_i G) with both symmetric
		}
	}
	return ss / float64(s.nobs)
}
