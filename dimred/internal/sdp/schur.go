package sdp

import (
	"sync"
	"sync/atomic"
)

// schur fills the upper triangle of the m×m Schur complement
//
//	M_ij = tr(A_i X A_j Z⁻¹) = Σ_{(a,b)∈A_i} Σ_{(c,d)∈A_j} A_i[a,b] X[b,c] A_j[c,d] Z⁻¹[d,a],
//
// using the double sum for pairs of sparse constraints and, for a dense
// constraint j, T_j = X A_j Z⁻¹ with M_ij = ⟨A_i, T_j⟩. Rows are handed out
// to sv.set.Workers goroutines.
func (sv *solver) schur(M []float64) {
	n, m := sv.n, sv.m
	x, zi := sv.x, sv.zi
	// Dense products for dense constraints.
	t := make([][]float64, m)
	tmp := make([]float64, n*n)
	for j, a := range sv.cons {
		if a.dense != nil {
			tj := make([]float64, n*n)
			mul3(tj, x, a.dense, zi, tmp, n)
			t[j] = tj
		}
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
			for j := i; j < m; j++ {
				if tj := t[j]; tj != nil {
					row[j] = ai.inner(tj, n)
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
