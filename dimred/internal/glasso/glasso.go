package glasso

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Penalty describes the sparsity pattern and the L1 weights of the problem.
type Penalty struct {
	// Rho is ρ ≥ 0, the L1 weight on every allowed off-diagonal entry
	// Θᵢⱼ (and on the diagonal when Settings.PenaliseDiagonal is set).
	Rho float64

	// Graph lists, for each of the n variables, the variables j whose
	// precision entry Θᵢⱼ may be non-zero. The graph is symmetrised (an
	// edge listed by either end is allowed), self-loops and duplicates are
	// ignored. nil allows every pair: the ordinary graphical lasso.
	// Entries Θᵢⱼ for pairs outside the graph are exactly zero.
	Graph [][]int

	// Edge, if non-nil, gives the weight ρᵢⱼ ≥ 0 of the allowed edge
	// i<j, overriding Rho off the diagonal. It is called once per edge.
	Edge func(i, j int) float64
}

// Settings control Solve. The zero value is usable.
type Settings struct {
	// Tol is t in the stopping rule: mean |ΔW| over a sweep below
	// t · mean_{i≠j} |Sᵢⱼ|. Zero means 1e-4.
	Tol float64

	// MaxIter is the maximum number of sweeps over the columns, including
	// those of the start homotopy. Zero means 5000 (DRILL with ρ = 0 on
	// nearly singular data can need a few thousand; the reference code
	// allows 3000).
	MaxIter int

	// PenaliseDiagonal adds ρ Σᵢ |Θᵢᵢ| to the penalty, so that Wᵢᵢ =
	// Sᵢᵢ + ρ at the solution (Friedman et al. 2008; DRILL). Otherwise
	// Wᵢᵢ = Sᵢᵢ.
	PenaliseDiagonal bool

	// Start, if non-nil, is the n×n starting covariance W (a warm start,
	// e.g. the W of the previous ρ on a regularisation path). Its diagonal
	// is replaced by the target Sᵢᵢ (+ ρ). nil means S (+ ρ I).
	Start mat.Symmetric

	// LassoTol stops a lasso sub-problem when no coordinate changes the
	// gradient by more than LassoTol · mean_{i≠j}|Sᵢⱼ| in a pass. Zero
	// means 1e-3·Tol. Most sub-problems finish earlier, exactly, by a
	// solve on the active set.
	LassoTol float64

	// LassoMaxIter caps the coordinate-descent passes of one lasso
	// sub-problem. Zero means 10000.
	LassoMaxIter int

	// NoExtrapolation turns off the extrapolation steps between sweeps
	// (see the package documentation), leaving the plain algorithm of
	// Friedman et al.
	NoExtrapolation bool

	// KKTTol is the tolerance on the optimality conditions: Solve stops
	// only when, besides the Tol rule, the Θ assembled from the columns
	// satisfies max |WΘ − I| ≤ KKTTol, or when the Newton finish (see the
	// package documentation) certifies the optimum, which it solves to
	// max |Wᵢⱼ − Tᵢⱼ| ≤ 1e-9·mean|Sᵢⱼ| with W = Θ⁻¹. Zero means 1e-6. A
	// negative KKTTol switches both off: the paper's rule alone, which can
	// stop far from the optimum on nearly singular S.
	KKTTol float64

	// Monitor, if non-nil, is called after every sweep with the sweep
	// number (from 1) and the mean absolute change of W relative to
	// mean_{i≠j}|Sᵢⱼ| (the quantity the Tol rule compares); returning true
	// stops the iteration (the result is then returned without error, or,
	// if the start homotopy had not finished, an error wrapping
	// ErrNotConverged).
	Monitor func(iter int, change float64) bool
}

// Result is a graphical-lasso solution.
type Result struct {
	// Theta is Θ, the n×n precision (inverse covariance) estimate; it is
	// exactly zero off the graph.
	Theta *mat.SymDense
	// W is the n×n covariance estimate, W ≈ Θ⁻¹.
	W *mat.SymDense
	// Iterations is the number of sweeps run (0 when Θ = S⁻¹ was computed
	// directly).
	Iterations int
	// Objective is log det Θ − tr(SΘ) − ρ‖Θ‖₁ (with the penalty actually
	// used: per-edge weights, diagonal term if penalised).
	Objective float64
	// Edges is the number of unordered pairs i<j with Θᵢⱼ ≠ 0.
	Edges int
	// KKT reports the optimality conditions at the returned point.
	KKT KKT
}

const (
	defaultTol          = 1e-4
	defaultMaxIter      = 5000
	defaultLassoMaxIter = 10000
	// directMax is the largest neighbourhood whose ρ = 0 sub-problem is
	// solved by one Cholesky factorisation.
	directMax = 200
	// cdPasses is the number of coordinate-descent passes before the
	// feature-sign finish; fsMax the largest active set it handles.
	cdPasses = 50
	fsMax    = 300
	// extrapolateEvery is the number of sweeps between extrapolation
	// attempts.
	extrapolateEvery = 10
)

// Solve maximises log det Θ − tr(SΘ) − Σ ρᵢⱼ|Θᵢⱼ| over positive definite Θ
// with the sparsity pattern of pen.Graph (see the package documentation).
// S is n×n symmetric and is not modified. set may be nil.
//
// Solve panics on programmer errors (negative ρ, a graph of the wrong
// length or with an out-of-range index). It returns an error wrapping
// ErrNaN for non-finite input, ErrNotPositiveDefinite when the start is not
// positive definite on a column's block or an iterate loses definiteness (no
// solution exists), and ErrNotConverged when MaxIter sweeps do not reach Tol
// — then the result of the final sweep is returned with the error, unless
// its Θ is not positive definite, when the result is nil.
//
// With every pair allowed (nil graph) and ρ = 0 the solution is S⁻¹, which
// Solve computes directly.
func Solve(S mat.Symmetric, pen Penalty, set *Settings) (*Result, error) {
	var st Settings
	if set != nil {
		st = *set
	}
	if st.Tol == 0 {
		st.Tol = defaultTol
	}
	if st.MaxIter == 0 {
		st.MaxIter = defaultMaxIter
	}
	if st.LassoTol == 0 {
		st.LassoTol = 1e-3 * st.Tol
	}
	if st.LassoMaxIter == 0 {
		st.LassoMaxIter = defaultLassoMaxIter
	}
	if st.Tol < 0 || st.MaxIter < 0 || st.LassoTol < 0 || st.LassoMaxIter < 0 {
		panic("glasso: negative Tol, MaxIter, LassoTol or LassoMaxIter")
	}
	if pen.Rho < 0 {
		panic(fmt.Sprintf("glasso: negative penalty ρ = %v", pen.Rho))
	}
	if math.IsNaN(pen.Rho) || math.IsInf(pen.Rho, 0) {
		return nil, fmt.Errorf("%w: penalty ρ = %v", ErrNaN, pen.Rho)
	}
	n := S.SymmetricDim()
	if n == 0 {
		panic("glasso: empty S")
	}
	if st.Start != nil && st.Start.SymmetricDim() != n {
		panic(mat.ErrShape)
	}

	s := &solver{n: n, set: st}
	s.s = make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := S.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: S[%d,%d] = %v", ErrNaN, i, j, v)
			}
			s.s[i*n+j], s.s[j*n+i] = v, v
		}
	}
	if err := s.buildGraph(pen); err != nil {
		return nil, err
	}
	s.diagRho = 0
	if st.PenaliseDiagonal {
		s.diagRho = pen.Rho
	}
	s.scale = meanAbsOffDiag(s.s, n)

	if pen.Graph == nil && pen.Edge == nil && pen.Rho == 0 {
		return s.inverse()
	}
	if err := s.start(); err != nil {
		return nil, err
	}
	return s.run()
}

// newtonMaxIter caps the Newton steps of polish; from the sweeps' Θ it
// needs 3–10 on DRILL's data (about 20 from Θ = diag(1/Sᵢᵢ)).
const newtonMaxIter = 200

// newtonMaxParams caps the parameters n + |E| of a Newton solve (its
// Hessian is dense: O((n+|E|)³) per step); larger problems use the sweeps.
const newtonMaxParams = 2500

// solver holds the dense working copies (row-major n×n) and per-column
// lasso state.
type solver struct {
	n       int
	set     Settings
	s, w    []float64
	nb      [][]int     // sorted allowed neighbours of each variable
	rho     [][]float64 // ρ_jk parallel to nb[j]
	diagRho float64
	iter    int         // sweeps so far, for Monitor
	stopped bool        // the Monitor asked to stop
	shift   float64     // δ ≥ 0 added to the target diagonal while following the homotopy
	beta    [][]float64 // lasso coefficients per column, kept as warm starts
	scale   float64     // mean |offdiag S| (or a fallback), the unit of W
	allPair bool

	// scratch
	u, g, col, x   []float64
	z, theta       []float64
	zeroRho        []bool    // column j has ρ = 0 on all its edges
	old, ext, chol []float64 // n×n, for extrapolate
	act            []int
	va             []float64
}

// meanAbsOffDiag returns mean_{i≠j}|Sᵢⱼ|, falling back to mean|Sᵢᵢ| and then
// to 1 so that the stopping rule always has a positive unit.
func meanAbsOffDiag(s []float64, n int) float64 {
	var off, diag float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j {
				diag += math.Abs(s[i*n+j])
			} else {
				off += math.Abs(s[i*n+j])
			}
		}
	}
	if n > 1 && off > 0 {
		return off / float64(n*(n-1))
	}
	if diag > 0 {
		return diag / float64(n)
	}
	return 1
}

func (s *solver) buildGraph(pen Penalty) error {
	n := s.n
	s.nb = make([][]int, n)
	if pen.Graph == nil {
		s.allPair = true
		for i := range s.nb {
			l := make([]int, 0, n-1)
			for j := 0; j < n; j++ {
				if j != i {
					l = append(l, j)
				}
			}
			s.nb[i] = l
		}
	} else {
		if len(pen.Graph) != n {
			panic(fmt.Sprintf("glasso: graph has %d lists for n = %d", len(pen.Graph), n))
		}
		for i, l := range pen.Graph {
			for _, j := range l {
				if j < 0 || j >= n {
					panic(fmt.Sprintf("glasso: graph[%d] holds %d, out of range [0,%d)", i, j, n))
				}
				if j != i {
					s.nb[i] = append(s.nb[i], j)
					s.nb[j] = append(s.nb[j], i)
				}
			}
		}
		for i, l := range s.nb {
			sort.Ints(l)
			u := l[:0]
			for k, j := range l {
				if k == 0 || j != l[k-1] {
					u = append(u, j)
				}
			}
			s.nb[i] = u
		}
	}
	s.rho = make([][]float64, n)
	s.beta = make([][]float64, n)
	maxm := 0
	for i, l := range s.nb {
		s.rho[i] = make([]float64, len(l))
		s.beta[i] = make([]float64, len(l))
		maxm = max(maxm, len(l))
		for a, j := range l {
			r := pen.Rho
			if pen.Edge != nil {
				r = pen.Edge(min(i, j), max(i, j))
			}
			if math.IsNaN(r) || math.IsInf(r, 0) {
				return fmt.Errorf("%w: penalty ρ[%d,%d] = %v", ErrNaN, min(i, j), max(i, j), r)
			}
			if r < 0 {
				panic(fmt.Sprintf("glasso: negative penalty ρ[%d,%d] = %v", min(i, j), max(i, j), r))
			}
			s.rho[i][a] = r
		}
	}
	s.u = make([]float64, maxm)
	s.g = make([]float64, maxm)
	s.x = make([]float64, maxm)
	s.z = make([]float64, maxm)
	s.theta = make([]float64, maxm)
	s.zeroRho = make([]bool, n)
	for i, r := range s.rho {
		s.zeroRho[i] = true
		for _, v := range r {
			if v != 0 {
				s.zeroRho[i] = false
			}
		}
	}
	s.act = make([]int, 0, maxm)
	s.col = make([]float64, n)
	return nil
}

// inverse handles ρ = 0 with every pair allowed: Θ = S⁻¹, W = S.
func (s *solver) inverse() (*Result, error) {
	n := s.n
	S := mat.NewSymDense(n, append([]float64(nil), s.s...))
	var ch mat.Cholesky
	if !ch.Factorize(S) {
		return nil, fmt.Errorf("%w: S is not positive definite, so with ρ = 0 and every pair allowed there is no solution", ErrNotPositiveDefinite)
	}
	theta := mat.NewSymDense(n, nil)
	if err := ch.InverseTo(theta); err != nil {
		return nil, fmt.Errorf("%w: inverting S: %v", ErrNotPositiveDefinite, err)
	}
	s.w = s.s
	return s.finish(theta, 0)
}

// start sets W to its initial value and checks that every column's block
// {j} ∪ N(j) is positive definite. The default start is S with the target
// diagonal Sᵢᵢ (+ρ). When that is not positive definite on some block —
// DRILL's S = ŶŶᵀ/p has rank ≤ p < n, and neighbourhoods whose features
// are locally constant make even a k-sized block singular — start sets a
// diagonal shift δ > 0 so that S + δI (+ρI) is, and run follows the
// solutions down to δ = 0 (see run). A user Start is not modified beyond
// its diagonal.
func (s *solver) start() error {
	n := s.n
	s.w = make([]float64, n*n)
	if st := s.set.Start; st != nil {
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := st.At(i, j)
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("%w: Start[%d,%d] = %v", ErrNaN, i, j, v)
				}
				s.w[i*n+j], s.w[j*n+i] = v, v
			}
		}
		s.setDiag()
		if j := s.badBlock(); j >= 0 {
			return fmt.Errorf("%w: Start is not positive definite on the block of variable %d and its %d neighbours",
				ErrNotPositiveDefinite, j, len(s.nb[j]))
		}
		return nil
	}
	var meanDiag float64
	for i := 0; i < n; i++ {
		meanDiag += math.Abs(s.s[i*n+i]) / float64(n)
	}
	if meanDiag == 0 {
		meanDiag = 1
	}
	j := -1
	for k, shift := range []float64{0, 1e-3, 1e-2, 1e-1, 1, 10} {
		s.shift = shift * meanDiag
		copy(s.w, s.s)
		s.setDiag()
		if j = s.badBlock(); j < 0 {
			if k > 0 && s.allPair && s.diagRho == 0 && pen0(s) {
				// ρ = 0 everywhere, every pair: the shifted problems
				// lead to (S+δI)⁻¹ and δ = 0 is infeasible.
				break
			}
			return nil
		}
	}
	return fmt.Errorf("%w: S%s is not positive definite on the block of variable %d and its %d neighbours, even shifted",
		ErrNotPositiveDefinite, map[bool]string{true: " + ρI", false: ""}[s.diagRho > 0], j, len(s.nb[j]))
}

// pen0 reports whether every edge penalty is zero.
func pen0(s *solver) bool {
	for _, r := range s.rho {
		for _, v := range r {
			if v != 0 {
				return false
			}
		}
	}
	return true
}

func (s *solver) setDiag() {
	n := s.n
	for i := 0; i < n; i++ {
		s.w[i*n+i] = s.s[i*n+i] + s.diagRho + s.shift
	}
}

// badBlock returns a variable j whose block {j} ∪ N(j) of W is not
// positive definite, or −1.
func (s *solver) badBlock() int {
	n := s.n
	if s.allPair {
		if _, ok := denseLogDet(append([]float64(nil), s.w...), n); !ok {
			return 0
		}
		return -1
	}
	var b []float64
	for j := 0; j < n; j++ {
		idx := append([]int{j}, s.nb[j]...)
		p := len(idx)
		b = append(b[:0], make([]float64, p*p)...)
		for a, ka := range idx {
			for c := 0; c <= a; c++ {
				b[a*p+c] = s.w[ka*n+idx[c]]
			}
		}
		if !cholesky(b, p) {
			return j
		}
	}
	return -1
}

// run performs the block coordinate sweeps. If start needed a diagonal
// shift δ, run first solves the shifted problems (target diagonal Sᵢᵢ + δ,
// for which S + δI is a feasible positive definite start), each from the
// previous solution, and lowers δ to 0, 0.1δ or 0.5δ — the smallest that
// keeps W positive definite on every block — until δ = 0. Block coordinate
// ascent from a feasible positive definite W stays positive definite, so
// the final stage cannot lose definiteness unless the problem has no
// solution. All sweeps count towards MaxIter and Iterations.
func (s *solver) run() (*Result, error) {
	n := s.n
	if !s.set.NoExtrapolation {
		s.old = make([]float64, n*n)
		s.ext = make([]float64, n*n)
		s.chol = make([]float64, n*n)
	}
	total := 0
	for stage := 0; s.shift > 0; stage++ {
		it, _, err := s.sweeps(s.set.MaxIter-total, 10*s.set.Tol)
		total += it
		if err != nil {
			return nil, err
		}
		if s.stopped {
			return nil, fmt.Errorf("%w: stopped by Monitor after %d sweeps, during the start homotopy (δ = %.3g), before any solution of the problem itself",
				ErrNotConverged, total, s.shift)
		}
		if total >= s.set.MaxIter {
			return nil, fmt.Errorf("%w: %d sweeps did not finish the diagonal homotopy (δ = %.3g)", ErrNotConverged, total, s.shift)
		}
		old := s.shift
		lowered := false
		for _, f := range []float64{0, 0.1, 0.5} {
			s.shift = f * old
			s.setDiag()
			if s.badBlock() < 0 {
				lowered = true
				break
			}
		}
		if !lowered {
			return nil, fmt.Errorf("%w: cannot lower the diagonal shift below δ = %.3g; the graph and ρ admit no positive definite solution for this S",
				ErrNotPositiveDefinite, old)
		}
	}
	// Final stage. The paper's rule can stop while the Θ assembled from
	// the columns is not yet positive definite (slow, ill-conditioned
	// problems); then the sweeps continue with a 4× tighter rule.
	tol := s.set.Tol
	var theta *mat.SymDense
	var converged bool
	for {
		it, conv, err := s.sweeps(s.set.MaxIter-total, tol)
		total += it
		converged = conv
		if err != nil {
			return nil, err
		}
		theta, err = s.precision()
		if err != nil {
			return nil, err
		}
		if s.positiveDefinite(theta) {
			break
		}
		if total >= s.set.MaxIter || (s.set.Monitor != nil && s.stopped) {
			return nil, fmt.Errorf("%w: after %d sweeps the precision Θ is not yet positive definite", ErrNotConverged, total)
		}
		tol /= 4
	}
	// Optimality. The Tol rule measures W's change, not the optimality
	// conditions: on nearly singular S it fires while Θ is far from W⁻¹
	// (Result.KKT.Inverse). Unless KKTTol < 0, first try the active-set
	// Newton finish (polish); if it cannot certify the optimum, sweep on
	// with a 10× tighter rule until max|WΘ − I| ≤ KKTTol or MaxIter.
	kktTol := s.set.KKTTol
	if kktTol == 0 {
		kktTol = 1e-6
	}
	for kktTol > 0 && !s.stopped {
		if res, ok := s.polish(theta, total); ok {
			return res, nil
		}
		if !converged {
			break
		}
		if s.inverseResidual(theta) <= kktTol {
			break
		}
		if total >= s.set.MaxIter {
			converged = false
			break
		}
		tol /= 10
		it, conv, err := s.sweeps(s.set.MaxIter-total, tol)
		total += it
		converged = conv
		if err != nil {
			return nil, err
		}
		th, err := s.precision()
		if err != nil {
			return nil, err
		}
		if s.positiveDefinite(th) {
			theta = th
		}
	}
	res, err := s.finish(theta, total)
	if err == nil && !converged {
		err = fmt.Errorf("%w: %d sweeps did not reach Tol = %v and max|WΘ − I| ≤ KKTTol = %v", ErrNotConverged, total, s.set.Tol, kktTol)
	}
	return res, err
}

// inverseResidual returns max |WΘ − I| for the current W.
func (s *solver) inverseResidual(theta *mat.SymDense) float64 {
	n := s.n
	var r float64
	for j := 0; j < n; j++ {
		cols := append([]int{j}, s.nb[j]...)
		for i := 0; i < n; i++ {
			var v float64
			row := s.w[i*n:]
			for _, k := range cols {
				v += row[k] * theta.At(k, j)
			}
			if i == j {
				v--
			}
			r = max(r, math.Abs(v))
		}
	}
	return r
}

// polish finishes a sweep solution exactly when its support is right. On
// the active set A = {allowed ij : Θᵢⱼ ≠ 0} with signs σ, the problem is
// smooth: maximise log det Θ − tr(TΘ) over Θ supported on A, with
// Tᵢⱼ = Sᵢⱼ + ρᵢⱼσᵢⱼ on A and Tᵢᵢ = Sᵢᵢ (+ρ); newton solves it from Θ.
// If the solution keeps the signs σ on A and |Wᵢⱼ − Sᵢⱼ| ≤ ρᵢⱼ on the
// allowed pairs outside A, it meets every optimality condition of the
// convex problem and is its (unique) optimum: polish returns it, the
// Newton steps counted in Iterations. Otherwise (the sweeps had not yet
// found the support) it returns ok = false and leaves the solver as it was.
func (s *solver) polish(theta *mat.SymDense, sweeps int) (*Result, bool) {
	n := s.n
	t := make([]float64, n*n)
	copy(t, s.s)
	act := make([][]int, n)
	th0 := make([]float64, n*n)
	sign := make([]float64, n*n)
	for i := 0; i < n; i++ {
		t[i*n+i] = s.s[i*n+i] + s.diagRho
		th0[i*n+i] = theta.At(i, i)
		for a, j := range s.nb[i] {
			v := theta.At(i, j)
			if v == 0 {
				continue
			}
			act[i] = append(act[i], j)
			sign[i*n+j] = math.Copysign(1, v)
			t[i*n+j] = s.s[i*n+j] + s.rho[i][a]*sign[i*n+j]
			th0[i*n+j] = v
		}
	}
	pat := newtonPattern(act)
	if n+len(pat.edges) > newtonMaxParams {
		return nil, false
	}
	tol := 1e-9 * s.scale
	nr, ok := s.newton(t, pat, th0, tol, newtonMaxIter)
	if !ok || !nr.converged {
		return nil, false
	}
	for _, ij := range pat.edges {
		k := ij[0]*n + ij[1]
		if t[k] != s.s[k] && nr.theta[k]*sign[k] <= 0 {
			// A penalised entry changed sign or vanished.
			return nil, false
		}
	}
	for i := 0; i < n; i++ {
		for a, j := range s.nb[i] {
			if sign[i*n+j] == 0 && math.Abs(nr.w[i*n+j]-s.s[i*n+j]) > s.rho[i][a]+tol {
				return nil, false
			}
		}
	}
	oldW := s.w
	s.w = nr.w
	th := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			th.SetSym(i, j, nr.theta[i*n+j])
		}
	}
	res, err := s.finish(th, sweeps+nr.iters)
	if err != nil {
		s.w = oldW
		return nil, false
	}
	return res, true
}

// sweeps runs at most maxIter sweeps with stopping tolerance tol and
// returns the number run and whether it converged (or the Monitor stopped
// it).
func (s *solver) sweeps(maxIter int, tol float64) (int, bool, error) {
	n := s.n
	denom := float64(n * (n - 1))
	if n == 1 {
		denom = 1
	}
	thresh := tol * s.scale
	var prevChange float64
	if s.old != nil {
		copy(s.old, s.w)
	}
	for it := 1; it <= maxIter; it++ {
		var delta float64
		for j := 0; j < n; j++ {
			s.lasso(j)
			d, err := s.updateColumn(j)
			if err != nil {
				return it, false, err
			}
			delta += d
		}
		change := delta / denom
		if math.IsNaN(change) || math.IsInf(change, 0) {
			return it, false, fmt.Errorf("%w: W after sweep %d", ErrNaN, it)
		}
		s.iter++
		if s.set.Monitor != nil && s.set.Monitor(s.iter, change/s.scale) {
			s.stopped = true
			return it, true, nil
		}
		if change < thresh {
			return it, true, nil
		}
		// Every extrapolateEvery sweeps, if the sweeps are crawling
		// (linear rate above 0.8), try a step along W − W_old.
		if s.old != nil && it%extrapolateEvery == 0 {
			if change > 0.8*prevChange {
				s.extrapolate(s.old)
			}
			copy(s.old, s.w)
		}
		prevChange = change
	}
	return maxIter, false, nil
}

// updateColumn sets w_ij = Σ_k W_ik β_k for every i ≠ j and returns Σ|Δw_ij|.
func (s *solver) updateColumn(j int) (float64, error) {
	n := s.n
	col := s.col
	for i := range col {
		col[i] = 0
	}
	idx, beta := s.nb[j], s.beta[j]
	for b, bb := range beta {
		if bb == 0 {
			continue
		}
		floats.AddScaled(col, bb, s.w[idx[b]*n:idx[b]*n+n])
	}
	var delta float64
	for i := 0; i < n; i++ {
		if i == j {
			continue
		}
		delta += math.Abs(col[i] - s.w[i*n+j])
		s.w[i*n+j] = col[i]
		s.w[j*n+i] = col[i]
	}
	// Schur complement w_jj − βᵀW_NN β = 1/Θ_jj must stay positive.
	schur := s.w[j*n+j]
	for b, bb := range beta {
		schur -= bb * col[idx[b]]
	}
	if !(schur > 0) {
		return 0, fmt.Errorf("%w: W lost definiteness at variable %d (Schur complement %v); the pattern and ρ admit no solution for this S",
			ErrNotPositiveDefinite, j, schur)
	}
	return delta, nil
}

// precision assembles Θ from the final lasso coefficients: Θ_jj =
// 1/(W_jj − w_Njᵀβ), Θ_Nj = −β Θ_jj, then symmetrises by averaging.
func (s *solver) precision() (*mat.SymDense, error) {
	n := s.n
	t := make([]float64, n*n)
	for j := 0; j < n; j++ {
		idx, beta := s.nb[j], s.beta[j]
		schur := s.w[j*n+j]
		for b, bb := range beta {
			schur -= bb * s.w[idx[b]*n+j]
		}
		if !(schur > 0) {
			return nil, fmt.Errorf("%w: final W at variable %d (Schur complement %v)", ErrNotPositiveDefinite, j, schur)
		}
		tjj := 1 / schur
		t[j*n+j] = tjj
		for b, bb := range beta {
			t[idx[b]*n+j] = -bb * tjj
		}
	}
	theta := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			theta.SetSym(i, j, 0.5*(t[i*n+j]+t[j*n+i]))
		}
	}
	return theta, nil
}

// positiveDefinite reports whether the n×n Θ has a Cholesky factorisation.
func (s *solver) positiveDefinite(theta *mat.SymDense) bool {
	n := s.n
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			a[i*n+j] = theta.At(i, j)
		}
	}
	_, ok := denseLogDet(a, n)
	return ok
}
