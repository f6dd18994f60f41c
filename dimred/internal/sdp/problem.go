package sdp

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Sentinel errors. Returned errors wrap one of these and say which entry or
// iteration caused them.
var (
	// ErrNaN reports a NaN or ±Inf in the problem data.
	ErrNaN = errors.New("sdp: NaN or Inf in problem data")
	// ErrNotConverged reports that MaxIter was reached, that the Monitor
	// stopped the solver, or that progress stalled before the tolerances
	// were met.
	ErrNotConverged = errors.New("sdp: not converged")
	// ErrInfeasible reports that the primal problem appears infeasible
	// (an approximate dual Farkas certificate was found).
	ErrInfeasible = errors.New("sdp: primal infeasible")
	// ErrUnbounded reports that the primal problem appears unbounded
	// (the dual is infeasible).
	ErrUnbounded = errors.New("sdp: primal unbounded")
	// ErrNumerical reports a breakdown of the linear algebra (a Schur
	// complement or iterate that lost positive definiteness).
	ErrNumerical = errors.New("sdp: numerical breakdown")
)

// Entry is one entry of a sparse symmetric matrix: it sets A_IJ = A_JI = V.
// Entries at the same position (in either order) are summed.
type Entry struct {
	I, J int
	V    float64
}

// Problem is an SDP in the standard form documented on the package.
// N is the order of X; C is the objective; A and B are the equality
// constraints ⟨A[k], X⟩ = B[k]; G and H the inequalities ⟨G[l], X⟩ ≤ H[l].
// len(A) must equal len(B) and len(G) must equal len(H).
type Problem struct {
	N int
	C []Entry
	A [][]Entry
	B []float64
	G [][]Entry
	H []float64
}

// spmat is a constraint matrix in full (both triangles) coordinate form,
// with an optional dense copy for constraints with many entries, or a
// rank-one matrix u uᵀ (u non-nil, i, j, v unused).
type spmat struct {
	i, j  []int
	v     []float64
	dense []float64 // n×n row major, nil for sparse constraints
	u     []float64 // A = u uᵀ when not nil
	norm  float64   // Frobenius norm
	// pair marks a sparse A = pv·(e_pa − e_pb)(e_pa − e_pb)ᵀ, or pv·e_pa e_paᵀ
	// when pb < 0: MVU's distance constraints, whose Schur complement
	// entries are read off X and Z⁻¹ (schurPairs).
	pair   bool
	pa, pb int
	pv     float64
}

// rankOne returns the constraint matrix u uᵀ.
func rankOne(u []float64) *spmat {
	var s float64
	for _, v := range u {
		s += v * v
	}
	return &spmat{u: u, norm: s}
}

// inner returns ⟨A, W⟩ for a row-major n×n W (W need not be symmetric;
// since A is symmetric the result is ⟨A, sym(W)⟩).
func (a *spmat) inner(w []float64, n int) float64 {
	if a.u != nil {
		var s float64
		for r, ur := range a.u {
			if ur == 0 {
				continue
			}
			var t float64
			for c, v := range w[r*n : (r+1)*n] {
				t += v * a.u[c]
			}
			s += ur * t
		}
		return s
	}
	var s float64
	for t, v := range a.v {
		s += v * w[a.i[t]*n+a.j[t]]
	}
	return s
}

// addTo adds c·A to the row-major n×n w.
func (a *spmat) addTo(w []float64, n int, c float64) {
	if a.u != nil {
		for r, ur := range a.u {
			if ur == 0 {
				continue
			}
			row := w[r*n : (r+1)*n]
			for col, v := range a.u {
				row[col] += c * ur * v
			}
		}
		return
	}
	for t, v := range a.v {
		w[a.i[t]*n+a.j[t]] += c * v
	}
}

// build converts an entry list to full coordinate form, checking indices
// (a programmer error, panics) and values (returned error).
func build(es []Entry, n int, what string, denseMin int) (*spmat, error) {
	type key struct{ i, j int }
	acc := make(map[key]float64, 2*len(es))
	for t, e := range es {
		if e.I < 0 || e.I >= n || e.J < 0 || e.J >= n {
			panic(fmt.Sprintf("sdp: %s entry %d index (%d,%d) out of range for n = %d", what, t, e.I, e.J, n))
		}
		if math.IsNaN(e.V) || math.IsInf(e.V, 0) {
			return nil, fmt.Errorf("%w: %s entry %d (%d,%d) = %v", ErrNaN, what, t, e.I, e.J, e.V)
		}
		acc[key{e.I, e.J}] += e.V
		if e.I != e.J {
			acc[key{e.J, e.I}] += e.V
		}
	}
	keys := make([]key, 0, len(acc))
	for k, v := range acc {
		if v != 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(a, b int) bool {
		if keys[a].i != keys[b].i {
			return keys[a].i < keys[b].i
		}
		return keys[a].j < keys[b].j
	})
	a := &spmat{i: make([]int, len(keys)), j: make([]int, len(keys)), v: make([]float64, len(keys))}
	var ss float64
	for t, k := range keys {
		a.i[t], a.j[t], a.v[t] = k.i, k.j, acc[k]
		ss += acc[k] * acc[k]
	}
	a.norm = math.Sqrt(ss)
	a.detectPair()
	if len(keys) >= denseMin {
		a.dense = make([]float64, n*n)
		a.addTo(a.dense, n, 1)
	}
	return a, nil
}

// detectPair sets a.pair for the patterns v·e_a e_aᵀ and
// v·(e_a − e_b)(e_a − e_b)ᵀ (entries sorted by row, then column).
func (a *spmat) detectPair() {
	switch len(a.v) {
	case 1:
		if a.i[0] == a.j[0] {
			a.pair, a.pa, a.pb, a.pv = true, a.i[0], -1, a.v[0]
		}
	case 4:
		x, y := a.i[0], a.i[3]
		v := a.v[0]
		if x < y && a.j[0] == x && a.i[1] == x && a.j[1] == y && a.i[2] == y && a.j[2] == x && a.j[3] == y &&
			a.v[1] == -v && a.v[2] == -v && a.v[3] == v {
			a.pair, a.pa, a.pb, a.pv = true, x, y, v
		}
	}
}
