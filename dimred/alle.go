package dimred

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/mat"
)

// AcyclicLLE is acyclic locally linear embedding (Lawrence 2012, "A
// unifying probabilistic perspective for spectral dimensionality
// reduction", §2.7.4). LLE's precision L = M Mᵀ is a Gaussian random field
// fitted by pseudolikelihood; if the points are ordered and each point's
// neighbours are drawn only from the points after it (its "parents"), M is
// triangular in that order, log|M Mᵀ| = Σ_i log m_ii², and the likelihood
// factorises exactly into n independent regressions
//
//	p(Y) = ∏_i N(y_{i,:} | Σ_{j∈P(i)} w_ji y_{j,:}, m_ii⁻² I),
//
// one per point, of y_i on its k nearest parents P(i). The weights sum to
// one (translation invariance, m_ii = −Σ_j m_ji with m_ji = −m_ii w_ji):
// w_i ∝ C_i⁻¹1 with C_i the k×k Gram matrix of y_j − y_i (j ∈ P(i)), as in
// LLE; the precision is its maximum likelihood value
//
//	m_ii² = p / ‖y_i − Σ_j w_ji y_j‖²
//
// (the paper's m_ii⁻² = ‖·‖² drops the factor p of the p features).
//
// The last point in the order has no parents, so m_nn = −Σ(empty) = 0 and
// log|MMᵀ| = −∞ (paper §2.7.4). The fix used here: the root is regressed
// on nothing, y_n ~ N(0, m_nn⁻² I) on the centred data, with its maximum
// likelihood precision m_nn² = p/‖ŷ_n‖². Because every other point's
// weights sum to one, the root's variance enters the implied covariance
// K = (MMᵀ)⁻¹ only as a constant offset c·11ᵀ, which the centring removes:
// the embedding does not depend on the choice of m_nn.
//
// The embedding is the top q eigenvectors of H K H, X = U_q Λ_q^{1/2}, as
// for MEU; K is applied through two sparse triangular solves with M, so
// the eigensolver never forms it. The result depends on the ordering (the
// paper's stated weakness); the default is the data order (time order for
// the motion capture and robot data).
type AcyclicLLE struct {
	K int // parents per point (k); 0 means 6; points near the end have fewer
	Q int // q, latent dimension; must be set (≥ 1)
	// Parents selects how the ordering and each point's parents are found:
	// ALLENearestLater (the default, the paper's §2.7.4) or
	// ALLECholeskyFill (the reference MATLAB code's).
	Parents ALLEParents
	// Order is the ordering: Order[r] is the point at position r, and a
	// point's parents come from later positions. nil means 0, 1, …, n−1.
	Order []int
	// Reg regularises the local Gram matrices, C_i + Reg·tr(C_i)·I. Zero
	// means 1e-3 when k > p (the Roweis–Saul default, needed because C_i is
	// then singular) and none otherwise; negative means none.
	//
	// Unregularised weights can be large when C_i is ill-conditioned
	// (near-collinear or near-duplicate parents): they still sum to one,
	// but with |w_ji| ≫ 1 and mixed signs. In the acyclic model
	// x_i = Σ_j w_ji x_j + ε_i a point's variance is at least
	// Σ_j w_ji² var(x_j), so such weights compound along the parent
	// chains and the top eigenvectors of K pick out a few points at huge
	// scale (oil, k = 10 ≤ p = 12: weights up to |w| ≈ 9, coordinates up
	// to ~10⁴, 501 nearest-neighbour errors of 1000). Reg = 1e-3 bounds
	// the weights; ParentsOf shows them.
	Reg float64

	n, q    int
	order   []int       // positions → points
	parents [][]int     // per point
	m       [][]float64 // per point: m_ji for its parents (same order)
	mii     []float64   // m_ii
	logLik  float64
	x       *mat.Dense
	vals    []float64
}

var _ Embedder = (*AcyclicLLE)(nil)

// ALLEParents selects AcyclicLLE's ordering and parent sets.
type ALLEParents int

const (
	// ALLENearestLater takes the points in Order (data order by default)
	// and gives each point its K nearest points among the later ones, as
	// the spectral paper's §2.7.4 describes.
	ALLENearestLater ALLEParents = iota
	// ALLECholeskyFill is the construction of Lawrence's MATLAB code
	// (findAcyclicNeighbours2 in GPmat's mltools, used by the paper's
	// demos): the symmetric kNN graph's Laplacian is factorised by a sparse
	// Cholesky under a fill-reducing ordering, the ordering becomes the
	// point order, and each point's parents are the non-zeros below the
	// diagonal of its column of the factor — its neighbours in the
	// elimination graph when it is eliminated, the kNN edges plus the fill.
	// A point then has a varying number of parents (often more than K) and
	// the local Gram matrix of a point with more parents than dimensions is
	// regularised as the reference does (1e-3·tr C unless Reg is set). The
	// ordering here is exact minimum degree (ties to the lower index);
	// MATLAB's chol uses AMD, an approximation of it, so the parent sets
	// are of the same kind but need not agree point for point. Order must
	// be nil; FittedOrder returns the ordering found.
	ALLECholeskyFill
)

// choleskyFillParents eliminates the vertices of the undirected graph adj
// (neighbour lists) in minimum-degree order (ties to the lower index),
// joining each eliminated vertex's remaining neighbours into a clique, and
// returns the order and, per vertex, its neighbours at elimination: the
// sparsity pattern of column v of the Cholesky factor of any matrix with
// adj's pattern (George & Liu, "Computer solution of large sparse positive
// definite systems", 1981).
func choleskyFillParents(adj [][]int) (order []int, parents [][]int) {
	n := len(adj)
	nbr := make([]map[int]struct{}, n)
	for v := range nbr {
		nbr[v] = make(map[int]struct{}, len(adj[v]))
	}
	for v, as := range adj {
		for _, u := range as {
			if u != v {
				nbr[v][u] = struct{}{}
				nbr[u][v] = struct{}{}
			}
		}
	}
	done := make([]bool, n)
	parents = make([][]int, n)
	order = make([]int, 0, n)
	for step := 0; step < n; step++ {
		v, best := -1, n+1
		for u := 0; u < n; u++ {
			if !done[u] && len(nbr[u]) < best {
				v, best = u, len(nbr[u])
			}
		}
		ps := make([]int, 0, len(nbr[v]))
		for u := range nbr[v] {
			ps = append(ps, u)
		}
		sort.Ints(ps)
		parents[v] = ps
		order = append(order, v)
		done[v] = true
		for _, a := range ps {
			delete(nbr[a], v)
			for _, b := range ps {
				if a != b {
					nbr[a][b] = struct{}{}
				}
			}
		}
		nbr[v] = nil
	}
	return order, parents
}

// FittedOrder returns the point order of the fit (Order, the data order,
// or the fill-reducing order of ALLECholeskyFill).
func (a *AcyclicLLE) FittedOrder() []int { a.mustFit(); return append([]int(nil), a.order...) }

// Fit computes the parents, the n regressions and the embedding of the
// rows of Y (n×p, not modified). It returns an error wrapping ErrNaN for
// non-finite data, ErrTooFewPoints for n < 3 or k ≥ n, ErrSingular if a
// point is reproduced exactly by its parents (infinite precision; set
// Reg). It panics for K < 0, q ∉ [1, n−1] or an Order that is not a
// permutation of 0…n−1.
func (a *AcyclicLLE) Fit(Y mat.Matrix) error { return a.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (a *AcyclicLLE) FitContext(ctx context.Context, Y mat.Matrix) error {
	a.x = nil
	checkSettings("AcyclicLLE", a)
	n, p := Y.Dims()
	if n < 3 {
		return fmt.Errorf("%w: AcyclicLLE needs at least 3 points, have %d", ErrTooFewPoints, n)
	}
	q := a.Q
	k, err := neighbourK("AcyclicLLE", "parents", a.K, 6, n)
	if err != nil {
		return err
	}
	if p == 0 {
		panic(noColumns("AcyclicLLE"))
	}
	if err := checkQ("AcyclicLLE", q, n, q+1); err != nil {
		return err
	}
	order := make([]int, n)
	var fill [][]int // ALLECholeskyFill's parents
	switch a.Parents {
	case ALLENearestLater:
	case ALLECholeskyFill:
		if a.Order != nil {
			panic("dimred: AcyclicLLE: Order must be nil with ALLECholeskyFill, which finds its own ordering")
		}
	default:
		panic(fmt.Sprintf("dimred: AcyclicLLE: unknown Parents %d", a.Parents))
	}
	if a.Order == nil {
		for i := range order {
			order[i] = i
		}
	} else {
		if len(a.Order) != n {
			panic(fmt.Sprintf("dimred: AcyclicLLE.Order has length %d, want %d", len(a.Order), n))
		}
		seen := make([]bool, n)
		for _, v := range a.Order {
			if v < 0 || v >= n || seen[v] {
				panic("dimred: AcyclicLLE.Order is not a permutation of 0…n−1")
			}
			seen[v] = true
		}
		copy(order, a.Order)
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	if err := progress.Check(ctx, "AcyclicLLE"); err != nil {
		return err
	}
	reg := a.Reg
	if reg == 0 && k > p {
		reg = 1e-3
	}
	if a.Parents == ALLECholeskyFill {
		nb, err := neighbours.Search{}.KNearestContext(ctx, Y, k)
		if err != nil {
			return errs.Wrap(err, "AcyclicLLE")
		}
		adj := make([][]int, n)
		for i := range adj {
			adj[i], _ = nb.Of(i)
		}
		order, fill = choleskyFillParents(adj)
	}
	Yc := mat.DenseCopyOf(Y)
	centreColumns(Yc)
	for i := 0; i < n; i++ {
		if v := dot(Yc.RawRowView(i), Yc.RawRowView(i)); math.IsInf(v, 0) || math.IsNaN(v) {
			return errs.Overflowf("AcyclicLLE: ‖ŷ_%d‖² = %v", i, v)
		}
	}

	parents := make([][]int, n)
	ms := make([][]float64, n)
	mii := make([]float64, n)
	res2 := make([]float64, n)
	parallel.For(n, 4, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			i := order[r]
			yi := Yc.RawRowView(i)
			if r == n-1 {
				res2[i] = dot(yi, yi)
				continue
			}
			if fill != nil {
				cand := fill[i]
				ri := reg
				if a.Reg == 0 {
					ri = 0
					if len(cand) > p {
						ri = 1e-3 // the reference's Roweis–Saul rule, per point
					}
				}
				if len(cand) == 0 {
					// A vertex whose component is eliminated: no parents,
					// like the last point.
					res2[i] = dot(yi, yi)
					continue
				}
				w, r2 := lleWeights(Yc, i, cand, ri)
				parents[i], ms[i], res2[i] = cand, w, r2
				continue
			}
			// k nearest among later positions.
			cand := nearestLater(yi, Yc, order[r+1:], k)
			w, r2 := lleWeights(Yc, i, cand, reg)
			parents[i] = cand
			ms[i] = w
			res2[i] = r2
		}
	})
	var ll float64
	for r := 0; r < n; r++ {
		i := order[r]
		if math.IsNaN(res2[i]) {
			// Finite data: the weights are 0/0, the point and its
			// parents coincide to float64 precision (a zero local Gram
			// matrix).
			return fmt.Errorf("%w: AcyclicLLE: point %d coincides with its parents (zero local Gram matrix): remove duplicates, or rescale data of extreme scale", ErrSingular, i)
		}
		if math.IsInf(res2[i], 0) {
			return errs.Overflowf("AcyclicLLE: residual of point %d = %v", i, res2[i])
		}
		if !(res2[i] > 0) {
			return fmt.Errorf("%w: AcyclicLLE: point %d is reproduced exactly by its parents (zero residual); set Reg", ErrSingular, i)
		}
		m2 := float64(p) / res2[i]
		mii[i] = math.Sqrt(m2)
		for t := range ms[i] {
			ms[i][t] *= -mii[i] // m_ji = −m_ii w_ji
		}
		ll += 0.5 * float64(p) * (math.Log(m2) - math.Log(2*math.Pi) - 1)
	}
	a.n, a.q, a.order, a.parents, a.m, a.mii, a.logLik = n, q, order, parents, ms, mii, ll
	op := &alleCovOp{a: a, u: make([]float64, n), c: make([]float64, n)}
	vals, vecs, err := linalg.EigenSymOpContext(ctx, op, q, linalg.Largest, nil)
	if err != nil {
		return err
	}
	X := mat.NewDense(n, q, nil)
	for j := 0; j < q; j++ {
		s := math.Sqrt(math.Max(vals[j], 0))
		for i := 0; i < n; i++ {
			X.Set(i, j, s*vecs.At(i, j))
		}
	}
	a.x, a.vals = X, vals
	return nil
}

// lleWeights returns the sum-to-one reconstruction weights of row i of Y
// from the rows in nb, w ∝ (C + reg·tr C·I)⁻¹1, and the squared residual
// ‖y_i − Σ_j w_j y_j‖².
func lleWeights(Y *mat.Dense, i int, nb []int, reg float64) ([]float64, float64) {
	k := len(nb)
	_, p := Y.Dims()
	yi := Y.RawRowView(i)
	Z := mat.NewDense(k, p, nil)
	for t, j := range nb {
		yj := Y.RawRowView(j)
		zr := Z.RawRowView(t)
		for d := range zr {
			zr[d] = yj[d] - yi[d]
		}
	}
	C := mat.NewSymDense(k, nil)
	C.SymOuterK(1, Z)
	if reg > 0 {
		tr := mat.Trace(C)
		for t := 0; t < k; t++ {
			C.SetSym(t, t, C.At(t, t)+reg*tr)
		}
	}
	one := mat.NewVecDense(k, nil)
	for t := 0; t < k; t++ {
		one.SetVec(t, 1)
	}
	w := mat.NewVecDense(k, nil)
	var ch mat.Cholesky
	if ch.Factorize(C) {
		_ = ch.SolveVecTo(w, one)
	} else {
		// Singular C (k > p without Reg, or duplicate points): the
		// minimum-norm solution by the pseudo-inverse keeps the fit defined.
		var svd mat.SVD
		svd.Factorize(C, mat.SVDThin)
		var U mat.Dense
		svd.UTo(&U)
		s := svd.Values(nil)
		for t := 0; t < k; t++ {
			if s[t] <= 1e-12*s[0] {
				continue
			}
			var c float64
			for u := 0; u < k; u++ {
				c += U.At(u, t)
			}
			for u := 0; u < k; u++ {
				w.SetVec(u, w.AtVec(u)+U.At(u, t)*c/s[t])
			}
		}
	}
	var sum float64
	for t := 0; t < k; t++ {
		sum += w.AtVec(t)
	}
	out := make([]float64, k)
	var r2 float64
	res := make([]float64, p)
	copy(res, yi)
	for t, j := range nb {
		out[t] = w.AtVec(t) / sum
		yj := Y.RawRowView(j)
		for d := range res {
			res[d] -= out[t] * yj[d]
		}
	}
	r2 = dot(res, res)
	return out, r2
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// alleCovOp applies H K H with K = M⁻ᵀ M⁻¹ by two triangular solves.
type alleCovOp struct {
	a    *AcyclicLLE
	u, c []float64
}

func (o *alleCovOp) Size() int { return o.a.n }

func (o *alleCovOp) MulVecTo(dst, x []float64) {
	a := o.a
	n := a.n
	centreVec(o.c, x)
	// M u = c: column-oriented forward substitution in the order.
	copy(o.u, o.c)
	for r := 0; r < n; r++ {
		i := a.order[r]
		o.u[i] /= a.mii[i]
		for t, j := range a.parents[i] {
			o.u[j] -= a.m[i][t] * o.u[i]
		}
	}
	// Mᵀ w = u: backward substitution.
	for r := n - 1; r >= 0; r-- {
		i := a.order[r]
		s := o.u[i]
		for t, j := range a.parents[i] {
			s -= a.m[i][t] * dst[j]
		}
		dst[i] = s / a.mii[i]
	}
	centreVec(dst, dst)
}

func centreVec(dst, x []float64) {
	var m float64
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for i, v := range x {
		dst[i] = v - m
	}
}

func (a *AcyclicLLE) mustFit() {
	if a.x == nil {
		panic("dimred: AcyclicLLE used before a successful Fit")
	}
}

// LatentTo stores the embedding X (n×q) in dst: a nil or empty dst is
// resized, a wrong shape panics.
func (a *AcyclicLLE) LatentTo(dst *mat.Dense) { a.mustFit(); copyLatent(dst, a.x) }

// LogLikelihood returns the exact log-likelihood Σ_i (p/2)(log m_ii² −
// log 2π − 1) of the n regressions at their maximum.
func (a *AcyclicLLE) LogLikelihood() float64 { a.mustFit(); return a.logLik }

// ParentsOf returns the parents of point i (its neighbours among later
// points in the order) and their weights w_ji (summing to one).
func (a *AcyclicLLE) ParentsOf(i int) (parents []int, weights []float64) {
	a.mustFit()
	w := make([]float64, len(a.m[i]))
	for t, v := range a.m[i] {
		w[t] = -v / a.mii[i]
	}
	return append([]int(nil), a.parents[i]...), w
}

// PrecisionTo stores M (n×n, m_ii on the diagonal, m_ji = −m_ii w_ji for
// the parents j of i) in dst; L = M Mᵀ is the field's precision.
func (a *AcyclicLLE) PrecisionTo(dst *mat.Dense) {
	a.mustFit()
	dense.ReuseAs(dst, a.n, a.n)
	dst.Zero()
	for i := 0; i < a.n; i++ {
		dst.Set(i, i, a.mii[i])
		for t, j := range a.parents[i] {
			dst.Set(j, i, a.m[i][t])
		}
	}
}

var _ SpectralModel = (*AcyclicLLE)(nil)

// EigenvaluesTo stores the q leading eigenvalues of H (MMᵀ)⁻¹ H in dst
// (nil allocates) and returns it.
func (a *AcyclicLLE) EigenvaluesTo(dst []float64) []float64 {
	a.mustFit()
	return copyVals(dst, a.vals)
}

// Implied returns the centred covariance B = H (MMᵀ)⁻¹ H (n×n, formed
// densely by n triangular solves, O(n²k)), whose top eigenvectors scaled
// by √λ are the embedding. (MMᵀ is not a Laplacian — the root's m_nn ≠ 0 —
// so the covariance view is the one that holds.)
func (a *AcyclicLLE) Implied() ImpliedMatrix {
	a.mustFit()
	n := a.n
	op := &alleCovOp{a: a, u: make([]float64, n), c: make([]float64, n)}
	B := mat.NewSymDense(n, nil)
	e, col := make([]float64, n), make([]float64, n)
	for j := 0; j < n; j++ {
		e[j] = 1
		op.MulVecTo(col, e)
		e[j] = 0
		for i := 0; i <= j; i++ {
			B.SetSym(i, j, col[i])
		}
	}
	return ImpliedMatrix{Covariance: B}
}

// nearestLater returns the k rows j ∈ later of Y nearest to y (all of
// later when it has at most k), ascending by squared distance with ties
// broken by the smaller index: the first k of later sorted by
// (‖y − y_j‖², j). A bounded max-heap of the k best so far keeps the
// selection O(|later|·(p + log k)) instead of a full sort's
// O(|later|·log|later|) comparisons and an n-long scratch array per point,
// which made the parent search of n = 10 000 points take 44 s.
func nearestLater(y []float64, Y *mat.Dense, later []int, k int) []int {
	if k <= 0 {
		return []int{}
	}
	type cd struct {
		d float64
		j int
	}
	less := func(a, b cd) bool { return a.d < b.d || (a.d == b.d && a.j < b.j) }
	h := make([]cd, 0, min(k, len(later))) // max-heap: h[0] is the worst kept
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(h) {
				return
			}
			if r := l + 1; r < len(h) && less(h[l], h[r]) {
				l = r
			}
			if !less(h[i], h[l]) {
				return
			}
			h[i], h[l] = h[l], h[i]
			i = l
		}
	}
	for _, j := range later {
		c := cd{sqDistRows(y, Y.RawRowView(j)), j}
		if len(h) < k {
			h = append(h, c)
			for i := len(h) - 1; i > 0; {
				up := (i - 1) / 2
				if !less(h[up], h[i]) {
					break
				}
				h[up], h[i] = h[i], h[up]
				i = up
			}
			continue
		}
		if less(c, h[0]) {
			h[0] = c
			down(0)
		}
	}
	sort.Slice(h, func(a, b int) bool { return less(h[a], h[b]) })
	out := make([]int, len(h))
	for t, c := range h {
		out[t] = c.j
	}
	return out
}
