package sdp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"

	"github.com/dimredbook/book/dimred/internal/vec"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Settings controls Solve. The zero value (or a nil *Settings) uses the
// documented defaults.
type Settings struct {
	// Tol is the relative tolerance of the stopping rule (primal and dual
	// infeasibility and duality gap); zero means 1e-7.
	Tol float64
	// MaxIter is the maximum number of interior-point iterations; zero
	// means 100.
	MaxIter int
	// Monitor, if not nil, is called at the start of every iteration with
	// the iteration number (from 0) and the relative duality gap of the
	// current iterate; returning true stops the solver, which then returns
	// the current iterate and an error wrapping ErrNotConverged (unless the
	// iterate already meets the tolerances).
	Monitor func(iter int, gap float64) bool
	// Penalty, if positive, softens every constraint with nonnegative
	// elastic variables u, v charged Penalty·(u + v) in the objective
	// (⟨A_k, X⟩ + u_k − v_k = b_k, ⟨G_l, X⟩ + s_l − v_l = h_l): the ℓ1 exact
	// penalty. The softened problem always has a strictly feasible primal
	// and bounds the multipliers by |y_k| ≤ Penalty, which keeps the method
	// well conditioned on problems with no strictly feasible point (such as
	// MVU on graphs with rigid cliques). Its solution solves the original
	// problem when Penalty exceeds the multipliers of some dual optimum;
	// Result.Violation reports how far it is from that. Zero means hard
	// constraints.
	Penalty float64
	// Workers is the number of goroutines that assemble the Schur
	// complement; zero means runtime.GOMAXPROCS(0).
	Workers int
	// Context, if not nil, is the caller's: the solver checks it before
	// every iteration and between its dense steps (each one O(n³) or
	// O(m³) operation: Z⁻¹, the Schur complement and its factor, each
	// direction and step length), and
	// returns an error wrapping its Err() (and no solution) once it is
	// done; it reports the iterations, of MaxIter, as the progress phase
	// "semidefinite programme".
	Context context.Context
}

func (s *Settings) defaults() Settings {
	var d Settings
	if s != nil {
		d = *s
	}
	if d.Tol <= 0 {
		d.Tol = 1e-7
	}
	if d.MaxIter <= 0 {
		d.MaxIter = 100
	}
	if d.Workers <= 0 {
		d.Workers = runtime.GOMAXPROCS(0)
	}
	return d
}

// Result reports the state of the last iterate.
type Result struct {
	Iter         int     // interior-point iterations taken
	PrimalObj    float64 // ⟨C, X⟩
	DualObj      float64 // bᵀy + hᵀw
	Gap          float64 // relative duality gap, max(|pobj − dobj|, ⟨X,Z⟩ + sᵀz) / (1 + |pobj| + |dobj|)
	PrimalInfeas float64 // ‖b − A(X) − s‖₂ / (1 + ‖b‖₂)
	DualInfeas   float64 // ‖C − Z − Aᵀ(y)‖_F / (1 + ‖C‖_F)
	// Violation is max_k |e_k| / (1 + |b_k|) over the net elastic variables
	// of Settings.Penalty (zero without a penalty).
	Violation float64
}

// Solution is the primal–dual pair found by Solve.
type Solution struct {
	X     *mat.SymDense // primal n×n, X ⪰ 0
	Z     *mat.SymDense // dual slack n×n, Z = C − Σ y_k A_k − Σ w_l G_l ⪰ 0
	Y     []float64     // multipliers of the equalities, length m
	W     []float64     // multipliers of the inequalities (≤ 0), length p
	Slack []float64     // h − G(X) ≥ 0, length p
	Result
}

// Solve solves the SDP p by the interior-point method described on the
// package. It returns the solution and nil when the stopping rule holds. When
// MaxIter is reached, the Monitor asks to stop or progress stalls, it returns
// the last iterate together with an error wrapping ErrNotConverged. NaN or Inf
// data give ErrNaN and detected infeasibility ErrInfeasible or ErrUnbounded,
// with a nil solution; a breakdown of the linear algebra gives ErrNumerical
// together with the last iterate (check its Result before using it).
// Indices out of range, N < 1 or mismatched lengths panic.
func Solve(p *Problem, s *Settings) (*Solution, error) {
	set := s.defaults()
	n := p.N
	if n < 1 {
		panic("sdp: Problem.N < 1")
	}
	if len(p.A) != len(p.B) || len(p.G) != len(p.H) {
		panic("sdp: len(A) != len(B) or len(G) != len(H)")
	}
	for k, v := range p.B {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: B[%d] = %v", ErrNaN, k, v)
		}
	}
	for k, v := range p.H {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: H[%d] = %v", ErrNaN, k, v)
		}
	}
	denseMin := 4*n + 16
	cm, err := build(p.C, n, "C", 0)
	if err != nil {
		return nil, err
	}
	meq, ns := len(p.A), len(p.G)
	m := meq + ns
	cons := make([]*spmat, m)
	for k := range p.A {
		if cons[k], err = build(p.A[k], n, fmt.Sprintf("A[%d]", k), denseMin); err != nil {
			return nil, err
		}
	}
	for l := range p.G {
		if cons[meq+l], err = build(p.G[l], n, fmt.Sprintf("G[%d]", l), denseMin); err != nil {
			return nil, err
		}
	}
	b := make([]float64, m)
	copy(b, p.B)
	copy(b[meq:], p.H)
	return solve(n, cm, cons, b, meq, set)
}

// solve runs the interior-point method on validated data: the objective c
// (with its dense form), constraints cons (equalities first, then meq..m−1
// inequalities) and right-hand sides b.
func solve(n int, cm *spmat, cons []*spmat, b []float64, meq int, set Settings) (*Solution, error) {
	m := len(cons)
	ns := m - meq
	sv := &solver{n: n, m: m, meq: meq, ns: ns, cons: cons, b: b, c: cm.dense, cnorm: cm.norm, set: set}
	// Nonnegative scalar variables: the slacks of the inequalities, then
	// (with a penalty) the elastic variables of every row.
	for l := 0; l < ns; l++ {
		sv.lpRow = append(sv.lpRow, meq+l)
		sv.lpA = append(sv.lpA, 1)
		sv.lpC = append(sv.lpC, 0)
	}
	if rho := set.Penalty; rho > 0 {
		for k := 0; k < m; k++ {
			if k < meq {
				sv.lpRow = append(sv.lpRow, k)
				sv.lpA = append(sv.lpA, 1)
				sv.lpC = append(sv.lpC, rho)
			}
			sv.lpRow = append(sv.lpRow, k)
			sv.lpA = append(sv.lpA, -1)
			sv.lpC = append(sv.lpC, rho)
		}
	}
	sv.nl = len(sv.lpRow)
	if set.Context != nil {
		ph, err := progress.Start(set.Context, "semidefinite programme", set.MaxIter)
		if err != nil {
			return nil, err
		}
		sv.ph = ph
	}
	sv.allPairs = m > 0
	for _, a := range cons {
		sv.allPairs = sv.allPairs && a.pair && a.dense == nil
	}
	return sv.run()
}

type solver struct {
	n, m, meq, ns int
	nl            int // scalar variables (slacks, elastic variables)
	lpRow         []int
	lpA, lpC      []float64
	cons          []*spmat
	b             []float64
	c             []float64 // n×n dense objective
	cnorm         float64
	set           Settings

	x, z, zi []float64 // X, Z, Z⁻¹ (n×n row major)
	lxi, lzi []float64 // L⁻¹ for X = L Lᵀ and for Z (lower triangular, n×n)
	ltmp     []float64 // n×n scratch of invChol and maxStep
	y        []float64 // m
	s, zs    []float64 // scalar variables and their duals, nl

	rp, rd, rds []float64 // residuals
	xrdzi       []float64 // X Rd Z⁻¹
	// dualFeas records a full dual step taken (α_d = 1) on a programme of
	// distance pairs: from then on Rd = 0 in exact arithmetic (each step
	// scales it by 1 − α_d), so Z is kept equal to C − Aᵀ(y) and the
	// Newton system drops Rd, making ΔZ = −Aᵀ(Δy) sparse (xsz).
	dualFeas bool
	sxt      []float64 // n×n scratch of xsz
	mfac     []float64 // Cholesky factor of the Schur complement (lower, m×m; cholLower)
	allPairs bool      // every constraint a distance pair (schurPairs)
	pu, qu   []float64 // n×m scratch of schurPairs
	res      Result
	ph       *progress.Phase // nil without a Context
}

func (sv *solver) run() (*Solution, error) {
	n, m, nl := sv.n, sv.m, sv.nl
	tol := sv.set.Tol
	// Starting point of CSDP (Borchers 1999): X = 10α I, Z = 10β I, y = 0.
	alpha, beta := 0.0, sv.cnorm
	for k, a := range sv.cons {
		alpha = math.Max(alpha, (1+math.Abs(sv.b[k]))/(1+a.norm))
		beta = math.Max(beta, a.norm)
	}
	alpha *= float64(n)
	beta = (1 + beta) / math.Sqrt(float64(n))
	sv.x = make([]float64, n*n)
	sv.z = make([]float64, n*n)
	for i := 0; i < n; i++ {
		sv.x[i*n+i] = 10 * alpha
		sv.z[i*n+i] = 10 * beta
	}
	sv.y = make([]float64, m)
	sv.s = make([]float64, nl)
	sv.zs = make([]float64, nl)
	for l := range sv.s {
		sv.s[l] = 10 * alpha
		sv.zs[l] = 10 * beta
	}
	sv.zi = make([]float64, n*n)
	sv.lxi = make([]float64, n*n)
	sv.lzi = make([]float64, n*n)
	sv.ltmp = make([]float64, n*n)
	sv.rp = make([]float64, m)
	sv.rd = make([]float64, n*n)
	sv.rds = make([]float64, nl)
	sv.xrdzi = make([]float64, n*n)
	sv.sxt = make([]float64, n*n)
	bnorm := floats.Norm(sv.b, 2)
	M := make([]float64, m*m)
	rhs := make([]float64, m)
	e := make([]float64, n*n)
	rc := make([]float64, nl)
	tmp := make([]float64, n*n)
	var pa, pc direction
	pa.alloc(n, m, nl)
	pc.alloc(n, m, nl)

	var hist []float64
	for iter := 0; ; iter++ {
		if err := sv.ph.Set(iter); err != nil {
			return nil, err
		}
		if sv.dualFeas {
			copy(sv.z, sv.c)
			for k, a := range sv.cons {
				if sv.y[k] != 0 {
					a.addTo(sv.z, n, -sv.y[k])
				}
			}
		}
		// Residuals and the stopping rule.
		for k, a := range sv.cons {
			sv.rp[k] = sv.b[k] - a.inner(sv.x, n)
		}
		for v, k := range sv.lpRow {
			sv.rp[k] -= sv.lpA[v] * sv.s[v]
		}
		for i := range sv.rd {
			sv.rd[i] = sv.c[i] - sv.z[i]
		}
		for k, a := range sv.cons {
			if sv.y[k] != 0 {
				a.addTo(sv.rd, n, -sv.y[k])
			}
		}
		for v, k := range sv.lpRow {
			sv.rds[v] = sv.lpC[v] - sv.lpA[v]*sv.y[k] - sv.zs[v]
		}
		pobj := floats.Dot(sv.c, sv.x) + floats.Dot(sv.lpC, sv.s)
		dobj := floats.Dot(sv.b, sv.y)
		comp := floats.Dot(sv.x, sv.z) + floats.Dot(sv.s, sv.zs)
		rdn := math.Hypot(floats.Norm(sv.rd, 2), floats.Norm(sv.rds, 2))
		sv.res = Result{
			Iter:         iter,
			PrimalObj:    pobj,
			DualObj:      dobj,
			Gap:          math.Max(math.Abs(pobj-dobj), comp) / (1 + math.Abs(pobj) + math.Abs(dobj)),
			PrimalInfeas: floats.Norm(sv.rp, 2) / (1 + bnorm),
			DualInfeas:   rdn / (1 + sv.cnorm),
		}
		sv.res.Violation = sv.violation()
		if !finite(pobj) || !finite(dobj) || !finite(comp) || !finite(rdn) {
			return nil, fmt.Errorf("%w: non-finite iterate at iteration %d", ErrNumerical, iter)
		}
		r := sv.res
		if r.Gap <= tol && r.PrimalInfeas <= tol && r.DualInfeas <= tol {
			return sv.solution(), nil
		}
		if sv.set.Monitor != nil && sv.set.Monitor(iter, r.Gap) {
			return sv.solution(), fmt.Errorf("%w: stopped by Monitor at iteration %d (gap %.3g, primal %.3g, dual %.3g)",
				ErrNotConverged, iter, r.Gap, r.PrimalInfeas, r.DualInfeas)
		}
		// Approximate Farkas certificates.
		if dobj > 0 && r.PrimalInfeas > tol {
			// ‖Aᵀy + Z‖ = ‖C − Rd‖ (slack columns: ‖y + z‖ = ‖rds‖).
			var ss float64
			for i := range sv.rd {
				d := sv.c[i] - sv.rd[i]
				ss += d * d
			}
			for v := range sv.rds {
				d := sv.lpC[v] - sv.rds[v]
				ss += d * d
			}
			if math.Sqrt(ss) <= tol*dobj {
				return nil, fmt.Errorf("%w: dual ray with bᵀy = %.3g at iteration %d", ErrInfeasible, dobj, iter)
			}
		}
		if pobj < 0 && r.DualInfeas > tol {
			var ss float64
			for k := range sv.rp {
				d := sv.b[k] - sv.rp[k]
				ss += d * d
			}
			if math.Sqrt(ss) <= -tol*pobj {
				return nil, fmt.Errorf("%w: primal ray with ⟨C,X⟩ = %.3g at iteration %d", ErrUnbounded, pobj, iter)
			}
		}
		// Stall: the worst of the three measures has not improved by 10%
		// in ten iterations. Typical of problems with no strictly feasible point,
		// whose dual multipliers grow without bound.
		phi := math.Max(r.Gap, math.Max(r.PrimalInfeas, r.DualInfeas))
		hist = append(hist, phi)
		if iter >= 10 && phi > 0.9*hist[iter-10] {
			return sv.solution(), fmt.Errorf("%w: %w at iteration %d (gap %.3g, primal %.3g, dual %.3g; Tol %.3g); "+
				"the problem may have no strictly feasible point (see Settings.Penalty)",
				ErrNotConverged, errStalled, iter, r.Gap, r.PrimalInfeas, r.DualInfeas, tol)
		}
		if iter >= sv.set.MaxIter {
			return sv.solution(), fmt.Errorf("%w: %d iterations (gap %.3g, primal %.3g, dual %.3g; Tol %.3g)",
				ErrNotConverged, iter, r.Gap, r.PrimalInfeas, r.DualInfeas, tol)
		}
		mu := comp / float64(n+nl)

		// Z⁻¹, X Rd Z⁻¹ and the Schur complement.
		if !sv.invertZ() {
			return sv.solution(), fmt.Errorf("%w: Z lost positive definiteness at iteration %d", ErrNumerical, iter)
		}
		if err := sv.ph.Err(); err != nil {
			return nil, err
		}
		if !sv.invChol(sv.x, sv.lxi) {
			return sv.solution(), fmt.Errorf("%w: iterate lost positive definiteness at iteration %d", ErrNumerical, iter)
		}
		if sv.dualFeas {
			clear(sv.xrdzi)
		} else {
			mulSym3(sv.xrdzi, sv.x, sv.rd, sv.zi, tmp, n, sv.set.Workers)
		}
		sv.schur(M)
		if err := sv.ph.Err(); err != nil {
			return nil, err
		}
		for v, k := range sv.lpRow {
			M[k*m+k] += sv.s[v] / sv.zs[v]
		}
		if !sv.factor(M) {
			return sv.solution(), fmt.Errorf("%w: Schur complement not positive definite at iteration %d (dependent constraints?)", ErrNumerical, iter)
		}
		if err := sv.ph.Err(); err != nil {
			return nil, err
		}

		// Predictor: σ = 0.
		for i := range e {
			e[i] = -sv.x[i]
		}
		for l := range rc {
			rc[l] = -sv.s[l] * sv.zs[l]
		}
		sv.direction(&pa, e, rc, rhs, tmp)
		if err := sv.ph.Err(); err != nil {
			return nil, err
		}
		ap, ok1 := sv.maxStep(sv.lxi, pa.dx, sv.s, pa.ds)
		if err := sv.ph.Err(); err != nil {
			return nil, err
		}
		ad, ok2 := sv.maxStep(sv.lzi, pa.dz, sv.zs, pa.dzs)
		if err := sv.ph.Err(); err != nil {
			return nil, err
		}
		if !ok1 || !ok2 {
			return sv.solution(), fmt.Errorf("%w: iterate lost positive definiteness at iteration %d", ErrNumerical, iter)
		}
		ap, ad = math.Min(1, ap), math.Min(1, ad)
		var caff float64
		for i := range sv.x {
			caff += (sv.x[i] + ap*pa.dx[i]) * (sv.z[i] + ad*pa.dz[i])
		}
		for l := range sv.s {
			caff += (sv.s[l] + ap*pa.ds[l]) * (sv.zs[l] + ad*pa.dzs[l])
		}
		muaff := caff / float64(n+nl)
		expo := math.Max(1, 3*math.Min(ap, ad)*math.Min(ap, ad))
		sigma := math.Min(1, math.Pow(math.Max(muaff, 0)/mu, expo))

		// Corrector: E = σμ Z⁻¹ − X − ΔXa ΔZa Z⁻¹.
		if sv.dualFeas {
			sv.xsz(e, pa.dx, pa.dy, tmp)
		} else {
			mulSym3(e, pa.dx, pa.dz, sv.zi, tmp, n, sv.set.Workers)
		}
		for i := range e {
			e[i] = sigma*mu*sv.zi[i] - sv.x[i] - e[i]
		}
		for l := range rc {
			rc[l] = sigma*mu - sv.s[l]*sv.zs[l] - pa.ds[l]*pa.dzs[l]
		}
		sv.direction(&pc, e, rc, rhs, tmp)
		if err := sv.ph.Err(); err != nil {
			return nil, err
		}
		ap, ok1 = sv.maxStep(sv.lxi, pc.dx, sv.s, pc.ds)
		if err := sv.ph.Err(); err != nil {
			return nil, err
		}
		ad, ok2 = sv.maxStep(sv.lzi, pc.dz, sv.zs, pc.dzs)
		if err := sv.ph.Err(); err != nil {
			return nil, err
		}
		if !ok1 || !ok2 {
			return sv.solution(), fmt.Errorf("%w: iterate lost positive definiteness at iteration %d", ErrNumerical, iter)
		}
		gamma := 0.9 + 0.09*math.Min(ap, ad)
		ap, ad = math.Min(1, gamma*ap), math.Min(1, gamma*ad)
		if ap < 1e-10 && ad < 1e-10 {
			return sv.solution(), fmt.Errorf("%w: step lengths %.3g, %.3g at iteration %d (gap %.3g, primal %.3g, dual %.3g)",
				ErrNotConverged, ap, ad, iter, r.Gap, r.PrimalInfeas, r.DualInfeas)
		}
		// The eigenvalue step rule loses accuracy when X or Z is very ill
		// conditioned near the optimum: backtrack until the new iterate
		// has a Cholesky factor.
		if ap, ok1 = sv.backtrack(sv.x, pc.dx, ap, tmp); ok1 {
			ad, ok2 = sv.backtrack(sv.z, pc.dz, ad, tmp)
		}
		if !ok1 || !ok2 {
			return sv.solution(), fmt.Errorf("%w: no positive definite step at iteration %d (gap %.3g, primal %.3g, dual %.3g)",
				ErrNumerical, iter, r.Gap, r.PrimalInfeas, r.DualInfeas)
		}
		floats.AddScaled(sv.x, ap, pc.dx)
		floats.AddScaled(sv.s, ap, pc.ds)
		floats.AddScaled(sv.y, ad, pc.dy)
		floats.AddScaled(sv.z, ad, pc.dz)
		floats.AddScaled(sv.zs, ad, pc.dzs)
		if ad == 1 && sv.allPairs {
			sv.dualFeas = true
		}
		symmetrise(sv.x, n)
		symmetrise(sv.z, n)
	}
}

// backtrack shrinks α by 0.8 until X + αΔX has a Cholesky factor (at most
// 40 times); false if none is found.
func (sv *solver) backtrack(x, dx []float64, alpha float64, tmp []float64) (float64, bool) {
	n := sv.n
	for try := 0; try < 40; try++ {
		for i := range tmp {
			tmp[i] = x[i] + alpha*dx[i]
		}
		if cholLower(n, tmp, sv.set.Workers) {
			return alpha, true
		}
		alpha *= 0.8
	}
	return 0, false
}

// errStalled marks a stop for lack of progress (as opposed to MaxIter or
// the Monitor); MVU retries such solves on a smaller face.
var errStalled = errors.New("stalled")

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

type direction struct {
	dx, dz, dy, ds, dzs []float64
}

func (d *direction) alloc(n, m, nl int) {
	d.dx = make([]float64, n*n)
	d.dz = make([]float64, n*n)
	d.dy = make([]float64, m)
	d.ds = make([]float64, nl)
	d.dzs = make([]float64, nl)
}

// direction solves the HKM Newton system for the complementarity right-hand
// side given by E = R_c Z⁻¹ (SDP block) and rc (slacks):
//
//	M Δy = rp − A(E) + A(X Rd Z⁻¹) − (rc − s∘rds)/z on slack rows,
//	ΔZ = Rd − Aᵀ(Δy),  ΔX = sym(E − X ΔZ Z⁻¹),
//	Δz = rds − Δy_slack,  Δs = (rc − s∘Δz)/z.
func (sv *solver) direction(d *direction, e, rc, rhs, tmp []float64) {
	n := sv.n
	for k, a := range sv.cons {
		rhs[k] = sv.rp[k] - a.inner(e, n) + a.inner(sv.xrdzi, n)
	}
	for v, k := range sv.lpRow {
		rhs[k] -= sv.lpA[v] * (rc[v] - sv.s[v]*sv.rds[v]) / sv.zs[v]
	}
	copy(d.dy, rhs)
	cholSolve(sv.m, sv.mfac, d.dy)
	if sv.dualFeas {
		clear(d.dz)
	} else {
		copy(d.dz, sv.rd)
	}
	for k, a := range sv.cons {
		if d.dy[k] != 0 {
			a.addTo(d.dz, n, -d.dy[k])
		}
	}
	if sv.dualFeas {
		sv.xsz(d.dx, sv.x, d.dy, tmp)
	} else {
		mulSym3(d.dx, sv.x, d.dz, sv.zi, tmp, n, sv.set.Workers)
	}
	for i := range d.dx {
		d.dx[i] = e[i] - d.dx[i]
	}
	symmetrise(d.dx, n)
	for v, k := range sv.lpRow {
		d.dzs[v] = sv.rds[v] - sv.lpA[v]*d.dy[k]
		d.ds[v] = (rc[v] - sv.s[v]*d.dzs[v]) / sv.zs[v]
	}
}

func symmetrise(a []float64, n int) {
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			v := 0.5 * (a[i*n+j] + a[j*n+i])
			a[i*n+j], a[j*n+i] = v, v
		}
	}
}

// invertZ sets sv.lzi = L⁻¹ for Z = L Lᵀ and sv.zi = Z⁻¹ = L⁻ᵀ L⁻¹; false
// if Z is not positive definite. Z tends to a singular matrix near the
// optimum; its inverse is needed regardless, so no condition estimate is
// made.
func (sv *solver) invertZ() bool {
	n := sv.n
	if !sv.invChol(sv.z, sv.lzi) {
		return false
	}
	// Z⁻¹ = V Vᵀ with V = L⁻ᵀ (upper triangular; row i of V is column i of L⁻¹).
	v := sv.ltmp
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v[i*n+j] = sv.lzi[j*n+i]
		}
	}
	gramUpper(sv.zi, v, n, sv.set.Workers)
	return true
}

// invChol sets li = L⁻¹ (lower triangular, zero above the diagonal) for
// the Cholesky factor of a = L Lᵀ; false if a is not numerically positive
// definite. Row i of L⁻¹ is (e_i − Σ_{k<i} L_ik (L⁻¹)_k·) / L_ii.
func (sv *solver) invChol(a, li []float64) bool {
	n := sv.n
	l := sv.ltmp
	copy(l, a)
	if !cholLower(n, l, sv.set.Workers) {
		return false
	}
	clear(li)
	for i := 0; i < n; i++ {
		ri := li[i*n : i*n+i+1]
		for k := 0; k < i; k++ {
			if c := l[i*n+k]; c != 0 {
				vec.Axpy(ri[:k+1], -c, li[k*n:k*n+k+1])
			}
		}
		ri[i] += 1
		d := 1 / l[i*n+i]
		for k := range ri {
			ri[k] *= d
		}
	}
	return true
}

// factor factors the Schur complement (upper triangle of M) into
// sv.mfac = L with M = L Lᵀ (cholLower), adding a growing multiple of its
// largest diagonal entry if it is numerically indefinite (dependent or
// nearly dependent constraints).
func (sv *solver) factor(M []float64) bool {
	m := sv.m
	var dmax float64
	for i := 0; i < m; i++ {
		dmax = math.Max(dmax, M[i*m+i])
	}
	if !(dmax > 0) || !finite(dmax) {
		return false
	}
	if sv.mfac == nil {
		sv.mfac = make([]float64, m*m)
	}
	// The lower triangle of mfac from the upper one of M (from the lower
	// one after schurPairs).
	load := func(delta float64) {
		for i := 0; i < m; i++ {
			row := sv.mfac[i*m : i*m+i+1]
			if sv.allPairs {
				copy(row, M[i*m:i*m+i+1])
			} else {
				for j := range row {
					row[j] = M[j*m+i]
				}
			}
			row[i] += delta
		}
	}
	load(0)
	if cholLower(m, sv.mfac, sv.set.Workers) {
		return true
	}
	for delta := 1e-14 * dmax; delta <= 1e-6*dmax; delta *= 100 {
		load(delta)
		if cholLower(m, sv.mfac, sv.set.Workers) {
			return true
		}
	}
	return false
}

// maxStep returns the largest α with X + αΔX ⪰ 0 and s + αΔs ≥ 0 (+Inf if
// unbounded), from the smallest eigenvalue of W = L⁻¹ ΔX L⁻ᵀ (minEig) with
// X = L Lᵀ and li = L⁻¹ (invChol); false if the eigenvalues fail.
func (sv *solver) maxStep(li, dx, s, ds []float64) (float64, bool) {
	n := sv.n
	step := math.Inf(1)
	for l := range s {
		if ds[l] < 0 {
			step = math.Min(step, -s[l]/ds[l])
		}
	}
	// W = (L⁻¹ ΔX) L⁻ᵀ: ΔX is symmetric, so both are A·Bᵀ products.
	w := make([]float64, n*n)
	congruence(w, li, dx, sv.ltmp, n, sv.set.Workers)
	lmin, ok := minEig(n, w)
	if !ok {
		return 0, false
	}
	if lmin < 0 {
		step = math.Min(step, -1/lmin)
	}
	return step, true
}

func (sv *solver) solution() *Solution {
	n, meq := sv.n, sv.meq
	sol := &Solution{
		X:      mat.NewSymDense(n, append([]float64(nil), sv.x...)),
		Z:      mat.NewSymDense(n, append([]float64(nil), sv.z...)),
		Y:      append([]float64(nil), sv.y[:meq]...),
		W:      append([]float64(nil), sv.y[meq:]...),
		Slack:  append([]float64(nil), sv.s[:sv.ns]...),
		Result: sv.res,
	}
	return sol
}

// violation returns max_k |e_k| / (1 + |b_k|) over the net elastic
// variables e_k (u_k − v_k for an equality, −v_k for an inequality): how far
// the penalised problem's X is from satisfying the hard constraints.
func (sv *solver) violation() float64 {
	if sv.nl == sv.ns {
		return 0
	}
	viol := make([]float64, sv.m)
	for v := sv.ns; v < sv.nl; v++ {
		viol[sv.lpRow[v]] += sv.lpA[v] * sv.s[v]
	}
	var worst float64
	for k, e := range viol {
		worst = math.Max(worst, math.Abs(e)/(1+math.Abs(sv.b[k])))
	}
	return worst
}

// xsz sets dst = X S Z⁻¹ for symmetric X and the sparse S = −Σ_k dy_k A_k
// of distance-pair constraints (sv.allPairs; S = ΔZ once the iterate is
// dual feasible): S X is formed row by row, each pair adding ±(X_a· − X_b·)
// to rows a and b (4mn flops instead of 2n³), and X S Z⁻¹ = (S X)ᵀ Z⁻¹ by
// one product. tmp is n×n scratch.
func (sv *solver) xsz(dst, x, dy, tmp []float64) {
	n := sv.n
	sx := tmp
	clear(sx)
	for k, c := range sv.cons {
		coef := -dy[k] * c.pv
		if coef == 0 {
			continue
		}
		ra, xa := sx[c.pa*n:(c.pa+1)*n], x[c.pa*n:(c.pa+1)*n]
		vec.Axpy(ra, coef, xa)
		if c.pb < 0 {
			continue
		}
		rb, xb := sx[c.pb*n:(c.pb+1)*n], x[c.pb*n:(c.pb+1)*n]
		vec.Axpy(ra, -coef, xb)
		vec.Axpy(rb, -coef, xa)
		vec.Axpy(rb, coef, xb)
	}
	t := sv.sxt
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			t[j*n+i] = sx[i*n+j]
		}
	}
	w := sv.set.Workers
	if n*n*n < 1<<15 {
		w = 1
	}
	parallelRows(n, w, func(lo, hi int) {
		vec.GemmNT(hi-lo, n, n, 1, t[lo*n:], n, sv.zi, n, 0, dst[lo*n:], n)
	})
}
