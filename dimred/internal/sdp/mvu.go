package sdp

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Pair is an unordered pair of points {I, J}, I ≠ J.
type Pair struct{ I, J int }

// MVU solves the maximum variance unfolding programme (Weinberger and Saul
// 2004; the book's §5.2)
//
//	maximise tr(K)  s.t.  K ⪰ 0,  Σ_ij K_ij = 0,
//	                      K_ii − 2K_ij + K_jj = sq[t]  for each pairs[t] = {i, j},
//
// for an n×n Gram matrix K, where sq[t] is the squared distance ‖y_i − y_j‖²
// between the pair's points. The centring constraint is removed by
// anchoring one point (mvuProblem). When cliques of the graph are affinely
// dependent (more than d+1 mutual neighbours in exactly d-dimensional data)
// the programme has no strictly feasible point and the interior-point method
// may stall; MVU then solves it again restricted to the face those cliques
// force (faceBasis) and returns the better of the two (the Result is that
// solve's). Rigid structures other than cliques are not detected, so exact
// low-dimensional data can still end in ErrNotConverged with a gap of
// 1e-4–1e-6; noisy or high-dimensional data (the book's robot WiFi and stick
// man) are strictly feasible. It returns K, the solver's Result (objectives in
// the units of sq) and an error from Solve. The neighbourhood graph given by
// pairs must be connected, or the programme is unbounded (ErrUnbounded).
// Repeated pairs, in either order, with equal sq (to a relative 1e-12) are
// used once; with different sq they make the programme infeasible and give
// ErrInfeasible.
// The embedding is the top q eigenvectors of K scaled by the square roots of
// their eigenvalues; K is already centred. A non-nil K comes with a nil
// error or an error wrapping ErrNotConverged or ErrNumerical (check Result).
func MVU(n int, pairs []Pair, sq []float64, s *Settings) (*mat.SymDense, Result, error) {
	return MVUBounded(n, pairs, sq, nil, nil, s)
}

// MVUBounded is MVU with additional inequality constraints
//
//	K_ii − 2K_ij + K_jj ≤ leSq[t]  for each le[t] = {i, j},
//
// the variant of the book's §5.2 in which distances may shrink but not grow,
// or Weinberger and Saul's bound on pairs that share a neighbour. eq may be
// empty (the inequality-only variant); inequality pairs repeating an
// equality pair are dropped.
func MVUBounded(n int, eq []Pair, eqSq []float64, le []Pair, leSq []float64, s *Settings) (*mat.SymDense, Result, error) {
	k, _, r, err := mvuSolve(n, eq, eqSq, le, leSq, s)
	return k, r, err
}

// mvuSolution is the solver's solution of an MVU programme with the
// deduplicated pairs its rows belong to (equalities ek, then inequalities
// lk).
type mvuSolution struct {
	sol    *Solution
	ek, lk [][2]int
}

// mvuSolve is MVUBounded returning also the solution it kept.
func mvuSolve(n int, eq []Pair, eqSq []float64, le []Pair, leSq []float64, s *Settings) (*mat.SymDense, *mvuSolution, Result, error) {
	ek, ev, lk, lv, scale, err := mvuPairs(n, eq, eqSq, le, leSq)
	if err != nil {
		return nil, nil, Result{}, err
	}
	// The anchored programme first; if it stalls for want of a strictly
	// feasible point, the programme restricted to the face forced by
	// affinely dependent cliques, keeping whichever did better.
	sol, err := Solve(anchored(n, ek, ev, lk, lv), s)
	var k *mat.SymDense
	if sol != nil {
		k = mvuKernel(sol.X, n, scale)
	}
	if errors.Is(err, errStalled) || errors.Is(err, ErrNumerical) {
		if v := faceBasis(n, ek, ev); v != nil {
			sol2, err2 := reduced(v, ek, ev, lk, lv, s)
			if sol2 != nil && (sol == nil || err2 == nil || merit(sol2.Result) < merit(sol.Result)) {
				sol, err, k = sol2, err2, faceKernel(v, sol2.X, scale)
			}
		}
	}
	if sol == nil {
		return nil, nil, Result{}, err
	}
	r := sol.Result
	r.PrimalObj *= -scale
	r.DualObj *= -scale
	return k, &mvuSolution{sol: sol, ek: ek, lk: lk}, r, err
}

// MVUDual is MVUBounded that also returns the programme's dual
// multipliers as spring weights: weq[t] for eq[t] and wle[t] ≥ 0 for
// le[t]. They solve the dual
//
//	minimise Σ_t w_t d²_t   s.t.  L(w) ⪰ I − 11ᵀ/n,
//
// where L(w) = Σ_t w_t (e_i − e_j)(e_i − e_j)ᵀ is the Laplacian of the graph
// weighted by the multipliers: its second-smallest eigenvalue is at least
// one, and at the optimum (complementary slackness) the columns of K lie in
// its eigenspace of eigenvalue one, so the MVU embedding is the bottom
// non-trivial eigenvectors of the learnt Laplacian L(w) (Sun, Boyd, Xiao
// and Diaconis 2006, "The fastest mixing Markov process on a graph and a
// connection to a maximum variance unfolding problem"). The weights do not
// depend on the units of the squared distances. A pair repeated in the
// input carries its multiplier on its first occurrence (for inequalities,
// the first occurrence of the tightest bound) and zero on the others; an
// inequality pair repeating an equality pair gets zero. When MVU fell back
// to the face-reduced programme (after a stall) the dual feasibility holds
// only on that face, Vᵀ(L(w) − I + 11ᵀ/n)V ⪰ 0. The multipliers are nil
// whenever K is.
func MVUDual(n int, eq []Pair, eqSq []float64, le []Pair, leSq []float64, s *Settings) (k *mat.SymDense, weq, wle []float64, r Result, err error) {
	k, ms, r, err := mvuSolve(n, eq, eqSq, le, leSq, s)
	if ms == nil {
		return k, nil, nil, r, err
	}
	key := func(p Pair) [2]int {
		if p.I < p.J {
			return [2]int{p.I, p.J}
		}
		return [2]int{p.J, p.I}
	}
	eidx := make(map[[2]int]int, len(ms.ek))
	for t, kk := range ms.ek {
		eidx[kk] = t
	}
	lidx := make(map[[2]int]int, len(ms.lk))
	for t, kk := range ms.lk {
		lidx[kk] = t
	}
	weq = make([]float64, len(eq))
	used := make(map[[2]int]bool)
	for t, p := range eq {
		kk := key(p)
		if used[kk] {
			continue
		}
		used[kk] = true
		weq[t] = -ms.sol.Y[eidx[kk]]
	}
	wle = make([]float64, len(le))
	tight := make(map[[2]int]int) // first occurrence of the smallest bound
	for t, p := range le {
		kk := key(p)
		if _, isEq := eidx[kk]; isEq {
			continue
		}
		if u, ok := tight[kk]; !ok || leSq[t] < leSq[u] {
			tight[kk] = t
		}
	}
	for kk, t := range tight {
		wle[t] = -ms.sol.W[lidx[kk]]
	}
	return k, weq, wle, r, err
}

// reduced solves the MVU programme on the face K = V K̃ Vᵀ (see faceBasis):
// maximise tr K̃ subject to u_tᵀ K̃ u_t = d²_t with u_t = Vᵀ(e_i − e_j), all
// constraints rank one.
func reduced(v *mat.Dense, ek [][2]int, ev []float64, lk [][2]int, lv []float64, s *Settings) (*Solution, error) {
	_, r := v.Dims()
	u := func(k [2]int) *spmat {
		w := make([]float64, r)
		a, b := v.RawRowView(k[0]), v.RawRowView(k[1])
		for c := range w {
			w[c] = a[c] - b[c]
		}
		return rankOne(w)
	}
	cons := make([]*spmat, 0, len(ek)+len(lk))
	b := make([]float64, 0, len(ek)+len(lk))
	for t, k := range ek {
		cons = append(cons, u(k))
		b = append(b, ev[t])
	}
	for t, k := range lk {
		cons = append(cons, u(k))
		b = append(b, lv[t])
	}
	es := make([]Entry, r)
	for i := range es {
		es[i] = Entry{i, i, -1}
	}
	cm, err := build(es, r, "C", 0)
	if err != nil {
		return nil, err
	}
	return solve(r, cm, cons, b, len(ek), s.defaults())
}

// merit is the worst of the three relative measures of the stopping rule.
func merit(r Result) float64 {
	return math.Max(r.Gap, math.Max(r.PrimalInfeas, r.DualInfeas))
}

// faceKernel returns scale · V K̃ Vᵀ.
func faceKernel(v *mat.Dense, kt mat.Symmetric, scale float64) *mat.SymDense {
	n, r := v.Dims()
	var vk mat.Dense
	vk.Mul(v, kt)
	k := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			var s float64
			for c := 0; c < r; c++ {
				s += vk.At(i, c) * v.At(j, c)
			}
			k.SetSym(i, j, scale*s)
		}
	}
	return k
}

// mvuProblem builds the MVU programme of MVUBounded in the standard form of
// Solve. The centring constraint Σ_ij K_ij = 0 makes every feasible K
// singular (K1 = 0), so the programme has no strictly feasible point and an
// interior-point method's centring multiplier drifts without bound, stalling
// the duality gap. We therefore translate instead of centring: X is the
// (n−1)×(n−1) Gram matrix of the differences y_i − y_a to an anchor point
// a = n−1 (any point will do; variance and distances are translation
// invariant). Then
//
//	‖y_i − y_j‖² = X_ii − 2X_ij + X_jj,   ‖y_i − y_a‖² = X_ii,
//	tr(H K H) = tr(X) − (1/n) 1ᵀX1,
//
// so the objective is ⟨−(I − 11ᵀ/n), X⟩ and every constraint has at most
// four entries. The centred kernel is K = H [X 0; 0 0] H (mvuKernel).
// Squared distances are divided by scale (their mean) so that the problem is
// well scaled; K of the scaled problem times scale is the MVU kernel.
// Equality pair t (after removal of duplicates) is A[t], inequality pair t
// is G[t].
func mvuProblem(n int, eq []Pair, eqSq []float64, le []Pair, leSq []float64) (*Problem, float64, error) {
	ek, ev, lk, lv, scale, err := mvuPairs(n, eq, eqSq, le, leSq)
	if err != nil {
		return nil, 0, err
	}
	return anchored(n, ek, ev, lk, lv), scale, nil
}

// mvuPairs validates and deduplicates the pairs (as i < j) and divides the
// squared distances by their mean, scale.
func mvuPairs(n int, eq []Pair, eqSq []float64, le []Pair, leSq []float64) (ek [][2]int, ev []float64, lk [][2]int, lv []float64, scale float64, err error) {
	if n < 2 {
		panic("sdp: MVU needs n ≥ 2")
	}
	if len(eq) != len(eqSq) || len(le) != len(leSq) {
		panic("sdp: MVU: len(pairs) != len(sq)")
	}
	type key = [2]int
	norm := func(p Pair, what string, t int) key {
		if p.I < 0 || p.I >= n || p.J < 0 || p.J >= n || p.I == p.J {
			panic(fmt.Sprintf("sdp: MVU %s pair %d = (%d,%d) invalid for n = %d", what, t, p.I, p.J, n))
		}
		if p.I < p.J {
			return key{p.I, p.J}
		}
		return key{p.J, p.I}
	}
	check := func(v float64, what string, t int) error {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: MVU %s squared distance %d = %v", ErrNaN, what, t, v)
		}
		if v < 0 {
			return fmt.Errorf("%w: MVU %s squared distance %d = %v < 0", ErrInfeasible, what, t, v)
		}
		return nil
	}
	seen := make(map[key]float64)
	var sum float64
	for t, p := range eq {
		if err := check(eqSq[t], "equality", t); err != nil {
			return nil, nil, nil, nil, 0, err
		}
		k := norm(p, "equality", t)
		if v, ok := seen[k]; ok {
			if math.Abs(v-eqSq[t]) > 1e-12*math.Max(v, eqSq[t]) {
				return nil, nil, nil, nil, 0, fmt.Errorf("%w: MVU pair (%d,%d) given with squared distances %v and %v", ErrInfeasible, k[0], k[1], v, eqSq[t])
			}
			continue
		}
		seen[k] = eqSq[t]
		ek = append(ek, k)
		ev = append(ev, eqSq[t])
		sum += eqSq[t]
	}
	lseen := make(map[key]int)
	for t, p := range le {
		if err := check(leSq[t], "inequality", t); err != nil {
			return nil, nil, nil, nil, 0, err
		}
		k := norm(p, "inequality", t)
		if _, ok := seen[k]; ok {
			continue
		}
		if u, ok := lseen[k]; ok {
			lv[u] = math.Min(lv[u], leSq[t])
			continue
		}
		lseen[k] = len(lk)
		lk = append(lk, k)
		lv = append(lv, leSq[t])
		sum += leSq[t]
	}
	scale = 1.0
	if c := len(ev) + len(lv); c > 0 && sum > 0 {
		scale = sum / float64(c)
	}
	for t := range ev {
		ev[t] /= scale
	}
	for t := range lv {
		lv[t] /= scale
	}
	return ek, ev, lk, lv, scale, nil
}

// anchored builds the anchored programme described at mvuProblem from
// deduplicated, scaled pairs.
func anchored(n int, ek [][2]int, ev []float64, lk [][2]int, lv []float64) *Problem {
	a := n - 1 // anchor; the variables are the points 0..n−2
	p := &Problem{N: n - 1}
	p.C = make([]Entry, 0, n*(n-1)/2)
	for i := 0; i < n-1; i++ {
		p.C = append(p.C, Entry{i, i, -1 + 1/float64(n)})
		for j := i + 1; j < n-1; j++ {
			p.C = append(p.C, Entry{i, j, 1 / float64(n)})
		}
	}
	pair := func(k [2]int) []Entry {
		if k[1] == a {
			return []Entry{{k[0], k[0], 1}}
		}
		return []Entry{{k[0], k[0], 1}, {k[1], k[1], 1}, {k[0], k[1], -1}}
	}
	for t, k := range ek {
		p.A = append(p.A, pair(k))
		p.B = append(p.B, ev[t])
	}
	for t, k := range lk {
		p.G = append(p.G, pair(k))
		p.H = append(p.H, lv[t])
	}
	return p
}

// mvuKernel returns scale · H [X 0; 0 0] H, the centred n×n kernel of the
// anchored (n−1)×(n−1) Gram matrix X.
func mvuKernel(x mat.Symmetric, n int, scale float64) *mat.SymDense {
	ke := mat.NewSymDense(n, nil)
	for i := 0; i < n-1; i++ {
		for j := i; j < n-1; j++ {
			ke.SetSym(i, j, x.At(i, j))
		}
	}
	r := make([]float64, n)
	var tot float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			r[i] += ke.At(i, j)
		}
		tot += r[i]
		r[i] /= float64(n)
	}
	tot /= float64(n * n)
	k := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			k.SetSym(i, j, scale*(ke.At(i, j)-r[i]-r[j]+tot))
		}
	}
	return k
}
