package sdp

import (
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// schur fills the upper triangle of the m×m Schur complement (the lower
// one for schurPairs: sv.allPairs)
//
//	M_ij = tr(A_i X A_j Z⁻¹) = Σ_{(a,b)∈A_i} Σ_{(c,d)∈A_j} A_i[a,b] X[b,c] A_j[c,d] Z⁻¹[d,a],
//
// using the double sum for pairs of sparse constraints and, for a dense
// constraint j, T_j = X A_j Z⁻¹ with M_ij = ⟨A_i, T_j⟩. Rows are handed out
// to sv.set.Workers goroutines.
func (sv *solver) schur(M []float64) {
	n, m := sv.n, sv.m
	x, zi := sv.x, sv.zi
	if sv.allPairs {
		sv.schurPairs(M)
		return
	}
	// Dense products for dense constraints.
	t := make([][]float64, m)
	tmp := make([]float64, n*n)
	for j, a := range sv.cons {
		if a.dense != nil {
			tj := make([]float64, n*n)
			mulSym3(tj, x, a.dense, zi, tmp, n, 1)
			t[j] = tj
		}
	}
	// Rank-one constraints u uᵀ: X u and Z⁻¹ u, and for pairs of them
	// M_ij = (u_iᵀ X u_j)(u_jᵀ Z⁻¹ u_i) = P_ij Q_ij with P = U X Uᵀ and
	// Q = U Z⁻¹ Uᵀ formed by matrix products.
	var ro []int
	pos := make([]int, m)
	for j, a := range sv.cons {
		pos[j] = -1
		if a.u != nil {
			pos[j] = len(ro)
			ro = append(ro, j)
		}
	}
	var xu, zu, pp, qq []float64
	r := len(ro)
	if r > 0 {
		u := make([]float64, r*n)
		for t, j := range ro {
			copy(u[t*n:(t+1)*n], sv.cons[j].u)
		}
		g := func(rows, cols int, d []float64) blas64.General {
			return blas64.General{Rows: rows, Cols: cols, Stride: cols, Data: d}
		}
		xu = make([]float64, r*n) // row t: X u_t
		zu = make([]float64, r*n) // row t: Z⁻¹ u_t
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, g(r, n, u), g(n, n, x), 0, g(r, n, xu))
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, g(r, n, u), g(n, n, zi), 0, g(r, n, zu))
		pp = make([]float64, r*r)
		qq = make([]float64, r*r)
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, g(r, n, xu), g(r, n, u), 0, g(r, r, pp))
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, g(r, n, zu), g(r, n, u), 0, g(r, r, qq))
	}
	// mixed returns tr(A X u uᵀ Z⁻¹) = Σ_{(a,b)∈A} A_ab (X u)_b (Z⁻¹ u)_a for
	// a sparse A and rank-one constraint number t.
	mixed := func(a *spmat, t int) float64 {
		xut, zut := xu[t*n:(t+1)*n], zu[t*n:(t+1)*n]
		var s float64
		for p, v := range a.v {
			s += v * xut[a.j[p]] * zut[a.i[p]]
		}
		return s
	}
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= m {
				return
			}
			ai := sv.cons[i]
			row := M[i*m : (i+1)*m]
			if ti := t[i]; ti != nil {
				for j := i; j < m; j++ {
					if tj := t[j]; tj != nil {
						row[j] = ai.inner(tj, n)
					} else {
						row[j] = sv.cons[j].inner(ti, n)
					}
				}
				continue
			}
			if pi := pos[i]; pi >= 0 {
				for j := i; j < m; j++ {
					switch {
					case t[j] != nil:
						row[j] = ai.inner(t[j], n)
					case pos[j] >= 0:
						row[j] = pp[pi*r+pos[j]] * qq[pi*r+pos[j]]
					default:
						row[j] = mixed(sv.cons[j], pi)
					}
				}
				continue
			}
			for j := i; j < m; j++ {
				if tj := t[j]; tj != nil {
					row[j] = ai.inner(tj, n)
					continue
				}
				if pj := pos[j]; pj >= 0 {
					row[j] = mixed(ai, pj)
					continue
				}
				aj := sv.cons[j]
				var sum float64
				for p, v := range ai.v {
					a, b := ai.i[p], ai.j[p]
					xb := x[b*n : (b+1)*n]
					var inner float64
					for q, w := range aj.v {
						inner += w * xb[aj.i[q]] * zi[aj.j[q]*n+a]
					}
					sum += v * inner
				}
				row[j] = sum
			}
		}
	}
	w := sv.set.Workers
	if w <= 1 || m < 64 {
		work()
		return
	}
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func() { defer wg.Done(); work() }()
	}
	wg.Wait()
}

// schurPairs fills the lower triangle of the Schur complement (the one
// cholLower reads, so that no transposition is needed) when every
// constraint is a distance pair, A_k = v_k u_k u_kᵀ with u_k = e_a − e_b
// (or e_a): then M_kl = v_k v_l (u_kᵀ X u_l)(u_kᵀ Z⁻¹ u_l), and with the
// n×m matrices P = X U V and Q = Z⁻¹ U (U's columns the u_l, V = diag(v)),
// each gathered from two columns of X or Z⁻¹,
//
//	M_kl = v_k (P_{a_k,l} − P_{b_k,l}) (Q_{a_k,l} − Q_{b_k,l}),
//
// a difference of two rows of P and of Q per row of M: O(nm + m²) reads,
// the four entries per constraint that CSDP's sparse Schur assembly also
// exploits, instead of a double sum over the entries of each pair.
func (sv *solver) schurPairs(M []float64) {
	n, m := sv.n, sv.m
	if sv.pu == nil {
		sv.pu = make([]float64, n*m)
		sv.qu = make([]float64, n*m)
	}
	p, q := sv.pu, sv.qu
	cons := sv.cons
	w := sv.set.Workers
	if n*m < 1<<14 {
		w = 1
	}
	parallelRows(n, w, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xr, zr := sv.x[i*n:(i+1)*n], sv.zi[i*n:(i+1)*n]
			pr, qr := p[i*m:(i+1)*m], q[i*m:(i+1)*m]
			for l, c := range cons {
				a, b := c.pa, c.pb
				if b < 0 {
					pr[l] = c.pv * xr[a]
					qr[l] = zr[a]
					continue
				}
				pr[l] = c.pv * (xr[a] - xr[b])
				qr[l] = zr[a] - zr[b]
			}
		}
	})
	if m < 64 {
		w = 1
	}
	var next atomic.Int64
	work := func() {
		for {
			k := int(next.Add(1) - 1)
			if k >= m {
				return
			}
			c := cons[k]
			row := M[k*m : k*m+k+1]
			pa, qa := p[c.pa*m:c.pa*m+k+1], q[c.pa*m:c.pa*m+k+1]
			if c.pb < 0 {
				for l := range row {
					row[l] = c.pv * pa[l] * qa[l]
				}
				continue
			}
			pb, qb := p[c.pb*m:c.pb*m+k+1], q[c.pb*m:c.pb*m+k+1]
			pa, qa, pb, qb = pa[:len(row)], qa[:len(row)], pb[:len(row)], qb[:len(row)]
			for l := range row {
				row[l] = c.pv * (pa[l] - pb[l]) * (qa[l] - qb[l])
			}
		}
	}
	if w <= 1 {
		work()
		return
	}
	var wg sync.WaitGroup
	for t := 0; t < w; t++ {
		wg.Add(1)
		go func() { defer wg.Done(); work() }()
	}
	wg.Wait()
}
