package glasso

import (
	"fmt"
	"math"
	"sort"

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

	// MaxIter is the maximum number of sweeps over the columns. Zero means
	// 1000.
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

	// Monitor, if non-nil, is called after every sweep with the sweep
	// number (from 1) and the mean absolute change of W; returning true
	// stops the iteration (the result is then returned without error).
	Monitor func(iter int, change float64) bool
}

// Result is a graphical-lasso solution.
type Result struct {
	// Theta is Θ, the n×n precision (inverse covariance) estimate; it is
	// exactly zero off the graph.
	Theta *mat.SymDense
	// W is the n×n covariance estimate, W ≈ Θ⁻¹.
	W *mat.SymDense
	// Iterations is the number of sweeps run.
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
	defaultMaxIter      = 1000
	defaultLassoMaxIter = 10000
	// polishMax is the largest active set solved exactly (Cholesky) to
	// finish a lasso sub-problem; larger ones rely on coordinate descent.
	polishMax = 100
)

// Solve maximises log det Θ − tr(SΘ) − Σ ρᵢⱼ|Θᵢⱼ| over positive definite Θ
// with the sparsity pattern of pen.Graph (see the package documentation).
// S is n×n symmetric and is not modified. set may be nil.
//
// Solve panics on programmer errors (negative ρ, a graph of the wrong
// length or with an out-of-range index). It returns an error wrapping
// ErrNaN for non-finite input, ErrNotPositiveDefinite when the start is not
// positive definite on a column's block or an iterate loses definiteness (no
// solution exists), and ErrNotConverged when MaxIter sweeps do not reach Tol;
// in the last case the result of the final sweep is returned with the error.
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

// solver holds the dense working copies (row-major n×n) and per-column
// lasso state.
type solver struct {
	n       int
	set     Settings
	s, w    []float64
	nb      [][]int     // sorted allowed neighbours of each variable
	rho     [][]float64 // ρ_jk parallel to nb[j]
	diagRho float64
	beta    [][]float64 // lasso coefficients per column, kept as warm starts
	scale   float64     // mean |offdiag S| (or a fallback), the unit of W
	allPair bool

	// scratch
	u, g, col, x, h []float64
	act             []int
	va              []float64
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
	s.h = make([]float64, maxm)
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
// {j} ∪ N(j) is positive definite.
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
	} else {
		copy(s.w, s.s)
	}
	for i := 0; i < n; i++ {
		s.w[i*n+i] = s.s[i*n+i] + s.diagRho
	}
	if s.allPair {
		var ch mat.Cholesky
		if !ch.Factorize(mat.NewSymDense(n, append([]float64(nil), s.w...))) {
			return fmt.Errorf("%w: start W (S%s) is not positive definite; use a positive ρ with PenaliseDiagonal, or a Start",
				ErrNotPositiveDefinite, map[bool]string{true: " + ρI", false: ""}[s.diagRho > 0])
		}
		return nil
	}
	var ch mat.Cholesky
	for j := 0; j < n; j++ {
		idx := append([]int{j}, s.nb[j]...)
		b := mat.NewSymDense(len(idx), nil)
		for a, ka := range idx {
			for c := a; c < len(idx); c++ {
				b.SetSym(a, c, s.w[ka*n+idx[c]])
			}
		}
		if !ch.Factorize(b) {
			return fmt.Errorf("%w: start W is not positive definite on the block of variable %d and its %d neighbours",
				ErrNotPositiveDefinite, j, len(s.nb[j]))
		}
	}
	return nil
}

// run performs the block coordinate sweeps.
func (s *solver) run() (*Result, error) {
	n := s.n
	denom := float64(n * (n - 1))
	if n == 1 {
		denom = 1
	}
	thresh := s.set.Tol * s.scale
	var it int
	converged := false
	for it = 1; it <= s.set.MaxIter; it++ {
		var delta float64
		for j := 0; j < n; j++ {
			if err := s.lasso(j); err != nil {
				return nil, err
			}
			d, err := s.updateColumn(j)
			if err != nil {
				return nil, err
			}
			delta += d
		}
		change := delta / denom
		if math.IsNaN(change) || math.IsInf(change, 0) {
			return nil, fmt.Errorf("%w: W after sweep %d", ErrNaN, it)
		}
		if s.set.Monitor != nil && s.set.Monitor(it, change) {
			converged = true
			break
		}
		if change < thresh {
			converged = true
			break
		}
	}
	if it > s.set.MaxIter {
		it = s.set.MaxIter
	}
	theta, err := s.precision()
	if err != nil {
		return nil, err
	}
	res, err := s.finish(theta, it)
	if err == nil && !converged {
		err = fmt.Errorf("%w: %d sweeps did not reach Tol = %v", ErrNotConverged, it, s.set.Tol)
	}
	return res, err
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
		row := s.w[idx[b]*n : idx[b]*n+n]
		for i, v := range row {
			col[i] += v * bb
		}
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
