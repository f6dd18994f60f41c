package dimred

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/linalg"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/rng"

	"gonum.org/v1/gonum/mat"
)

// MixturePPCA is a mixture of probabilistic principal component analysers
// (Tipping & Bishop 1999a; book §2.14, a placeholder in the draft):
//
//	p(y) = Σ_m π_m N(y | μ_m, C_m),  C_m = W_m W_mᵀ + σ_m² I,  W_m p×q,
//
// a set of local linear models — "prototypes with linear perturbations".
// Fit runs EM. With responsibilities r_im ∝ π_m N(y_i | μ_m, C_m) the
// M-step is exact: π_m = n⁻¹Σᵢ r_im, μ_m = Σᵢ r_im y_i / Σᵢ r_im, and
// (W_m, σ_m²) is the PPCA eigen solution for the responsibility-weighted
// covariance S_m = Σᵢ r_im (y_i − μ_m)(y_i − μ_m)ᵀ / Σᵢ r_im. The
// likelihood has local maxima; EM starts from k-means++ seeds (Src) and a
// few k-means iterations. Components do not share a latent space (the
// "global coordination" problem the draft mentions).
type MixturePPCA struct {
	M int // number of components, ≥ 1
	Q int // q, latent dimension of each component, 1 ≤ q < p
	// MaxIter is the largest number of EM iterations; 0 means 1000. EM
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
	// Eigen tunes the eigensolver of each component's M-step; nil means
	// defaults.
	Eigen *linalg.EigenSettings
	Src   rand.Source // initial seeds; nil means rand.NewPCG(1, 2)

	n, p, iters int
	pi, s2      []float64
	mu          [][]float64
	w           []*mat.Dense
	r           *mat.Dense // n×M responsibilities
	ll          float64
	y           *mat.Dense
}

// Fit fits the mixture by EM. Errors: ErrNaN, ErrTooFewPoints (n < M(q+1)),
// ErrSingular when a component collapses onto fewer than q+1 points,
// ErrNotConverged at MaxIter. Panics unless M ≥ 1 and 1 ≤ Q < p.
//
// A Fit that returns any error other than ErrNotConverged leaves the model
// unfitted, discarding an earlier fit: later use panics.
func (m *MixturePPCA) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *MixturePPCA) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.w)
	checkSettings("MixturePPCA", m)
	n, p := Y.Dims()
	K, q := m.M, m.Q
	if K < 1 {
		panic(fmt.Sprintf("dimred: MixturePPCA M = %d < 1", K))
	}
	if q < 1 || q >= p {
		panic(fmt.Sprintf("dimred: MixturePPCA Q = %d outside [1, p−1 = %d]", q, p-1))
	}
	if n < K*(q+1) {
		return fmt.Errorf("%w: MixturePPCA with M = %d, q = %d needs n ≥ %d, have %d", ErrTooFewPoints, K, q, K*(q+1), n)
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	// A private copy: LatentTo and ComponentLatentTo read the training data
	// after Fit, and the caller may reuse Y.
	yd := mat.DenseCopyOf(Y)
	m.n, m.p, m.y = n, p, yd
	m.pi, m.w = nil, nil
	m.r = mat.NewDense(n, K, nil)
	kmeansInit(yd, K, rand.New(rng.FitSource(m.Src)), m.r)
	totVar := centredSumSq(yd, linalg.ColumnMeans(yd)) / float64(n*p)
	if math.IsInf(totVar, 0) {
		return errs.Overflowf("MixturePPCA: total variance %v", totVar)
	}
	floor := 1e-9 * totVar
	if err := m.mStep(floor); err != nil {
		return err
	}
	// run ends with eval (eStep), so the responsibilities match the final
	// parameters.
	eval := func() (float64, error) { return m.eStep() }
	step := func() error { return m.mStep(floor) }
	ctl := newIteration("MixturePPCA EM", m.MaxIter, m.Tol, m.Monitor, 1000, defaultEMTol).perPoint(n).under(ctx)
	m.iters, m.ll, err = ctl.run(eval, step)
	return err
}

// kmeansInit sets hard responsibilities from k-means++ seeding followed by
// ten Lloyd iterations.
func kmeansInit(y *mat.Dense, K int, rnd *rand.Rand, r *mat.Dense) {
	cent := kmeansPlusPlus(y, K, rnd)
	n, _ := y.Dims()
	lab := make([]int, n)
	for iter := 0; iter < 10; iter++ {
		lloydStep(y, cent, lab)
	}
	r.Zero()
	for i, k := range lab {
		r.Set(i, k, 1)
	}
}

// sqDist returns ‖a − b‖².
func sqDist(a, b []float64) float64 {
	var s float64
	for j, v := range a {
		t := v - b[j]
		s += t * t
	}
	return s
}

// kmeansPlusPlus returns K seed centres (K×p) chosen by k-means++: the
// first uniformly, each next with probability proportional to the squared
// distance to the nearest centre chosen so far (Arthur & Vassilvitskii 2007).
func kmeansPlusPlus(y *mat.Dense, K int, rnd *rand.Rand) *mat.Dense {
	n, p := y.Dims()
	cent := mat.NewDense(K, p, nil)
	d2 := make([]float64, n)
	for i := range d2 {
		d2[i] = math.Inf(1)
	}
	cent.SetRow(0, y.RawRowView(rnd.IntN(n)))
	for k := 1; k < K; k++ {
		var tot float64
		for i := 0; i < n; i++ {
			d2[i] = math.Min(d2[i], sqDist(y.RawRowView(i), cent.RawRowView(k-1)))
			tot += d2[i]
		}
		u := rnd.Float64() * tot
		pick := n - 1
		for i := 0; i < n; i++ {
			u -= d2[i]
			if u <= 0 {
				pick = i
				break
			}
		}
		cent.SetRow(k, y.RawRowView(pick))
	}
	return cent
}

// lloydStep assigns each point to its nearest centre (lab) and moves each
// centre with points to their mean.
func lloydStep(y, cent *mat.Dense, lab []int) {
	n, p := y.Dims()
	K, _ := cent.Dims()
	for i := 0; i < n; i++ {
		best := math.Inf(1)
		for k := 0; k < K; k++ {
			if d := sqDist(y.RawRowView(i), cent.RawRowView(k)); d < best {
				best, lab[i] = d, k
			}
		}
	}
	cnt := make([]int, K)
	sum := mat.NewDense(K, p, nil)
	for i := 0; i < n; i++ {
		cnt[lab[i]]++
		row := sum.RawRowView(lab[i])
		for j, v := range y.RawRowView(i) {
			row[j] += v
		}
	}
	for k := 0; k < K; k++ {
		if cnt[k] == 0 {
			continue
		}
		row := sum.RawRowView(k)
		for j := range row {
			row[j] /= float64(cnt[k])
		}
		cent.SetRow(k, row)
	}
}

// mStep updates π, μ, W, σ² from the responsibilities.
func (m *MixturePPCA) mStep(floor float64) error {
	n, p := m.y.Dims()
	K, q := m.M, m.Q
	if m.pi == nil {
		m.pi, m.s2 = make([]float64, K), make([]float64, K)
		m.mu, m.w = make([][]float64, K), make([]*mat.Dense, K)
	}
	z := mat.NewDense(n, p, nil)
	for k := 0; k < K; k++ {
		var nk float64
		mu := make([]float64, p)
		for i := 0; i < n; i++ {
			rik := m.r.At(i, k)
			nk += rik
			for j, v := range m.y.RawRowView(i) {
				mu[j] += rik * v
			}
		}
		if nk < float64(q+1) {
			return fmt.Errorf("%w: MixturePPCA component %d collapsed (effective size %.3g < q+1)", ErrSingular, k, nk)
		}
		for j := range mu {
			mu[j] /= nk
		}
		// Z = diag(√r) (Y − 1μᵀ); S_k = ZᵀZ / n_k.
		for i := 0; i < n; i++ {
			s := math.Sqrt(m.r.At(i, k) / nk)
			src, dst := m.y.RawRowView(i), z.RawRowView(i)
			for j, v := range src {
				dst[j] = s * (v - mu[j])
			}
		}
		vals, u, tr, err := gramEigen(z, q, m.Eigen)
		if err != nil {
			return fmt.Errorf("MixturePPCA component %d: %w", k, err)
		}
		var kept float64
		for _, v := range vals {
			kept += v
		}
		s2 := math.Max((tr-kept)/float64(p-q), floor)
		for a := 0; a < q; a++ {
			l := math.Sqrt(math.Max(vals[a]-s2, 0))
			for j := 0; j < p; j++ {
				u.Set(j, a, u.At(j, a)*l)
			}
		}
		m.pi[k], m.mu[k], m.w[k], m.s2[k] = nk/float64(n), mu, u, s2
	}
	return nil
}

// gramEigen returns the top-q eigenpairs of ZᵀZ (p×p) and its trace, from
// whichever of ZᵀZ and ZZᵀ is smaller.
func gramEigen(z *mat.Dense, q int, es *linalg.EigenSettings) ([]float64, *mat.Dense, float64, error) {
	n, p := z.Dims()
	var tr float64
	for _, v := range z.RawMatrix().Data {
		tr += v * v
	}
	if p <= n {
		var s mat.SymDense
		s.SymOuterK(1, z.T())
		vals, u, err := linalg.EigenSym(&s, q, linalg.Largest, es)
		return vals, u, tr, err
	}
	var k mat.SymDense
	k.SymOuterK(1, z)
	vals, v, err := linalg.EigenSym(&k, min(q, n), linalg.Largest, es)
	if err != nil {
		return nil, nil, 0, err
	}
	u := mat.NewDense(p, q, nil)
	var uv mat.Dense
	uv.Mul(z.T(), v)
	out := make([]float64, q)
	for a := 0; a < min(q, n); a++ {
		out[a] = math.Max(vals[a], 0)
		nrm := mat.Norm(uv.ColView(a), 2)
		if nrm == 0 {
			continue
		}
		for j := 0; j < p; j++ {
			u.Set(j, a, uv.At(j, a)/nrm)
		}
	}
	return out, u, tr, nil
}

// compLogDens stores log N(y_i | μ_k, C_k) for every i in dst.
func (m *MixturePPCA) compLogDens(dst []float64, k int, Y *mat.Dense) error {
	n, p := Y.Dims()
	q := m.Q
	w, s2, mu := m.w[k], m.s2[k], m.mu[k]
	minv, logdetM, err := mInverse(w, s2)
	if err != nil {
		return err
	}
	wr := mat.NewDense(n, q, nil)
	centredMul(wr, Y, mu, w) // (y − μ)ᵀW
	var wm mat.Dense
	wm.Mul(wr, minv)
	c := float64(p)*math.Log(2*math.Pi) + float64(p-q)*math.Log(s2) + logdetM
	for i := 0; i < n; i++ {
		var rr float64
		for j, v := range Y.RawRowView(i) {
			t := v - mu[j]
			rr += t * t
		}
		var quad float64
		a, b := wr.RawRowView(i), wm.RawRowView(i)
		for t := range a {
			quad += a[t] * b[t]
		}
		dst[i] = -0.5 * (c + (rr-quad)/s2)
	}
	return nil
}

// eStep sets the responsibilities and returns the log-likelihood.
func (m *MixturePPCA) eStep() (float64, error) {
	n, _ := m.y.Dims()
	K := m.M
	ld := make([]float64, n)
	for k := 0; k < K; k++ {
		if err := m.compLogDens(ld, k, m.y); err != nil {
			return 0, err
		}
		lp := math.Log(m.pi[k])
		for i := 0; i < n; i++ {
			m.r.Set(i, k, ld[i]+lp)
		}
	}
	var ll float64
	for i := 0; i < n; i++ {
		row := m.r.RawRowView(i)
		mx := math.Inf(-1)
		for _, v := range row {
			mx = math.Max(mx, v)
		}
		var s float64
		for _, v := range row {
			s += math.Exp(v - mx)
		}
		lse := mx + math.Log(s)
		ll += lse
		for k := range row {
			row[k] = math.Exp(row[k] - lse)
		}
	}
	return ll, nil
}

// LatentTo stores, for each point, its posterior mean latent position
// under its most responsible component, M_k⁻¹W_kᵀ(y_i − μ_k) (n×q).
// Positions of points in different components live in different latent
// spaces; use ComponentLatentTo for one component's view of all points.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *MixturePPCA) LatentTo(dst *mat.Dense) {
	m.mustFit()
	dense.ReuseAs(dst, m.n, m.fq())
	lab := m.Labels()
	var xk mat.Dense
	for k := 0; k < len(m.w); k++ {
		xk.Reset()
		m.ComponentLatentTo(&xk, k)
		for i, l := range lab {
			if l == k {
				dst.SetRow(i, xk.RawRowView(i))
			}
		}
	}
}

// ComponentLatentTo stores the posterior means of every point's latent
// position under component k in dst (n×q).
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *MixturePPCA) ComponentLatentTo(dst *mat.Dense, k int) {
	m.mustFit()
	m.checkComp(k)
	minv, _, err := mInverse(m.w[k], m.s2[k])
	if err != nil {
		panic(err)
	}
	var wm mat.Dense
	wm.Mul(m.w[k], minv)
	dense.ReuseAs(dst, m.n, m.fq())
	centredMul(dst, m.y, m.mu[k], &wm)
}

// ResponsibilitiesTo stores the posterior component probabilities r_ik
// (n×M) in dst.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *MixturePPCA) ResponsibilitiesTo(dst *mat.Dense) {
	m.mustFit()
	dense.ReuseAs(dst, m.n, len(m.w))
	dst.Copy(m.r)
}

// Labels returns each point's most responsible component.
func (m *MixturePPCA) Labels() []int {
	m.mustFit()
	lab := make([]int, m.n)
	for i := range lab {
		row := m.r.RawRowView(i)
		for k, v := range row {
			if v > row[lab[i]] {
				lab[i] = k
			}
		}
	}
	return lab
}

// ComponentLoadingsTo stores W_k (p×q) in dst.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *MixturePPCA) ComponentLoadingsTo(dst *mat.Dense, k int) {
	m.mustFit()
	m.checkComp(k)
	dense.ReuseAs(dst, m.p, m.fq())
	dst.Copy(m.w[k])
}

// ComponentMeanTo stores in dst and returns μ_k (length p). A nil or empty
// dst is allocated; a dst of another length panics with mat.ErrShape.
func (m *MixturePPCA) ComponentMeanTo(dst []float64, k int) []float64 {
	m.mustFit()
	m.checkComp(k)
	return dense.CopyVecTo(dst, m.mu[k])
}

// WeightsTo stores in dst and returns the mixing proportions π (length M).
// A nil or empty dst is allocated; a dst of another length panics with
// mat.ErrShape.
func (m *MixturePPCA) WeightsTo(dst []float64) []float64 {
	m.mustFit()
	return dense.CopyVecTo(dst, m.pi)
}

// NoiseVariancesTo stores in dst and returns the component noise variances
// σ_k² (length M). A nil or empty dst is allocated; a dst of another length
// panics with mat.ErrShape.
func (m *MixturePPCA) NoiseVariancesTo(dst []float64) []float64 {
	m.mustFit()
	return dense.CopyVecTo(dst, m.s2)
}

// LogLikelihood returns Σᵢ log Σ_k π_k N(y_i | μ_k, C_k) at the fit.
func (m *MixturePPCA) LogLikelihood() float64 { m.mustFit(); return m.ll }

// Iterations returns the number of EM iterations made.
func (m *MixturePPCA) Iterations() int { return m.iters }

func (m *MixturePPCA) checkComp(k int) {
	if k < 0 || k >= len(m.w) {
		panic(fmt.Sprintf("dimred: MixturePPCA component %d outside [0, %d)", k, len(m.w)))
	}
}

// fq is the latent dimension of the fit (Q may have been changed since).
func (m *MixturePPCA) fq() int { _, q := m.w[0].Dims(); return q }

func (m *MixturePPCA) mustFit() {
	if m.w == nil {
		panic("dimred: MixturePPCA used before a successful Fit")
	}
}
