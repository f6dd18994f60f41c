package sdp

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// Facial reduction for MVU (after Krislock and Wolkowicz, "Explicit sensor
// network localization using semidefinite representations and facial
// reductions", SIAM J. Optim. 2010).
//
// If the points of a clique C of the neighbourhood graph (all pairs in C
// constrained to their distances) are affinely dependent — λ ≠ 0 supported on
// C with Σλ_i = 0 and Σλ_i y_i = 0, which happens whenever |C| exceeds the
// data's dimension plus one — then every feasible K has
//
//	λᵀKλ = −½ Σ_ij λ_i λ_j d²_ij = ‖Σ λ_i y_i‖² = 0,  so K λ = 0,
//
// and no feasible K is positive definite on 1^⊥: the programme has no strictly
// feasible point, its dual multipliers diverge and the interior-point method
// stalls. Restricting K = V K̃ Vᵀ to the orthogonal complement V of 1 and all
// such λ restores a strictly feasible interior (generically) and shrinks the
// programme.

// nullRelTol decides which eigenvalues of a clique's centred Gram matrix are
// zero, relative to the largest; exact low-dimensional data give ~1e-15.
const nullRelTol = 1e-10

// faceBasis returns an orthonormal n×n' basis V of the face of the MVU
// programme with equality pairs eq and squared distances sq, or nil if no
// clique is affinely dependent (then V would span 1^⊥ and nothing is gained).
func faceBasis(n int, eq [][2]int, sq []float64) *mat.Dense {
	adj := make([]map[int]float64, n)
	for i := range adj {
		adj[i] = make(map[int]float64)
	}
	for t, p := range eq {
		adj[p[0]][p[1]] = sq[t]
		adj[p[1]][p[0]] = sq[t]
	}
	var lams [][]float64 // null vectors in R^n
	for _, c := range maximalCliques(adj) {
		if len(c) < 3 {
			continue
		}
		lams = append(lams, cliqueNull(c, adj, n)...)
	}
	if len(lams) == 0 {
		return nil
	}
	// V spans the orthogonal complement of 1 and the λ: the eigenvectors of
	// Σ λλᵀ + 11ᵀ/n (λ normalised) with (numerically) zero eigenvalue.
	s := mat.NewSymDense(n, nil)
	one := make([]float64, n)
	for i := range one {
		one[i] = 1 / math.Sqrt(float64(n))
	}
	s.SymRankOne(s, 1, mat.NewVecDense(n, one))
	for _, l := range lams {
		s.SymRankOne(s, 1, mat.NewVecDense(n, l))
	}
	var es mat.EigenSym
	if !es.Factorize(s, true) {
		return nil
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	thr := 1e-9 * vals[n-1]
	var keep int
	for keep < n && vals[keep] <= thr {
		keep++
	}
	if keep == 0 || keep >= n-1 {
		return nil
	}
	return mat.DenseCopyOf(vecs.Slice(0, n, 0, keep))
}

// cliqueNull returns unit vectors in R^n spanning the affine dependencies of
// clique c: the null space within 1^⊥ of its centred Gram matrix
// G = −½ H D H (classical scaling of the clique's squared distances D).
func cliqueNull(c []int, adj []map[int]float64, n int) [][]float64 {
	k := len(c)
	g := mat.NewSymDense(k, nil)
	d := func(a, b int) float64 {
		if a == b {
			return 0
		}
		return adj[c[a]][c[b]]
	}
	rm := make([]float64, k)
	var tot float64
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			rm[a] += d(a, b)
		}
		tot += rm[a]
		rm[a] /= float64(k)
	}
	tot /= float64(k * k)
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			g.SetSym(a, b, -0.5*(d(a, b)-rm[a]-rm[b]+tot))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(g, true) {
		return nil
	}
	vals := es.Values(nil)
	top := vals[k-1]
	if top <= 0 {
		return nil
	}
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	var out [][]float64
	for e := 0; e < k; e++ {
		if math.Abs(vals[e]) > nullRelTol*top {
			continue
		}
		// Skip the constant direction: project it out and keep what is left.
		v := make([]float64, k)
		var mean float64
		for a := 0; a < k; a++ {
			v[a] = vecs.At(a, e)
			mean += v[a]
		}
		mean /= float64(k)
		var nrm float64
		for a := range v {
			v[a] -= mean
			nrm += v[a] * v[a]
		}
		if nrm < 0.5 {
			continue // (nearly) the constant vector
		}
		l := make([]float64, n)
		for a, i := range c {
			l[i] = v[a] / math.Sqrt(nrm)
		}
		out = append(out, l)
	}
	return out
}

// maximalCliques lists the maximal cliques of a graph by Bron–Kerbosch with
// pivoting (Tomita, Tanaka and Takahashi 2006); the neighbourhood graphs here
// have small degree.
func maximalCliques(adj []map[int]float64) [][]int {
	var out [][]int
	var bk func(r, p, x []int)
	bk = func(r, p, x []int) {
		if len(p) == 0 && len(x) == 0 {
			out = append(out, append([]int(nil), r...))
			return
		}
		// Pivot: the vertex of p ∪ x with most neighbours in p.
		piv, best := -1, -1
		for _, set := range [][]int{p, x} {
			for _, u := range set {
				cnt := 0
				for _, w := range p {
					if _, ok := adj[u][w]; ok {
						cnt++
					}
				}
				if cnt > best {
					piv, best = u, cnt
				}
			}
		}
		var cand []int
		for _, v := range p {
			if _, ok := adj[piv][v]; !ok {
				cand = append(cand, v)
			}
		}
		for _, v := range cand {
			var np, nx []int
			for _, w := range p {
				if _, ok := adj[v][w]; ok {
					np = append(np, w)
				}
			}
			for _, w := range x {
				if _, ok := adj[v][w]; ok {
					nx = append(nx, w)
				}
			}
			bk(append(r, v), np, nx)
			// Move v from p to x.
			for t, w := range p {
				if w == v {
					p = append(p[:t:t], p[t+1:]...)
					break
				}
			}
			x = append(x, v)
		}
	}
	all := make([]int, len(adj))
	for i := range all {
		all[i] = i
	}
	bk(nil, all, nil)
	for _, c := range out {
		sort.Ints(c)
	}
	return out
}
