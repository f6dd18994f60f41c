package dimred

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"
	"github.com/dimredbook/book/dimred/neighbours"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// mvuArc returns n points on a half circle of radius 1 (angle 0…π) in the
// first two of p coordinates plus N(0, σ²) noise in all p: a curve whose
// PCA needs two components but whose unfolding needs one. Noise in more
// dimensions than a neighbourhood has points keeps the programme strictly
// feasible.
func mvuArc(n, p int, sigma float64, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 17))
	Y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		a := math.Pi * float64(i) / float64(n-1)
		for c := 0; c < p; c++ {
			Y.Set(i, c, sigma*rnd.NormFloat64())
		}
		Y.Set(i, 0, Y.At(i, 0)+math.Cos(a))
		Y.Set(i, 1, Y.At(i, 1)+math.Sin(a))
	}
	return Y
}

// mvuDelta returns δ_ij = k_ii − 2k_ij + k_jj.
func mvuDelta(K mat.Symmetric, i, j int) float64 {
	return K.At(i, i) - 2*K.At(i, j) + K.At(j, j)
}

// mvuCheckOptimum checks the certificate of an MVU fit: converged, the
// duality gap and infeasibilities at most Tol, every distance constraint
// holding to the tolerance the stopping rule implies (recomputed from K
// here, not taken from the report), K centred and positive semidefinite,
// and tr K equal to the reported objective and the sum of eigenvalues.
func mvuCheckOptimum(t *testing.T, m *MVU, tol float64) {
	t.Helper()
	r := m.SDPReport()
	if !r.Converged {
		t.Fatalf("not converged: %+v", r)
	}
	if r.Gap > tol || r.PrimalInfeas > tol || r.DualInfeas > tol {
		t.Errorf("gap %.3g, primal %.3g, dual %.3g; want ≤ %g", r.Gap, r.PrimalInfeas, r.DualInfeas, tol)
	}
	var K mat.SymDense
	m.KernelTo(&K)
	n := K.SymmetricDim()
	cons := m.Constraints()
	if len(cons) != r.Constraints {
		t.Errorf("%d constraints, report says %d", len(cons), r.Constraints)
	}
	// The stopping rule bounds ‖b − A(K)‖₂ ≤ Tol (1 + ‖b‖₂) in units of
	// the mean squared distance d̄², so each constraint holds to that.
	var mean, bnorm float64
	for _, c := range cons {
		mean += c.D2
	}
	mean /= float64(len(cons))
	for _, c := range cons {
		bnorm += (c.D2 / mean) * (c.D2 / mean)
	}
	bound := tol * (1 + math.Sqrt(bnorm)) * mean
	var worst float64
	for _, c := range cons {
		d := mvuDelta(&K, c.I, c.J) - c.D2
		if m.Inequality {
			d = math.Max(d, 0)
		}
		worst = math.Max(worst, math.Abs(d))
	}
	if worst > bound {
		t.Errorf("worst constraint violation %.3g > %.3g", worst, bound)
	}
	if math.Abs(worst/mean-r.MaxViolation) > 1e-12*(1+r.MaxViolation) {
		t.Errorf("report MaxViolation %.6g, recomputed %.6g", r.MaxViolation, worst/mean)
	}
	// Centred: Σ_ij k_ij = 0 to round-off relative to tr K.
	tr := mat.Trace(&K)
	var sum float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			sum += K.At(i, j)
		}
	}
	if math.Abs(sum) > 1e-8*tr*float64(n) {
		t.Errorf("Σ k_ij = %.3g, tr K = %.3g", sum, tr)
	}
	vals := m.EigenvaluesTo(nil)
	if vals[n-1] < -1e-8*vals[0] {
		t.Errorf("K has eigenvalue %.3g < 0 (λ₁ = %.3g)", vals[n-1], vals[0])
	}
	if math.Abs(floats.Sum(vals)-tr) > 1e-9*tr {
		t.Errorf("Σλ = %.10g, tr K = %.10g", floats.Sum(vals), tr)
	}
	if math.Abs(r.Objective-tr) > 10*tol*(1+tr) {
		t.Errorf("reported objective %.10g, tr K %.10g", r.Objective, tr)
	}
}

// With every pair a neighbour (K = n − 1) the constraints fix every
// distance, so K is the centred Gram matrix ŶŶᵀ and MVU is principal
// coordinates analysis (the spectral paper §2.5): same latent positions up
// to the sign of each column. With p ≥ n − 1 that K has full rank n − 1 in
// the centred subspace, a strictly feasible point; with p = 3 < n − 1 the
// whole graph is one affinely dependent clique and the solver's face
// reduction is exercised.
func TestMVUAllPairsIsPrincipalCoordinates(t *testing.T) {
	for _, c := range []struct {
		n, p int
		tol  float64 // on latent positions, relative to max |X|
	}{
		{10, 12, 1e-5},
		{16, 20, 1e-5},
		{12, 3, 1e-5},
	} {
		Y := testutil.GaussianData(c.n, c.p, uint64(c.n))
		m := &MVU{Q: 3, K: c.n - 1}
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		mvuCheckOptimum(t, m, 1e-7)
		if got, want := m.SDPReport().Constraints, c.n*(c.n-1)/2; got != want {
			t.Errorf("n = %d: %d constraints, want all %d pairs", c.n, got, want)
		}
		var X, P mat.Dense
		m.LatentTo(&X)
		pc := &PrincipalCoordinates{Q: 3, NoScale: true}
		if err := pc.Fit(Y); err != nil {
			t.Fatal(err)
		}
		pc.LatentTo(&P)
		scale := mat.Norm(&P, math.Inf(1))
		for col := 0; col < 3; col++ {
			s := 1.0
			if floats.Dot(mat.Col(nil, col, &X), mat.Col(nil, col, &P)) < 0 {
				s = -1
			}
			for i := 0; i < c.n; i++ {
				if d := math.Abs(s*X.At(i, col) - P.At(i, col)); d > c.tol*scale {
					t.Errorf("n = %d: X[%d,%d] = %.8g, principal coordinates %.8g", c.n, i, col, s*X.At(i, col), P.At(i, col))
				}
			}
		}
		// K itself is ŶŶᵀ.
		var K mat.SymDense
		m.KernelTo(&K)
		Yc := mat.DenseCopyOf(Y)
		for j := 0; j < c.p; j++ {
			col := mat.Col(nil, j, Yc)
			mu := floats.Sum(col) / float64(c.n)
			for i := range col {
				Yc.Set(i, j, col[i]-mu)
			}
		}
		var G mat.Dense
		G.Mul(Yc, Yc.T())
		if d := testutil.MaxAbsDiff(&K, &G); d > 1e-5*mat.Trace(&K)/float64(c.n) {
			t.Errorf("n = %d: max |K − ŶŶᵀ| = %.3g", c.n, d)
		}
	}
}

// A noisy half circle unfolds: the top eigenvalue of K carries almost all
// of tr K, where PCA needs two components, and the unfolded curve is
// longer than its chord. Also the constraints and the gap at the optimum.
func TestMVUUnfoldsCurve(t *testing.T) {
	Y := mvuArc(40, 10, 0.01, 3)
	pca := &PCA{Q: 2}
	if err := pca.Fit(Y); err != nil {
		t.Fatal(err)
	}
	pv := pca.EigenvaluesTo(nil)
	m := &MVU{Q: 2, K: 4}
	if err := m.Fit(Y); err != nil {
		t.Fatal(err)
	}
	mvuCheckOptimum(t, m, 1e-7)
	vals := m.EigenvaluesTo(nil)
	share := vals[0] / floats.Sum(vals)
	// PCA of the half circle: variances 1/2 ± (sin stuff) — the second
	// component carries about a fifth.
	if pv[1]/pv[0] < 0.15 {
		t.Errorf("test data not curved enough: PCA λ₂/λ₁ = %.3f", pv[1]/pv[0])
	}
	if share < 0.97 {
		t.Errorf("MVU top eigenvalue share %.4f, want ≥ 0.97 (unfolded)", share)
	}
	// The first latent coordinate orders the points along the arc.
	var X mat.Dense
	m.LatentTo(&X)
	x := mat.Col(nil, 0, &X)
	up, down := 0, 0
	for i := 1; i < len(x); i++ {
		if x[i] > x[i-1] {
			up++
		} else {
			down++
		}
	}
	if up != len(x)-1 && down != len(x)-1 {
		t.Errorf("first coordinate not monotone along the arc: %d up, %d down", up, down)
	}
	// Unrolled length ≈ arc length π (> chord 2).
	if span := math.Abs(x[len(x)-1] - x[0]); span < 2.9 || span > 3.3 {
		t.Errorf("unfolded span %.3f, arc length π ≈ 3.14", span)
	}
}

// Relaxing the equalities to upper bounds can only enlarge the feasible
// set, so tr K can only grow; Shared adds constraints, so tr K can only
// shrink, and every shared pair's distance is kept.
func TestMVUVariants(t *testing.T) {
	Y := mvuArc(30, 8, 0.05, 5)
	fit := func(m *MVU) *MVU {
		t.Helper()
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		mvuCheckOptimum(t, m, 1e-7)
		return m
	}
	eq := fit(&MVU{Q: 2, K: 4})
	ineq := fit(&MVU{Q: 2, K: 4, Inequality: true})
	sh := fit(&MVU{Q: 2, K: 4, Shared: true})
	te, ti, ts := eq.SDPReport().Objective, ineq.SDPReport().Objective, sh.SDPReport().Objective
	if ti < te*(1-1e-6) {
		t.Errorf("inequality tr K %.8g < equality %.8g", ti, te)
	}
	if ts > te*(1+1e-6) {
		t.Errorf("shared-neighbour tr K %.8g > plain %.8g", ts, te)
	}
	ne, ns := eq.SDPReport().Constraints, sh.SDPReport().Constraints
	if ns <= ne {
		t.Errorf("Shared gave %d constraints, plain %d", ns, ne)
	}
	// Every shared pair does share a neighbour in the graph.
	g := sh.Graph()
	nshared := 0
	for _, c := range sh.Constraints() {
		if !c.Shared {
			if g.At(c.I, c.J) == 0 {
				t.Errorf("edge constraint (%d,%d) not in the graph", c.I, c.J)
			}
			continue
		}
		nshared++
		ci, _ := g.Row(c.I)
		cj, _ := g.Row(c.J)
		common := false
		for _, a := range ci {
			for _, b := range cj {
				common = common || a == b
			}
		}
		if !common || g.At(c.I, c.J) != 0 {
			t.Errorf("shared pair (%d,%d): common neighbour %v, edge %v", c.I, c.J, common, g.At(c.I, c.J))
		}
	}
	if nshared != ns-ne {
		t.Errorf("%d shared pairs, want %d", nshared, ns-ne)
	}
}

// A graph with two components leaves the programme unbounded: Fit returns
// ErrDisconnected before solving, and the model stays unfitted. NaN data:
// ErrNaN.
func TestMVUErrors(t *testing.T) {
	Y := mat.NewDense(12, 3, nil)
	for i := 0; i < 12; i++ {
		off := 0.0
		if i >= 6 {
			off = 100
		}
		Y.Set(i, 0, off+float64(i%6))
		Y.Set(i, 1, 0.1*float64(i*i%7))
		Y.Set(i, 2, 0.1*float64(i*i%5))
	}
	m := &MVU{Q: 2, K: 3}
	err := m.Fit(Y)
	if !errors.Is(err, ErrDisconnected) {
		t.Fatalf("got %v, want ErrDisconnected", err)
	}
	var de *neighbours.DisconnectedError
	if !errors.As(err, &de) {
		t.Errorf("error %v does not carry a *neighbours.DisconnectedError", err)
	}
	mustPanic(t, "LatentTo after failed Fit", func() { m.LatentTo(nil) })

	Y.Set(3, 1, math.NaN())
	if err := m.Fit(Y); !errors.Is(err, ErrNaN) {
		t.Errorf("NaN: got %v, want ErrNaN", err)
	}
	if err := m.Fit(mat.NewDense(1, 3, nil)); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("one point: got %v, want ErrTooFewPoints", err)
	}
	// K ≥ n is a property of the data size: ErrTooFewPoints, as in LLE
	// (TestNeighbourCountTooLarge covers every neighbourhood method).
	if err := (&MVU{Q: 2, K: 12}).Fit(mvuArc(12, 3, 0.1, 1)); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("K = n: got %v, want ErrTooFewPoints", err)
	}
	// Q > n is a property of the data size (package doc): an error.
	if err := (&MVU{K: 3, Q: 13}).Fit(mvuArc(12, 3, 0.1, 1)); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("Q > n: err = %v, want ErrTooFewPoints", err)
	}
	// Overflowing squared distances with finite data.
	big := mvuArc(12, 3, 0.1, 1)
	big.Scale(1e200, big)
	if err := (&MVU{Q: 2, K: 3}).Fit(big); !errors.Is(err, ErrOverflow) {
		t.Errorf("1e200 data: got %v, want ErrOverflow", err)
	}
}

// The stall policy: an SDP cut short by MaxIter keeps its last iterate —
// the model is fitted — and Fit returns ErrNotConverged naming the gap. A
// Monitor that stops the solver counts as converged.
func TestMVUNotConverged(t *testing.T) {
	Y := mvuArc(30, 8, 0.05, 5)
	m := &MVU{Q: 2, K: 4, MaxIter: 3}
	err := m.Fit(Y)
	if !errors.Is(err, ErrNotConverged) {
		t.Fatalf("MaxIter 3: got %v, want ErrNotConverged", err)
	}
	r := m.SDPReport()
	if r.Converged || r.Iter != 3 || r.Gap <= 1e-7 {
		t.Errorf("report after 3 iterations: %+v", r)
	}
	var X mat.Dense
	m.LatentTo(&X) // fitted: must not panic
	if X.At(0, 0) == 0 && X.At(1, 0) == 0 {
		t.Error("latent positions empty")
	}

	var gaps []float64
	mon := &MVU{Q: 2, K: 4, Monitor: func(it int, gap float64) bool {
		gaps = append(gaps, gap)
		return it == 5
	}}
	if err := mon.Fit(Y); err != nil {
		t.Fatalf("Monitor stop: %v", err)
	}
	if r := mon.SDPReport(); r.Converged || !r.Stopped || r.Iter != 5 || len(gaps) != 6 {
		t.Errorf("Monitor stop after iteration 5: report %+v, %d calls", r, len(gaps))
	}
}

// KernelTo, EigenvaluesTo and Graph follow the dst rule and return copies.
func TestMVUExtractors(t *testing.T) {
	Y := mvuArc(20, 6, 0.05, 9)
	m := &MVU{K: 4, Q: 1}
	if err := m.Fit(Y); err != nil {
		t.Fatal(err)
	}
	mustPanic(t, "KernelTo wrong size", func() { m.KernelTo(mat.NewSymDense(3, nil)) })
	mustPanic(t, "EigenvaluesTo wrong length", func() { m.EigenvaluesTo(make([]float64, 3)) })
	var K mat.SymDense
	m.KernelTo(&K)
	K.SetSym(0, 0, 1e9)
	var K2 mat.SymDense
	m.KernelTo(&K2)
	if K2.At(0, 0) == 1e9 {
		t.Error("KernelTo returned a view, not a copy")
	}
	g := m.Graph()
	g.Val[0] = -1
	if m.Graph().Val[0] == -1 {
		t.Error("Graph returned the model's own graph")
	}
	vals := m.EigenvaluesTo(nil)
	var X mat.Dense
	m.LatentTo(&X)
	// X = U Λ^{1/2}: ‖x_:,1‖² = λ₁.
	if c := mat.Col(nil, 0, &X); math.Abs(floats.Dot(c, c)-vals[0]) > 1e-9*vals[0] {
		t.Errorf("‖x₁‖² = %.10g, λ₁ = %.10g", floats.Dot(c, c), vals[0])
	}
}

// The stall policy on a genuine stall: an exact 3-D swiss roll with
// k = 6 has affinely dependent neighbourhoods (no strictly feasible
// point), the interior-point method stalls short of Tol, and the fit is
// kept — fitted model, latent positions, a report with Converged false —
// with an error wrapping ErrNotConverged. The iterate is still a good
// one: constraints hold to 1e-5 of the mean squared distance and the gap
// is small.
func TestMVUStallKeepsFit(t *testing.T) {
	Y := testutil.SwissRoll(30, 11)
	m := &MVU{Q: 2, K: 6}
	err := m.Fit(Y)
	if err == nil {
		t.Skip("this swiss roll converged (the stall depends on the solver's path)")
	}
	if !errors.Is(err, ErrNotConverged) {
		t.Fatalf("got %v, want ErrNotConverged", err)
	}
	r := m.SDPReport()
	if r.Converged || r.Gap <= 1e-7 {
		t.Errorf("report %+v should show the unmet tolerance", r)
	}
	if r.Gap > 1e-3 || r.MaxViolation > 1e-5 {
		t.Errorf("stalled iterate poor: gap %.3g, max violation %.3g", r.Gap, r.MaxViolation)
	}
	var X mat.Dense
	m.LatentTo(&X)
	if r, c := X.Dims(); r != 30 || c != 2 {
		t.Errorf("latent %d×%d", r, c)
	}
}

// A duplicated point is a neighbour at distance zero: the constraint
// x_i = x_j is kept (the two copies coincide in the embedding) and the
// programme still converges.
func TestMVUDuplicatePoint(t *testing.T) {
	Y := mvuArc(30, 8, 0.05, 5)
	for j := 0; j < 8; j++ {
		Y.Set(7, j, Y.At(8, j))
	}
	m := &MVU{Q: 2, K: 4}
	if err := m.Fit(Y); err != nil {
		t.Fatal(err)
	}
	mvuCheckOptimum(t, m, 1e-7)
	var X mat.Dense
	m.LatentTo(&X)
	vals := m.EigenvaluesTo(nil)
	if d := math.Hypot(X.At(7, 0)-X.At(8, 0), X.At(7, 1)-X.At(8, 1)); d > 1e-3*math.Sqrt(vals[0]) {
		t.Errorf("copies %.3g apart (scale %.3g)", d, math.Sqrt(vals[0]))
	}
}

// The dual Laplacian certifies the unifying view: L(w) 1 = 0, its
// smallest non-trivial eigenvalue is one, the latent coordinates are
// eigenvectors of L(w) with eigenvalue one (MVU = Laplacian eigenmaps on a
// learnt Laplacian), and Σ w d² is the dual objective.
func TestMVUDualLaplacian(t *testing.T) {
	Y := mvuArc(40, 10, 0.05, 3)
	for _, ineq := range []bool{false, true} {
		m := &MVU{Q: 2, K: 5, Inequality: ineq}
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		L := m.DualLaplacian()
		n := L.N
		if !L.IsSymmetric(0) {
			t.Error("L(w) not symmetric")
		}
		var dual float64
		for _, c := range m.Constraints() {
			dual += c.W * c.D2
			if ineq && c.W < -1e-9 {
				t.Errorf("inequality multiplier (%d,%d) = %g < 0", c.I, c.J, c.W)
			}
		}
		r := m.SDPReport()
		if math.Abs(dual-r.DualObjective) > 1e-9*r.Objective {
			t.Errorf("ineq %v: Σ w d² = %.10g, dual objective %.10g", ineq, dual, r.DualObjective)
		}
		Ld := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				Ld.SetSym(i, j, L.At(i, j))
			}
		}
		var es mat.EigenSym
		if !es.Factorize(Ld, false) {
			t.Fatal("eigen")
		}
		lv := es.Values(nil)
		if math.Abs(lv[0]) > 1e-8 || math.Abs(lv[1]-1) > 1e-5 {
			t.Errorf("ineq %v: λ₁(L(w)) = %.3g, λ₂ = %.8f; want 0 and 1", ineq, lv[0], lv[1])
		}
		var X mat.Dense
		m.LatentTo(&X)
		x := mat.Col(nil, 0, &X)
		nrm := floats.Norm(x, 2)
		lx := make([]float64, n)
		L.MulVecTo(lx, x)
		floats.Sub(lx, x)
		if res := floats.Norm(lx, 2) / nrm; res > 1e-4 {
			t.Errorf("ineq %v: ‖L(w)x₁ − x₁‖/‖x₁‖ = %.3g", ineq, res)
		}
	}
}
