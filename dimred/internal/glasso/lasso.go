package glasso

import "math"

// lasso solves the sub-problem of column j,
//
//	min_β ½ βᵀ V β − uᵀ β + Σ_a r_a |β_a|,  V = W_NN, u = S_Nj, r = ρ_jN,
//
// starting from the previous sweep's β (warm start). With r = 0 it is the
// linear system Vβ = u, solved by Cholesky. Otherwise a few passes of cyclic
// coordinate descent,
//
//	β_a ← soft(u_a − Σ_{b≠a} V_ab β_b, r_a) / V_aa,
//
// keeping g = Vβ up to date (O(m) per changed coordinate), settle the
// active set, and the feature-sign active-set method (Lee, Battle, Raina & Ng,
// "Efficient sparse coding algorithms", NIPS 2006) finishes exactly: solve
// the equality-constrained problem on the active set, step to it or to the
// first sign change, add the most violating inactive coordinate, until the
// optimality conditions hold. Coordinate descent alone crawls here, because
// neighbouring data points make V ill-conditioned. V is read in place from
// W through the index list N, never copied, except for the active block.
func (s *solver) lasso(j int) {
	n, w := s.n, s.w
	idx, r, beta := s.nb[j], s.rho[j], s.beta[j]
	m := len(idx)
	if m == 0 {
		return
	}
	u, g := s.u[:m], s.g[:m]
	for a, k := range idx {
		u[a] = s.s[j*n+k]
	}
	if s.zeroRho[j] && m <= directMax {
		if s.direct(j) {
			return
		}
	}
	s.gradient(j)
	tol := s.set.LassoTol * s.scale
	fsTried := false
	for pass := 0; pass < s.set.LassoMaxIter; pass++ {
		var maxd float64
		changed := false
		for a, k := range idx {
			vaa := w[k*n+k]
			old := beta[a]
			z := u[a] - g[a] + vaa*old
			nw := soft(z, r[a]) / vaa
			if nw == old {
				continue
			}
			d := nw - old
			beta[a] = nw
			row := w[k*n:]
			for b, kb := range idx {
				g[b] += row[kb] * d
			}
			maxd = max(maxd, math.Abs(d)*vaa)
			if (old == 0) != (nw == 0) {
				changed = true
			}
		}
		if maxd <= tol {
			return
		}
		// Finish by feature-sign once coordinate descent has settled the
		// active set (or after cdPasses passes); once per sub-problem.
		if !fsTried && (!changed && pass > 0 || pass == cdPasses) {
			fsTried = true
			if s.featureSign(j, tol) {
				return
			}
		}
	}
}

// gradient sets g = Vβ.
func (s *solver) gradient(j int) {
	n, w := s.n, s.w
	idx, beta := s.nb[j], s.beta[j]
	g := s.g[:len(idx)]
	for a := range g {
		g[a] = 0
	}
	for b, bb := range beta {
		if bb == 0 {
			continue
		}
		row := w[idx[b]*n:]
		for a, k := range idx {
			g[a] += row[k] * bb
		}
	}
}

// direct solves Vβ = u by Cholesky (the ρ = 0 sub-problem).
func (s *solver) direct(j int) bool {
	n, w := s.n, s.w
	idx, beta := s.nb[j], s.beta[j]
	m := len(idx)
	if cap(s.va) < m*m {
		s.va = make([]float64, m*m)
	}
	v := s.va[:m*m]
	for a, ka := range idx {
		row := w[ka*n:]
		for c := 0; c <= a; c++ {
			v[a*m+c] = row[idx[c]]
		}
	}
	if !cholesky(v, m) {
		return false
	}
	copy(beta, s.u[:m])
	cholSolve(v, m, beta)
	return true
}

// soft is the soft-threshold operator sign(z)·max(|z| − r, 0).
func soft(z, r float64) float64 {
	switch {
	case z > r:
		return z - r
	case z < -r:
		return z + r
	}
	return 0
}

// featureSign finishes the lasso of column j exactly from the current β
// (see lasso). It reports success; on failure (an active block not
// positive definite, too large, or too many steps) β and g are left
// consistent and coordinate descent continues.
func (s *solver) featureSign(j int, tol float64) bool {
	n, w := s.n, s.w
	idx, r, beta := s.nb[j], s.rho[j], s.beta[j]
	m := len(idx)
	u, g := s.u[:m], s.g[:m]
	act := s.act[:0]
	defer func() { s.act = act[:0] }()
	for a, bb := range beta {
		if bb != 0 {
			act = append(act, a)
		}
	}
	theta := s.theta[:m]
	for a, bb := range beta {
		theta[a] = math.Copysign(1, bb)
	}
	for step := 0; step < 4*m+20; step++ {
		// Optimality: active u_a − g_a = r_a θ_a, inactive |u_a − g_a| ≤ r_a.
		activeOK := true
		for _, a := range act {
			if beta[a] == 0 || math.Abs(u[a]-g[a]-r[a]*theta[a]) > tol {
				activeOK = false
				break
			}
		}
		if activeOK {
			worst, wv := -1, tol
			for a := range idx {
				if beta[a] != 0 {
					continue
				}
				if v := math.Abs(u[a]-g[a]) - r[a]; v > wv {
					worst, wv = a, v
				}
			}
			if worst < 0 {
				return true
			}
			theta[worst] = math.Copysign(1, u[worst]-g[worst])
			act = insertSorted(act, worst)
		}
		p := len(act)
		if p > fsMax {
			return false
		}
		// x_A = V_AA⁻¹ (u_A − r_A θ_A).
		if cap(s.va) < p*p {
			s.va = make([]float64, p*p)
		}
		v := s.va[:p*p]
		x := s.x[:p]
		for c, a := range act {
			row := w[idx[a]*n:]
			for e := 0; e <= c; e++ {
				v[c*p+e] = row[idx[act[e]]]
			}
			x[c] = u[a] - r[a]*theta[a]
		}
		if !cholesky(v, p) {
			return false
		}
		cholSolve(v, p, x)
		// Candidates on the segment β_A + tD, D = x − β_A: t = 1 and every
		// point where a non-zero coordinate changes sign; keep the one with
		// the least objective. The smooth part is c + t·lin + ½t²·quad with
		// VD = (u − rθ)_A − g_A, since V_AA x = (u − rθ)_A and Vβ = g.
		var lin, quad float64
		for c, a := range act {
			d := x[c] - beta[a]
			vd := u[a] - r[a]*theta[a] - g[a]
			quad += d * vd
			lin += d * (g[a] - u[a])
		}
		f := func(t float64) float64 {
			v := t*lin + 0.5*t*t*quad
			for c, a := range act {
				v += r[a] * math.Abs(beta[a]+t*(x[c]-beta[a]))
			}
			return v
		}
		bestT, bestF := 1.0, f(1)
		for c, a := range act {
			if b := beta[a]; b != 0 && x[c]*b < 0 {
				t := b / (b - x[c])
				if ft := f(t); ft < bestF {
					bestT, bestF = t, ft
				}
			}
		}
		keep := act[:0]
		for c, a := range act {
			b := beta[a]
			nb := b + bestT*(x[c]-b)
			if bestT < 1 && b != 0 && x[c]*b < 0 && bestT == b/(b-x[c]) {
				nb = 0
			}
			beta[a] = nb
			if nb != 0 {
				theta[a] = math.Copysign(1, nb)
				keep = append(keep, a)
			}
		}
		act = keep
		s.gradient(j)
	}
	return false
}

func insertSorted(act []int, a int) []int {
	act = append(act, 0)
	i := len(act) - 1
	for i > 0 && act[i-1] > a {
		act[i] = act[i-1]
		i--
	}
	act[i] = a
	return act
}
