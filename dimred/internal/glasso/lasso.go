package glasso

import "math"

// lasso solves the sub-problem of column j,
//
//	min_β ½ βᵀ V β − uᵀ β + Σ_a r_a |β_a|,  V = W_NN, u = S_Nj, r = ρ_jN,
//
// by cyclic coordinate descent from the previous sweep's β (warm start),
//
//	β_a ← soft(u_a − Σ_{b≠a} V_ab β_b, r_a) / V_aa,
//
// keeping g = Vβ up to date (O(m) per changed coordinate). Whenever a pass
// leaves the active set unchanged it tries to finish exactly: solve
// V_AA β_A = u_A − r_A∘sign(β_A) by Cholesky and accept if the signs agree
// and |u_a − (Vβ)_a| ≤ r_a off the active set. The exact finish matters
// because neighbouring data points make V_NN ill-conditioned, where plain
// coordinate descent crawls. V is read in place from W through the index
// list N, never copied.
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
	tol := s.set.LassoTol * s.scale
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
			if (old == 0) != (nw == 0) {
				changed = true
			}
			maxd = max(maxd, math.Abs(d)*vaa)
		}
		if maxd <= tol {
			return
		}
		if !changed && s.polish(j) {
			return
		}
	}
	return
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

// polish tries the exact solution on the current active set (see lasso). It
// reports whether it was accepted; β and g are only changed if so.
func (s *solver) polish(j int) bool {
	n, w := s.n, s.w
	idx, r, beta := s.nb[j], s.rho[j], s.beta[j]
	m := len(idx)
	u, g := s.u[:m], s.g[:m]
	act := s.act[:0]
	for a, bb := range beta {
		if bb != 0 {
			act = append(act, a)
		}
	}
	p := len(act)
	if p == 0 || p > polishMax {
		return false
	}
	if cap(s.va) < p*p {
		s.va = make([]float64, polishMax*polishMax)
	}
	v := s.va[:p*p]
	x := s.x[:p]
	for c, a := range act {
		row := w[idx[a]*n:]
		for e := 0; e <= c; e++ {
			v[c*p+e] = row[idx[act[e]]]
		}
		x[c] = u[a] - r[a]*math.Copysign(1, beta[a])
	}
	if !cholesky(v, p) {
		return false
	}
	cholSolve(v, p, x)
	for c, a := range act {
		if x[c]*beta[a] <= 0 || math.IsNaN(x[c]) {
			return false
		}
	}
	// h = V_{:,A} x and the inactive optimality |u_a − h_a| ≤ r_a.
	h := s.h[:m]
	for a := range h {
		h[a] = 0
	}
	for c, a := range act {
		row := w[idx[a]*n:]
		xc := x[c]
		for b, kb := range idx {
			h[b] += row[kb] * xc
		}
	}
	slack := 1e-12 * s.scale
	inA := 0
	for a := range idx {
		if inA < p && act[inA] == a {
			inA++
			continue
		}
		if math.Abs(u[a]-h[a]) > r[a]*(1+1e-12)+slack {
			return false
		}
	}
	for c, a := range act {
		beta[a] = x[c]
	}
	copy(g, h)
	return true
}
