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
	// act lists the active coordinates in the order of the rows of the
	// Cholesky factor L of V_AA, which is updated, not recomputed, as
	// coordinates enter (a new row) and leave (Givens rotations).
	act := s.act[:0]
	defer func() { s.act = act[:0] }()
	if cap(s.va) < m*m {
		s.va = make([]float64, m*m)
	}
	f := cholFactor{l: s.va[:m*m], stride: m}
	col := s.z[:m]
	push := func(a int) bool {
		row := w[idx[a]*n:]
		for c, b := range act {
			col[c] = row[idx[b]]
		}
		if !f.add(col[:len(act)], row[idx[a]]) {
			return false
		}
		act = append(act, a)
		return true
	}
	theta := s.theta[:m]
	for a, bb := range beta {
		theta[a] = math.Copysign(1, bb)
		if bb != 0 && (len(act) >= fsMax || !push(a)) {
			return false
		}
	}
	single := false
	var added []int
	for step := 0; step < 4*m+20; step++ {
		// Optimality: active u_a − g_a = r_a θ_a, inactive |u_a − g_a| ≤ r_a.
		activeOK := true
		for _, a := range act {
			if beta[a] == 0 || math.Abs(u[a]-g[a]-r[a]*theta[a]) > tol {
				activeOK = false
				break
			}
		}
		added = added[:0]
		if activeOK {
			// Add every violating coordinate at once (or only the worst
			// after a batch went wrong), with the sign that reduces the
			// objective.
			worst, wv := -1, tol
			for a := range idx {
				if beta[a] != 0 {
					continue
				}
				v := math.Abs(u[a]-g[a]) - r[a]
				if v > tol && !single {
					added = append(added, a)
				}
				if v > wv {
					worst, wv = a, v
				}
			}
			if worst < 0 {
				return true
			}
			if single {
				added = append(added[:0], worst)
			}
			if len(act)+len(added) > fsMax {
				return false
			}
			for _, a := range added {
				theta[a] = math.Copysign(1, u[a]-g[a])
				if !push(a) {
					return false
				}
			}
		}
		p := len(act)
		// x_A = V_AA⁻¹ (u_A − r_A θ_A).
		x := s.x[:p]
		for c, a := range act {
			x[c] = u[a] - r[a]*theta[a]
		}
		f.solve(x)
		if len(added) > 1 {
			// A batch is only safe if every added coordinate moves in its
			// chosen direction; otherwise drop the batch (the last rows of
			// L) and add singly.
			bad := false
			for c := p - len(added); c < p; c++ {
				if x[c]*theta[act[c]] < 0 {
					bad = true
					break
				}
			}
			if bad {
				single = true
				act = act[:p-len(added)]
				f.p = len(act)
				continue
			}
		}
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
		obj := func(t float64) float64 {
			v := t*lin + 0.5*t*t*quad
			for c, a := range act {
				v += r[a] * math.Abs(beta[a]+t*(x[c]-beta[a]))
			}
			return v
		}
		bestT, bestF := 1.0, obj(1)
		for c, a := range act {
			if b := beta[a]; b != 0 && x[c]*b < 0 {
				t := b / (b - x[c])
				if ft := obj(t); ft < bestF {
					bestT, bestF = t, ft
				}
			}
		}
		for c, a := range act {
			b := beta[a]
			nb := b + bestT*(x[c]-b)
			if bestT < 1 && b != 0 && x[c]*b < 0 && bestT == b/(b-x[c]) {
				nb = 0
			}
			beta[a] = nb
			if nb != 0 {
				theta[a] = math.Copysign(1, nb)
			}
		}
		for c := len(act) - 1; c >= 0; c-- {
			if beta[act[c]] == 0 {
				f.remove(c)
				act = append(act[:c], act[c+1:]...)
			}
		}
		s.gradient(j)
	}
	return false
}

// cholFactor is a lower-triangular Cholesky factor L (row-major, given
// stride) of a p×p block that grows by one row and shrinks by any row.
type cholFactor struct {
	l      []float64
	stride int
	p      int
}

// add appends the variable whose covariances with the current ones are v
// (length p) and whose variance is d: the new row solves L ℓ = v and ends
// in √(d − ℓᵀℓ). It reports false, leaving L unchanged, if that is not
// positive.
func (f *cholFactor) add(v []float64, d float64) bool {
	S, p := f.stride, f.p
	row := f.l[p*S : p*S+p+1]
	for i := 0; i < p; i++ {
		x := v[i]
		li := f.l[i*S : i*S+i]
		for k, y := range li {
			x -= y * row[k]
		}
		row[i] = x / f.l[i*S+i]
	}
	for _, y := range row[:p] {
		d -= y * y
	}
	if !(d > 0) {
		return false
	}
	row[p] = math.Sqrt(d)
	f.p++
	return true
}

// remove deletes row and column c of the factored matrix: drop row c of L,
// then restore the triangle with Givens rotations of columns (i, i+1),
// which leave LLᵀ unchanged.
func (f *cholFactor) remove(c int) {
	S, p := f.stride, f.p
	l := f.l
	for i := c; i < p-1; i++ {
		copy(l[i*S:i*S+i+2], l[(i+1)*S:(i+1)*S+i+2])
	}
	for i := c; i < p-1; i++ {
		a, b := l[i*S+i], l[i*S+i+1]
		h := math.Hypot(a, b)
		cs, sn := a/h, b/h
		for k := i; k < p-1; k++ {
			x, y := l[k*S+i], l[k*S+i+1]
			l[k*S+i] = cs*x + sn*y
			l[k*S+i+1] = -sn*x + cs*y
		}
	}
	f.p--
}

// solve overwrites b with (LLᵀ)⁻¹ b.
func (f *cholFactor) solve(b []float64) {
	S, p := f.stride, f.p
	l := f.l
	for i := 0; i < p; i++ {
		v := b[i]
		for k, x := range l[i*S : i*S+i] {
			v -= x * b[k]
		}
		b[i] = v / l[i*S+i]
	}
	for i := p - 1; i >= 0; i-- {
		v := b[i]
		for k := i + 1; k < p; k++ {
			v -= l[k*S+i] * b[k]
		}
		b[i] = v / l[i*S+i]
	}
}
