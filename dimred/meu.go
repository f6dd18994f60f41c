package dimred

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/mat"
)

// MEU is maximum entropy unfolding (book §5.3; Lawrence 2012, "A unifying
// probabilistic perspective for spectral dimensionality reduction", §2).
// Of all densities over the n×p data matrix Y whose expected squared
// distances between neighbours match the observed ones, ⟨d_ij⟩ = d_ij for
// j ∈ N(i), with a base density N(0, γ⁻¹I), the one of maximum entropy is
// the Gaussian random field
//
//	p(Y) = ∏_{j=1}^p |L+γI|^{1/2} (2π)^{−n/2} exp(−½ y_{:,j}ᵀ (L+γI) y_{:,j}),
//
// independent across the p features, whose precision is the graph
// Laplacian L of the Lagrange multipliers λ_ij (L_ij = −λ_ij on edges,
// L_ii = Σ_j λ_ij, so L1 = 0). Its log-likelihood, for the data Ŷ with
// the feature means removed, is
//
//	log p(Ŷ) = (p/2) log|L+γI| − ½ tr((L+γI) Ŷ Ŷᵀ) − (np/2) log 2π;
//
// Ŷ, because the field has mean zero: with a free mean μ per feature, the
// maximum over μ of log p(Y − 1μᵀ) is at μ = ȳ (since (L+γI)1 = γ1), so
// log p(Ŷ) is that profile likelihood, unchanged by translating Y. The
// likelihood of Y as given (the reference code's) is lower by
// (γ/2)·n·‖ȳ‖²; the multipliers, which see Y only through d_ij, are the
// same.
//
// the book's eq. (5.2) and the paper's eq. (3) write the normaliser
// |L+γI|^{1/2}, which the product over features makes |L+γI|^{p/2}. The
// multipliers are fitted by maximum likelihood; the gradient is
//
//	∂log p/∂λ_ij = (p/2)(k_ii − 2k_ij + k_jj) − ½ d_ij,   K = (L+γI)⁻¹,
//
// since ⟨d_ij⟩ = ⟨‖y_i − y_j‖²⟩ = p(k_ii − 2k_ij + k_jj) under the field
// (the book and paper state ⟨d_ij⟩ = (p/2)(…), off by the factor 2).
//
// As in the paper's experiments the multipliers are kept non-negative, an
// "attractive" network that keeps L+γI positive definite: one multiplier
// λ_ij ≥ 0 per pair of the union k-nearest-neighbour graph. (The
// reference code has one κ = exp(a) > 0 per directed edge, λ_ij = κ_{i→j} +
// κ_{j→i}: the same set of Laplacians, less the boundary λ_ij = 0.) With
// the bound the moment constraints become inequalities, ⟨d_ij⟩ ≥ d_ij where
// λ_ij = 0. The likelihood is concave in λ, with the negative Hessian
//
//	−∂²log p/∂λ_ij∂λ_kl = (p/2)(k_ik − k_il − k_jk + k_jl)²,
//
// so Fit runs the projected Newton method of Bertsekas ("Projected Newton
// methods for optimization problems with simple constraints", SIAM J.
// Control Optim. 20, 1982): a Newton step on the multipliers off the bound,
// those at the bound whose gradient pushes outwards held there, and a
// line search along the projection onto λ ≥ 0. It stops on the KKT
// residual — |∂log p/∂λ_ij| where λ_ij > 0, the positive part where
// λ_ij = 0 — relative to the mean of d_ij/2 over the graph. The reference
// code runs scaled conjugate gradients in a = log κ for a fixed 1000
// (stick man) or 2000 (robot) iterations, which crawls near the bound: on
// the robot data it ends with gradients up to 9e-3 of the mean d_ij/2,
// 0.06 nats below the optimum.
//
// The embedding is the top q eigenvectors of the centred implied
// covariance B = H K H, X = U_q Λ_q^{1/2}, the principal coordinates of the
// field (paper §2.5.1). With K = n−1 (every pair a neighbour) and data for
// which the unconstrained optimum has positive multipliers, the fit
// matches every squared distance and B = Ŷ Ŷᵀ/p: MEU recovers PCA.
//
// Each likelihood evaluation factorises and inverts the dense n×n matrix
// L+γI, O(n³): a few milliseconds at n = 215.
type MEU struct {
	K     int     // neighbours per point (k); 0 means 6; n−1 means every pair
	Q     int     // q, latent dimension; must be set (≥ 1)
	Gamma float64 // γ, precision of the base density; 0 means 1e-4

	MaxIter int                                 // projected Newton iterations; 0 means 200
	Tol     float64                             // KKT residual relative to mean d_ij/2; 0 means 1e-8; negative runs until MaxIter or no progress
	Monitor func(iter int, logLik float64) bool // sees the log-likelihood (iteration 0 is the start)

	n, q   int
	logLik float64
	iters  int
	kkt    float64
	lap    *mat.SymDense // L
	cov    *mat.SymDense // K = (L+γI)⁻¹
	x      *mat.Dense
	vals   []float64
}

var _ Embedder = (*MEU)(nil)

// meuModel holds the fixed data of one MEU fit and evaluates its
// likelihood as a function of the multipliers λ ≥ 0, one per pair of the
// union neighbourhood graph.
type meuModel struct {
	n, p  int
	gamma float64
	ei    []int         // pair e joins ei[e] < ej[e]
	ej    []int         //
	d     []float64     // d_e = ‖ŷ_i − ŷ_j‖²
	trS   float64       // tr ŶŶᵀ (Ŷ centred)
	A     *mat.SymDense // L+γI
	As    *mat.SymDense // L+γI+(c/n)11ᵀ, see eval
	Kinv  *mat.SymDense // (L+γI+(c/n)11ᵀ)⁻¹ after eval with a gradient: K on 1⊥
	chol  mat.Cholesky
}

func newMEUModel(Y mat.Matrix, nb *neighbours.Neighbours, gamma float64) *meuModel {
	n, p := Y.Dims()
	Yc := mat.DenseCopyOf(Y)
	centreColumns(Yc)
	m := &meuModel{n: n, p: p, gamma: gamma, A: mat.NewSymDense(n, nil), Kinv: mat.NewSymDense(n, nil)}
	adj := make([]map[int]bool, n)
	for i := range adj {
		adj[i] = map[int]bool{}
	}
	for i := 0; i < n; i++ {
		r := Yc.RawRowView(i)
		for _, v := range r {
			m.trS += v * v
		}
		idx, _ := nb.Of(i)
		for _, j := range idx {
			adj[min(i, j)][max(i, j)] = true
		}
	}
	for i := 0; i < n; i++ {
		js := make([]int, 0, len(adj[i]))
		for j := range adj[i] {
			js = append(js, j)
		}
		sort.Ints(js)
		for _, j := range js {
			m.ei = append(m.ei, i)
			m.ej = append(m.ej, j)
			m.d = append(m.d, sqDistRows(Yc.RawRowView(i), Yc.RawRowView(j)))
		}
	}
	return m
}

// startMultipliers returns the reference code's start, κ = 1 on every
// directed edge: λ_ij = 2 for a mutual pair, 1 for a one-way pair.
func (m *meuModel) startMultipliers(nb *neighbours.Neighbours) []float64 {
	lam := make([]float64, len(m.d))
	pos := map[[2]int]int{}
	for e := range m.d {
		pos[[2]int{m.ei[e], m.ej[e]}] = e
	}
	for i := 0; i < m.n; i++ {
		idx, _ := nb.Of(i)
		for _, j := range idx {
			lam[pos[[2]int{min(i, j), max(i, j)}]]++
		}
	}
	return lam
}

func centreColumns(Y *mat.Dense) {
	n, p := Y.Dims()
	mean := make([]float64, p)
	for i := 0; i < n; i++ {
		for j, v := range Y.RawRowView(i) {
			mean[j] += v
		}
	}
	for i := 0; i < n; i++ {
		r := Y.RawRowView(i)
		for j := range r {
			r[j] -= mean[j] / float64(n)
		}
	}
}

func sqDistRows(a, b []float64) float64 {
	var s float64
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return s
}

// laplacian stores L + γI for multipliers λ in m.A and returns
// Σ_e λ_e d_e = tr(L ŶŶᵀ).
func (m *meuModel) laplacian(lam []float64) float64 {
	m.A.Zero()
	var trLS float64
	for i := 0; i < m.n; i++ {
		m.A.SetSym(i, i, m.gamma)
	}
	for e, l := range lam {
		i, j := m.ei[e], m.ej[e]
		m.A.SetSym(i, j, m.A.At(i, j)-l)
		m.A.SetSym(i, i, m.A.At(i, i)+l)
		m.A.SetSym(j, j, m.A.At(j, j)+l)
		trLS += l * m.d[e]
	}
	return trLS
}

// eval returns log p(Ŷ) at multipliers λ and, if grad is non-nil, stores
// a matrix equal to K = (L+γI)⁻¹ on 1⊥ in m.Kinv and the gradient (p/2)(k_ii − 2k_ij + k_jj) − ½ d_e
// in grad.
func (m *meuModel) eval(grad, lam []float64) float64 {
	trLS := m.laplacian(lam)
	// L+γI has the eigenvalue γ on the constant vector 1 (L1 = 0), so K
	// holds a component 11ᵀ/(nγ) that the differences k_ii − 2k_ij + k_jj
	// cancel, in rounding. Factorise instead A + (c/n)11ᵀ, c = mean L_ii,
	// which moves that eigenvalue to γ + c and leaves the rest: for
	// v ⊥ 1, vᵀ(L+γI)⁻¹v = vᵀ(A + (c/n)11ᵀ)⁻¹v, and
	// log|L+γI| = log|A + (c/n)11ᵀ| − log(γ + c) + log γ.
	n := m.n
	var c float64
	for i := 0; i < n; i++ {
		c += (m.A.At(i, i) - m.gamma) / float64(n)
	}
	if m.As == nil {
		m.As = mat.NewSymDense(n, nil)
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			m.As.SetSym(i, j, m.A.At(i, j)+c/float64(n))
		}
	}
	if !m.chol.Factorize(m.As) {
		for i := range grad {
			grad[i] = 0
		}
		return math.Inf(-1)
	}
	p := float64(m.p)
	logDet := m.chol.LogDet() - math.Log(m.gamma+c) + math.Log(m.gamma)
	ll := 0.5*p*logDet - 0.5*(trLS+m.gamma*m.trS) - 0.5*float64(m.n)*p*math.Log(2*math.Pi)
	if grad != nil {
		if err := m.chol.InverseTo(m.Kinv); err != nil {
			return math.Inf(-1)
		}
		for e := range lam {
			i, j := m.ei[e], m.ej[e]
			dk := m.Kinv.At(i, i) - 2*m.Kinv.At(i, j) + m.Kinv.At(j, j)
			grad[e] = 0.5*p*dk - 0.5*m.d[e]
		}
	}
	return ll
}

// hessian fills the f×f matrix h (row-major) with the negative Hessian
// (p/2)(k_ik − k_il − k_jk + k_jl)² on the pairs free, at the K of the last
// eval with a gradient.
func (m *meuModel) hessian(h []float64, free []int) {
	f := len(free)
	n := m.n
	K := m.Kinv.RawSymmetric().Data
	half := 0.5 * float64(m.p)
	for a, ea := range free {
		i, j := m.ei[ea], m.ej[ea]
		for b := a; b < f; b++ {
			eb := free[b]
			k, l := m.ei[eb], m.ej[eb]
			// K holds its upper triangle only.
			v := symAt(K, n, i, k) - symAt(K, n, i, l) - symAt(K, n, j, k) + symAt(K, n, j, l)
			h[a*f+b] = half * v * v
			h[b*f+a] = h[a*f+b]
		}
	}
}

func symAt(k []float64, n, i, j int) float64 {
	if i > j {
		i, j = j, i
	}
	return k[i*n+j]
}

// kkt returns the KKT residual of the bound-constrained maximisation:
// max over pairs of |g_e| where λ_e > 0 and max(g_e, 0) where λ_e = 0.
func meuKKT(lam, g []float64) float64 {
	var r float64
	for e, l := range lam {
		if l > 0 {
			r = max(r, math.Abs(g[e]))
		} else {
			r = max(r, g[e])
		}
	}
	return r
}

// maximise runs projected Newton (see MEU) from λ (modified in place) and
// returns the iterations, the log-likelihood, the final KKT residual and
// whether it reached tol (absolute, in the units of the gradient).
func (m *meuModel) maximise(ctx context.Context, lam []float64, tol float64, maxIter int, monitor func(int, float64) bool) (int, float64, float64, bool, error) {
	ph, err := progress.Start(ctx, "MEU projected Newton", maxIter)
	if err != nil {
		return 0, math.NaN(), math.Inf(1), false, err
	}
	ne := len(lam)
	g := make([]float64, ne)
	f := m.eval(g, lam)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, f, math.Inf(1), false, errs.Overflowf("MEU: log-likelihood %v at the start", f)
	}
	if monitor != nil && monitor(0, f) {
		return 0, f, meuKKT(lam, g), true, nil
	}
	var h, dir []float64
	cand := make([]float64, ne)
	gc := make([]float64, ne)
	for it := 1; ; it++ {
		if err := ph.Set(it - 1); err != nil {
			return it - 1, f, math.Inf(1), false, err
		}
		res := meuKKT(lam, g)
		if res <= tol {
			return it - 1, f, res, true, nil
		}
		if it > maxIter {
			return maxIter, f, res, false, nil
		}
		// Bertsekas' ε-active set: pairs at or within ε of the bound whose
		// gradient pushes them onto it are held; ε shrinks with the
		// projected-gradient step.
		var w float64
		for e, l := range lam {
			w = max(w, math.Abs(l-max(0, l+g[e])))
		}
		eps := min(1e-3, w)
		var free []int
		for e, l := range lam {
			if !(l <= eps && g[e] < 0) {
				free = append(free, e)
			}
		}
		nf := len(free)
		if cap(h) < nf*nf {
			h = make([]float64, nf*nf)
		}
		h = h[:nf*nf]
		m.hessian(h, free)
		dir = dir[:0]
		for _, e := range free {
			dir = append(dir, g[e])
		}
		H := mat.NewSymDense(nf, h)
		var ch mat.Cholesky
		step := make([]float64, ne)
		if nf > 0 {
			if !ch.Factorize(H) {
				// Rounding: fall back to the diagonally scaled gradient.
				for a, e := range free {
					step[e] = g[e] / math.Max(h[a*nf+a], 1e-300)
				}
			} else {
				x := mat.NewVecDense(nf, nil)
				if err := ch.SolveVecTo(x, mat.NewVecDense(nf, dir)); err != nil {
					return it - 1, f, res, false, nil
				}
				for a, e := range free {
					step[e] = x.AtVec(a)
				}
			}
		}
		// Held pairs move to the bound (the projection clips them).
		for e, l := range lam {
			if l <= eps && g[e] < 0 {
				step[e] = -l
			}
		}
		t := 1.0
		accepted := false
		for ls := 0; ls < 50; ls++ {
			var pred float64
			for e, l := range lam {
				cand[e] = max(0, l+t*step[e])
				pred += g[e] * (cand[e] - l)
			}
			fc := m.eval(gc, cand)
			if fc >= f+1e-4*pred-1e-13*math.Abs(f) && !math.IsInf(fc, 0) {
				if fc < f && meuKKT(cand, gc) >= res {
					break // rounding: no progress possible
				}
				copy(lam, cand)
				copy(g, gc)
				f = fc
				accepted = true
				break
			}
			t /= 2
		}
		if monitor != nil && monitor(it, f) {
			return it, f, meuKKT(lam, g), true, nil
		}
		if !accepted {
			m.eval(g, lam)
			return it, f, meuKKT(lam, g), false, nil
		}
	}
}

// Fit fits the multipliers to the rows of Y (n×p, not modified) and
// computes the embedding. It returns an error wrapping ErrNaN for
// non-finite data, ErrTooFewPoints for n < 3 or k ≥ n, ErrOverflow if the
// likelihood cannot be evaluated, or ErrNotConverged when MaxIter is
// reached (the model is then fitted with the last iterate). It panics if
// K < 0 or q ∉ [1, n−1].
func (m *MEU) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *MEU) FitContext(ctx context.Context, Y mat.Matrix) error {
	m.reset()
	checkSettings("MEU", m)
	n, _ := Y.Dims()
	if n < 3 {
		return fmt.Errorf("%w: MEU needs at least 3 points, have %d", ErrTooFewPoints, n)
	}
	q, gamma := m.Q, m.Gamma
	if gamma == 0 {
		gamma = 1e-4
	}
	k, err := neighbourK("MEU", "neighbours", m.K, 6, n)
	if err != nil {
		return err
	}
	if err := checkQ("MEU", q, n, q+1); err != nil {
		return err
	}
	if !(gamma > 0) || math.IsInf(gamma, 0) {
		panic(fmt.Sprintf("dimred: MEU.Gamma = %v must be positive", gamma))
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	nb, err := neighbours.Search{}.KNearestContext(ctx, Y, k)
	if err != nil {
		return err
	}
	mod := newMEUModel(Y, nb, gamma)
	if math.IsInf(mod.trS, 0) || math.IsNaN(mod.trS) {
		return errs.Overflowf("MEU: tr ŶŶᵀ = %v", mod.trS)
	}
	lam := mod.startMultipliers(nb)
	maxIter, tol := m.MaxIter, m.Tol
	if maxIter == 0 {
		maxIter = 200
	}
	if tol == 0 {
		tol = 1e-8
	}
	var unit float64
	for _, d := range mod.d {
		unit += 0.5 * d / float64(len(mod.d))
	}
	iters, obj, res, conv, ferr := mod.maximise(ctx, lam, tol*unit, maxIter, m.Monitor)
	if ferr != nil {
		return ferr
	}
	if !conv {
		ferr = fmt.Errorf("%w: MEU: KKT residual %.3g of mean d_ij/2 after %d projected Newton iterations (Tol %g)", ErrNotConverged, res/unit, iters, tol)
	}
	mod.laplacian(lam)
	lap := mat.NewSymDense(n, nil)
	lap.CopySym(mod.A)
	for i := 0; i < n; i++ {
		lap.SetSym(i, i, lap.At(i, i)-gamma)
	}
	if !mod.chol.Factorize(mod.A) {
		return fmt.Errorf("%w: MEU: L+γI not positive definite at the optimum", ErrSingular)
	}
	cov := mat.NewSymDense(n, nil)
	if err := mod.chol.InverseTo(cov); err != nil {
		return fmt.Errorf("%w: MEU: %v", ErrSingular, err)
	}
	x, vals, err := covarianceEmbedding(cov, q)
	if err != nil {
		return err
	}
	m.n, m.q, m.logLik, m.iters, m.lap, m.cov, m.x, m.vals = n, q, obj, iters, lap, cov, x, vals
	m.kkt = res / unit
	return ferr
}

func (m *MEU) reset() { m.x, m.lap, m.cov, m.vals, m.n, m.q = nil, nil, nil, nil, 0, 0 }

func (m *MEU) mustFit() {
	if m.x == nil {
		panic("dimred: MEU used before a successful Fit")
	}
}

// LatentTo stores the embedding X (n×q) in dst: a nil or empty dst is
// resized, a wrong shape panics.
func (m *MEU) LatentTo(dst *mat.Dense) { m.mustFit(); copyLatent(dst, m.x) }

// LogLikelihood returns log p(Ŷ) of the centred data at the fitted
// multipliers (the profile likelihood over a mean per feature; see MEU).
func (m *MEU) LogLikelihood() float64 { m.mustFit(); return m.logLik }

// Iterations returns the number of projected Newton iterations of the fit.
func (m *MEU) Iterations() int { m.mustFit(); return m.iters }

// KKT returns the fit's KKT residual relative to the mean d_ij/2 over the
// graph: the largest |∂log p/∂λ_ij| over pairs with λ_ij > 0 and the
// largest positive ∂log p/∂λ_ij over pairs at the bound λ_ij = 0.
func (m *MEU) KKT() float64 { m.mustFit(); return m.kkt }

// CovarianceTo stores K = (L+γI)⁻¹ (n×n) in dst.
func (m *MEU) CovarianceTo(dst *mat.SymDense) { m.mustFit(); copySym(dst, m.cov) }

// LaplacianTo stores the fitted Laplacian L (n×n) in dst.
func (m *MEU) LaplacianTo(dst *mat.SymDense) { m.mustFit(); copySym(dst, m.lap) }

// EigenvaluesTo stores the q leading eigenvalues of H K H in dst (nil
// allocates) and returns it.
func (m *MEU) EigenvaluesTo(dst []float64) []float64 { m.mustFit(); return copyVals(dst, m.vals) }

// covarianceEmbedding returns X = U_q Λ_q^{1/2} from the top q eigenpairs
// of H C H, the principal coordinates of a covariance C over the points
// (MEU, DRILL, acyclic LLE). Eigenvalues below zero (round-off) give zero
// coordinates.
func covarianceEmbedding(C mat.Symmetric, q int) (*mat.Dense, []float64, error) {
	n := C.SymmetricDim()
	B := centreSym(C)
	vals, vecs, err := linalg.EigenSym(B, q, linalg.Largest, nil)
	if err != nil {
		return nil, nil, err
	}
	X := mat.NewDense(n, q, nil)
	for j := 0; j < q; j++ {
		s := math.Sqrt(math.Max(vals[j], 0))
		for i := 0; i < n; i++ {
			X.Set(i, j, s*vecs.At(i, j))
		}
	}
	return X, vals, nil
}

// centreSym returns H C H, H = I − n⁻¹11ᵀ.
func centreSym(C mat.Symmetric) *mat.SymDense {
	n := C.SymmetricDim()
	r := make([]float64, n)
	var g float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			r[i] += C.At(i, j)
		}
		g += r[i]
		r[i] /= float64(n)
	}
	g /= float64(n * n)
	B := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			B.SetSym(i, j, C.At(i, j)-r[i]-r[j]+g)
		}
	}
	return B
}

func copyLatent(dst, x *mat.Dense) {
	n, q := x.Dims()
	dense.ReuseAs(dst, n, q) // the package's dst rule (nil panics too)
	dst.Copy(x)
}

func copySym(dst, a *mat.SymDense) {
	dense.ReuseAsSym(dst, a.SymmetricDim())
	dst.CopySym(a)
}

func copyVals(dst, v []float64) []float64 {
	return dense.CopyVecTo(dst, v) // the package's dst rule: nil or empty allocates
}

var _ SpectralModel = (*MEU)(nil)

// Implied returns the field's centred covariance B = H K H (n×n), whose
// top eigenvectors scaled by √λ are the embedding (the unifying view of
// the spectral methods, paper §2).
func (m *MEU) Implied() ImpliedMatrix {
	m.mustFit()
	return ImpliedMatrix{Covariance: centreSym(m.cov)}
}
