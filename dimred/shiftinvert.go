package dimred

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/dimredbook/book/dimred/linalg"
	"gonum.org/v1/gonum/mat"
)

// Shift-invert for the bottom of a sparse PSD matrix whose smallest
// eigenvalues are tiny and clustered relative to its norm — LLE's
// M = (I − W)ᵀ(I − W), whose q+1 smallest eigenvalues are ~10⁻⁸ of the
// largest on a smooth manifold. Krylov methods on M itself (or on a
// Chebyshev filter of it) then need ~√(λ_max/gap) ≈ 10⁴ products per
// Krylov step; on (M + σI)⁻¹ the wanted eigenvalues are the largest and
// well separated, and a few dozen solves suffice (ARPACK's shift-invert
// mode, which scikit-learn uses with a sparse LU). The solves use a
// Cholesky factorisation of the envelope (profile) of M + σI after a
// reverse Cuthill–McKee ordering (George & Liu 1981, "Computer solution of
// large sparse positive definite systems"): for the kNN graph of an
// m-dimensional manifold the envelope is about n·n^{(m−1)/m} entries.

// errEnvelopeTooLarge reports an envelope over the memory budget; the
// caller falls back to the plain sparse eigensolver.
var errEnvelopeTooLarge = errors.New("dimred: envelope Cholesky factor too large")

// maxEnvelope is the largest envelope (entries of the factor) factorised:
// 1.5·10⁸ entries = 1.2 GB.
const maxEnvelope = 150_000_000

// envelopeCholesky is L Lᵀ = P (A + σI) Pᵀ, L stored row by row from its
// first non-zero column: row i holds columns first[i] … i at
// val[ptr[i] : ptr[i+1]].
type envelopeCholesky struct {
	n     int
	perm  []int // perm[new] = old
	first []int
	ptr   []int
	val   []float64
}

// rcmOrder returns a reverse Cuthill–McKee ordering of the symmetric
// pattern of a (perm[new] = old), each component started from a
// pseudo-peripheral node of lowest degree.
func rcmOrder(a *linalg.CSR) []int {
	n := a.N
	deg := make([]int, n)
	for i := 0; i < n; i++ {
		deg[i] = a.RowPtr[i+1] - a.RowPtr[i]
	}
	visited := make([]bool, n)
	order := make([]int, 0, n)
	level := make([]int, n)
	stamp := make([]int, n)
	gen := 0
	q := make([]int, 0, n)
	bfs := func(s int) (last int, depth int) {
		// Plain BFS from s over unvisited nodes, returning a node of the
		// last level and the depth (pseudo-peripheral search).
		gen++
		stamp[s] = gen
		q = append(q[:0], s)
		level[s] = 0
		for h := 0; h < len(q); h++ {
			v := q[h]
			last, depth = v, level[v]
			cols, _ := a.Row(v)
			for _, w := range cols {
				if stamp[w] != gen && !visited[w] {
					stamp[w] = gen
					level[w] = level[v] + 1
					q = append(q, w)
				}
			}
		}
		return last, depth
	}
	for s0 := 0; s0 < n; s0++ {
		if visited[s0] {
			continue
		}
		// Pseudo-peripheral start: repeat BFS from the far end while
		// the depth grows (at most a few times).
		s := s0
		far, d := bfs(s)
		for it := 0; it < 4; it++ {
			_, d2 := bfs(far)
			if d2 <= d {
				break
			}
			s, d = far, d2
			far, _ = bfs(s)
		}
		// Cuthill–McKee from s: neighbours in increasing degree.
		start := len(order)
		order = append(order, s)
		visited[s] = true
		var nb []int
		for h := start; h < len(order); h++ {
			v := order[h]
			cols, _ := a.Row(v)
			nb = nb[:0]
			for _, w := range cols {
				if !visited[w] {
					visited[w] = true
					nb = append(nb, w)
				}
			}
			sort.Slice(nb, func(x, y int) bool {
				if deg[nb[x]] != deg[nb[y]] {
					return deg[nb[x]] < deg[nb[y]]
				}
				return nb[x] < nb[y]
			})
			order = append(order, nb...)
		}
	}
	for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
		order[i], order[j] = order[j], order[i]
	}
	return order
}

// factorEnvelope factorises A + σI (A symmetric CSR) in RCM order. It
// returns errEnvelopeTooLarge over the memory budget (maxEnvelope entries)
// or when the factorisation's cost, envelopeFlops, exceeds maxFlops (≤ 0:
// no limit), and ErrSingular when a pivot is not positive.
func factorEnvelope(a *linalg.CSR, sigma, maxFlops float64) (*envelopeCholesky, error) {
	n := a.N
	perm := rcmOrder(a)
	inv := make([]int, n)
	for k, i := range perm {
		inv[i] = k
	}
	first := make([]int, n)
	for k := 0; k < n; k++ {
		first[k] = k
		cols, _ := a.Row(perm[k])
		for _, j := range cols {
			if c := inv[j]; c < first[k] {
				first[k] = c
			}
		}
	}
	ptr := make([]int, n+1)
	for k := 0; k < n; k++ {
		ptr[k+1] = ptr[k] + k - first[k] + 1
	}
	if ptr[n] > maxEnvelope {
		return nil, fmt.Errorf("%w: %d entries", errEnvelopeTooLarge, ptr[n])
	}
	if f := envelopeFlops(first); maxFlops > 0 && f > maxFlops {
		return nil, fmt.Errorf("%w: %.3g flops to factorise, over the budget of %.3g", errEnvelopeTooLarge, f, maxFlops)
	}
	val := make([]float64, ptr[n])
	for k := 0; k < n; k++ {
		cols, vals := a.Row(perm[k])
		for t, j := range cols {
			if c := inv[j]; c <= k {
				val[ptr[k]+c-first[k]] += vals[t]
			}
		}
		val[ptr[k+1]-1] += sigma
	}
	// Row-oriented (bordering) Cholesky: for row i, solve with the
	// already factored rows, then the pivot.
	for i := 0; i < n; i++ {
		ri := val[ptr[i]:ptr[i+1]]
		fi := first[i]
		for j := fi; j < i; j++ {
			rj := val[ptr[j]:ptr[j+1]]
			fj := first[j]
			lo := max(fi, fj)
			s := ri[j-fi]
			a := ri[lo-fi : j-fi]
			b := rj[lo-fj : j-fj]
			for t := range a {
				s -= a[t] * b[t]
			}
			ri[j-fi] = s / rj[j-fj]
		}
		s := ri[i-fi]
		for _, v := range ri[:i-fi] {
			s -= v * v
		}
		if !(s > 0) {
			return nil, fmt.Errorf("%w: pivot %d of the envelope Cholesky factor is %g", ErrSingular, i, s)
		}
		ri[i-fi] = math.Sqrt(s)
	}
	return &envelopeCholesky{n: n, perm: perm, first: first, ptr: ptr, val: val}, nil
}

// envelopeFlops is the cost model of the envelope Cholesky factorisation
// whose row i starts at column first[i]: row i of the bordering algorithm
// takes Σ_{j<i in the row} (j − max(first_i, first_j)) ≤ ℓ_i²/2
// multiply–adds, ℓ_i = i − first[i] + 1; the model counts ℓ_i² flops
// (exact up to the overlap of the rows, an upper bound). It is
// nondecreasing in every ℓ_i.
func envelopeFlops(first []int) float64 {
	f := 0.0
	for i, fi := range first {
		l := float64(i - fi + 1)
		f += l * l
	}
	return f
}

// Size and MulVecTo make the factor the SymOperator x ↦ (A + σI)⁻¹ x.
func (c *envelopeCholesky) Size() int { return c.n }

func (c *envelopeCholesky) MulVecTo(dst, x []float64) {
	n := c.n
	z := make([]float64, n)
	for k, i := range c.perm {
		z[k] = x[i]
	}
	// L y = z
	for i := 0; i < n; i++ {
		ri := c.val[c.ptr[i]:c.ptr[i+1]]
		fi := c.first[i]
		s := z[i]
		for t, v := range ri[:i-fi] {
			s -= v * z[fi+t]
		}
		z[i] = s / ri[i-fi]
	}
	// Lᵀ w = y, column-oriented over the rows of L.
	for i := n - 1; i >= 0; i-- {
		ri := c.val[c.ptr[i]:c.ptr[i+1]]
		fi := c.first[i]
		z[i] /= ri[i-fi]
		v := z[i]
		for t, l := range ri[:i-fi] {
			z[fi+t] -= l * v
		}
	}
	for k, i := range c.perm {
		dst[i] = z[k]
	}
}

// bottomShiftInvertOpt returns the k smallest eigenpairs (ascending) of
// the symmetric PSD sparse a by Lanczos on (a + σI)⁻¹, σ = 10⁻¹⁰·max_i a_ii
// (raised ×100 until the factorisation succeeds), followed by a
// Rayleigh–Ritz step with a itself. errEnvelopeTooLarge means: use the
// plain eigensolver. u is a known null vector of a (a u = 0, u ≠ 0; nil:
// none) and maxFlops a budget for the factorisation (envelopeFlops; ≤ 0:
// none). With u the Lanczos runs on P (a + σI)⁻¹ P, P = I − ûûᵀ, for the
// k − 1 pairs above the null space: the null vector's eigenvalue 1/σ of
// the inverse would otherwise set the scale of the convergence test and
// leave the wanted pairs, whose eigenvalues are 1/λ ≪ 1/σ, converged only
// to ~σ/λ of it.
func bottomShiftInvertOpt(ctx context.Context, a *linalg.CSR, k int, s *linalg.EigenSettings, u []float64, maxFlops float64) ([]float64, *mat.Dense, error) {
	n := a.N
	dmax := 0.0
	for i := 0; i < n; i++ {
		dmax = math.Max(dmax, math.Abs(a.At(i, i)))
	}
	var (
		f   *envelopeCholesky
		err error
	)
	sigma := 1e-10 * dmax
	for try := 0; try < 4; try++ {
		f, err = factorEnvelope(a, sigma, maxFlops)
		if err == nil || errors.Is(err, errEnvelopeTooLarge) {
			break
		}
		sigma *= 100
	}
	if err != nil {
		return nil, nil, err
	}
	var es linalg.EigenSettings
	if s != nil {
		es = *s
	}
	if es.Method == linalg.EigenChebyshev || es.Method == linalg.EigenAuto {
		es.Method = linalg.EigenLanczos
	}
	var V *mat.Dense
	if u == nil {
		if _, V, err = linalg.EigenSymOpContext(ctx, f, k, linalg.Largest, &es); err != nil {
			return nil, nil, err
		}
	} else {
		uh := make([]float64, n)
		copy(uh, u)
		nrm := math.Sqrt(dot(uh, uh))
		for i := range uh {
			uh[i] /= nrm
		}
		_, W, err := linalg.EigenSymOpContext(ctx, deflated{f, uh}, k-1, linalg.Largest, &es)
		if err != nil {
			return nil, nil, err
		}
		V = mat.NewDense(n, k, nil)
		V.SetCol(0, uh)
		V.Slice(0, n, 1, k).(*mat.Dense).Copy(W)
	}
	// Rayleigh–Ritz with a: V is orthonormal; diagonalise Vᵀ a V.
	AV := mat.NewDense(n, k, nil)
	col, out := make([]float64, n), make([]float64, n)
	for j := 0; j < k; j++ {
		mat.Col(col, j, V)
		a.MulVecTo(out, col)
		AV.SetCol(j, out)
	}
	var H mat.Dense
	H.Mul(V.T(), AV)
	Hs := mat.NewSymDense(k, nil)
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			Hs.SetSym(i, j, 0.5*(H.At(i, j)+H.At(j, i)))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(Hs, true) {
		return nil, nil, fmt.Errorf("%w: Rayleigh–Ritz step", ErrNotConverged)
	}
	vals := eig.Values(nil) // ascending
	var Z, vecs mat.Dense
	eig.VectorsTo(&Z)
	vecs.Mul(V, &Z)
	linalg.FixSigns(&vecs)
	return vals, &vecs, nil
}

// deflated is the operator x ↦ P F P x, P = I − uuᵀ (u unit).
type deflated struct {
	f linalg.SymOperator
	u []float64
}

func (d deflated) Size() int { return d.f.Size() }

func (d deflated) MulVecTo(dst, x []float64) {
	c := dot(d.u, x)
	tmp := make([]float64, len(x))
	for i, v := range x {
		tmp[i] = v - c*d.u[i]
	}
	d.f.MulVecTo(dst, tmp)
	c = dot(d.u, dst)
	for i := range dst {
		dst[i] -= c * d.u[i]
	}
}
