package sdp

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/dimredbook/book/datasets"
	"gonum.org/v1/gonum/mat"
)

// knn returns the symmetrised k-nearest-neighbour pairs of the rows of y
// (brute force) and their squared distances.
func knn(y *mat.Dense, k int) ([]Pair, []float64) {
	n, _ := y.Dims()
	d2 := func(i, j int) float64 {
		var s float64
		for c, v := range y.RawRowView(i) {
			d := v - y.At(j, c)
			s += d * d
		}
		return s
	}
	var pairs []Pair
	var sq []float64
	idx := make([]int, n)
	for i := 0; i < n; i++ {
		for j := range idx {
			idx[j] = j
		}
		sort.Slice(idx, func(a, b int) bool { return d2(i, idx[a]) < d2(i, idx[b]) })
		for _, j := range idx[1 : k+1] {
			pairs = append(pairs, Pair{i, j})
			sq = append(sq, d2(i, j))
		}
	}
	return pairs, sq
}

// centredGram returns H Y Yᵀ H.
func centredGram(y *mat.Dense) *mat.SymDense {
	n, p := y.Dims()
	yc := mat.DenseCopyOf(y)
	for c := 0; c < p; c++ {
		var m float64
		for i := 0; i < n; i++ {
			m += yc.At(i, c)
		}
		m /= float64(n)
		for i := 0; i < n; i++ {
			yc.Set(i, c, yc.At(i, c)-m)
		}
	}
	g := mat.NewSymDense(n, nil)
	g.SymOuterK(1, yc)
	return g
}

func swissRoll(n int, seed uint64) *mat.Dense {
	return datasets.SwissRoll(n, rand.NewPCG(seed, 7)).Y
}

// checkMVU verifies the constraints at K: PSD, centred, distances equal
// (eq) or bounded (le) to relative tolerance tol.
func checkMVU(t *testing.T, k *mat.SymDense, eq []Pair, eqSq []float64, le []Pair, leSq []float64, tol float64) {
	t.Helper()
	n := k.SymmetricDim()
	var es mat.EigenSym
	es.Factorize(k, false)
	v := es.Values(nil)
	if v[0] < -tol*v[n-1] {
		t.Errorf("K not PSD: λmin = %g, λmax = %g", v[0], v[n-1])
	}
	var sum, scale float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			sum += k.At(i, j)
		}
	}
	for _, s := range eqSq {
		scale = math.Max(scale, s)
	}
	for _, s := range leSq {
		scale = math.Max(scale, s)
	}
	if math.Abs(sum) > tol*float64(n)*scale {
		t.Errorf("K not centred: Σ K_ij = %g", sum)
	}
	dist := func(p Pair) float64 { return k.At(p.I, p.I) - 2*k.At(p.I, p.J) + k.At(p.J, p.J) }
	for c, p := range eq {
		if d := dist(p); math.Abs(d-eqSq[c]) > tol*scale {
			t.Errorf("pair (%d,%d): K_ii−2K_ij+K_jj = %.9g, want %.9g", p.I, p.J, d, eqSq[c])
		}
	}
	for c, p := range le {
		if d := dist(p); d > leSq[c]+tol*scale {
			t.Errorf("pair (%d,%d): K_ii−2K_ij+K_jj = %.9g > %.9g", p.I, p.J, d, leSq[c])
		}
	}
}

// With every pair constrained the distances fix the centred Gram matrix,
// so MVU must return principal coordinates: K = H Y Yᵀ H (the spectral
// paper's remark that MVU with all neighbours is PCA).
func TestMVUAllPairsIsPCA(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	const n = 14
	y := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		y.SetRow(i, []float64{3 * rnd.NormFloat64(), rnd.NormFloat64()})
	}
	var pairs []Pair
	var sq []float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a, b := y.RawRowView(i), y.RawRowView(j)
			pairs = append(pairs, Pair{i, j})
			sq = append(sq, (a[0]-b[0])*(a[0]-b[0])+(a[1]-b[1])*(a[1]-b[1]))
		}
	}
	k, res, err := MVU(n, pairs, sq, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res)
	g := centredGram(y)
	var diff mat.Dense
	diff.Sub(k, g)
	if r := mat.Norm(&diff, 2) / mat.Norm(g, 2); r > 1e-5 {
		t.Errorf("‖K − HYYᵀH‖/‖HYYᵀH‖ = %g", r)
	}
	if res.Gap > 1e-7 {
		t.Errorf("gap %g > Tol", res.Gap)
	}
	checkMVU(t, k, pairs, sq, nil, nil, 1e-6)
}

func TestMVUKNN(t *testing.T) {
	y := swissRoll(60, 1)
	pairs, sq := knn(y, 6)
	k, res, err := MVU(60, pairs, sq, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res)
	if res.Gap > 1e-7 || res.PrimalInfeas > 1e-7 || res.DualInfeas > 1e-7 {
		t.Errorf("stopping rule not met: %+v", res)
	}
	checkMVU(t, k, pairs, sq, nil, nil, 1e-6)
	// The data themselves are feasible, so the optimum variance is at least
	// the data's: tr K ≥ tr(H Y Yᵀ H), up to the duality gap.
	tk, ty := mat.Trace(k), mat.Trace(centredGram(y))
	if tk < ty*(1-2e-7) {
		t.Errorf("tr K = %g < tr(HYYᵀH) = %g", tk, ty)
	}
	if math.Abs(tk-res.PrimalObj) > 1e-9*tk {
		t.Errorf("tr K = %g, Result.PrimalObj = %g", tk, res.PrimalObj)
	}
	t.Logf("tr K = %g, tr data = %g", tk, ty)

	// The inequality variant relaxes the constraints: its optimum is at
	// least the equality optimum and its distances are bounded.
	kl, resl, err := MVUBounded(60, nil, nil, pairs, sq, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkMVU(t, kl, nil, nil, pairs, sq, 1e-6)
	if tl := mat.Trace(kl); tl < tk*(1-1e-6) {
		t.Errorf("inequality optimum %g < equality optimum %g", tl, tk)
	}
	t.Logf("inequality: %+v", resl)
}

// A helix sampled along its length with k = 2 neighbours (a chain) unfolds
// to a straight line: the top eigenvalue carries all the variance.
func TestMVUChainUnfolds(t *testing.T) {
	const n = 30
	y := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		s := 0.3 * float64(i)
		y.SetRow(i, []float64{math.Cos(s), math.Sin(s), 0.2 * s})
	}
	pairs, sq := knn(y, 2)
	k, res, err := MVU(n, pairs, sq, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkMVU(t, k, pairs, sq, nil, nil, 1e-6)
	var es mat.EigenSym
	es.Factorize(k, false)
	v := es.Values(nil)
	if f := v[n-1] / mat.Trace(k); f < 0.999 {
		t.Errorf("top eigenvalue fraction %g < 0.999 (eigenvalues %v)", f, v[n-3:])
	}
	t.Logf("%+v, λ top %v", res, v[n-3:])

	// With only the links (i, i+1) the optimum is exactly the straight
	// chain: n points at spacing ℓ have variance Σ_i (i − (n−1)/2)² ℓ² =
	// ℓ² n(n²−1)/12.
	var chain []Pair
	var csq []float64
	for i := 0; i+1 < n; i++ {
		a, b := y.RawRowView(i), y.RawRowView(i+1)
		var d float64
		for c := range a {
			d += (a[c] - b[c]) * (a[c] - b[c])
		}
		chain = append(chain, Pair{i, i + 1})
		csq = append(csq, d)
	}
	k, res, err = MVU(n, chain, csq, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkMVU(t, k, chain, csq, nil, nil, 1e-6)
	if want := csq[0] * float64(n*(n*n-1)) / 12; math.Abs(mat.Trace(k)-want) > 1e-6*want {
		t.Errorf("tr K = %.9g, straight chain %.9g", mat.Trace(k), want)
	}
	t.Logf("%+v", res)
}

// The face found from affinely dependent cliques must contain the data's
// own centred Gram matrix (a feasible point): V Vᵀ G V Vᵀ = G, V ⊥ 1.
func TestFaceBasisContainsData(t *testing.T) {
	const n = 100
	y := swissRoll(n, 11)
	pairs, sq := knn(y, 6)
	ek, ev, _, _, _, err := mvuPairs(n, pairs, sq, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := faceBasis(n, ek, ev)
	if v == nil {
		t.Fatal("no face found for exact 3-D data with 6 neighbours")
	}
	_, r := v.Dims()
	if r >= n-1 || r < 3 {
		t.Fatalf("face dimension %d", r)
	}
	g := centredGram(y)
	var vtg, p1, p2, proj mat.Dense
	vtg.Mul(v.T(), g)    // r×n
	p1.Mul(v, &vtg)      // n×n
	p2.Mul(&p1, v)       // n×r
	proj.Mul(&p2, v.T()) // n×n
	proj.Sub(&proj, g)
	if e := mat.Norm(&proj, 2) / mat.Norm(g, 2); e > 1e-8 {
		t.Errorf("‖VVᵀGVVᵀ − G‖/‖G‖ = %g", e)
	}
	for c := 0; c < r; c++ {
		if s := mat.Sum(v.ColView(c)); math.Abs(s) > 1e-9 {
			t.Errorf("column %d of V has sum %g", c, s)
		}
	}
	t.Logf("face dimension %d of %d", r, n-1)
}

// Exact 3-D swiss roll with 6 neighbours: the anchored programme has no
// strictly feasible point (it stalls at a gap of ~2e-4); MVU's face-reduced
// solve converges to Tol.
func TestMVUFaceReduced(t *testing.T) {
	const n = 100
	y := swissRoll(n, 11)
	pairs, sq := knn(y, 6)
	k, res, err := MVU(n, pairs, sq, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkMVU(t, k, pairs, sq, nil, nil, 1e-6)
	if tk, ty := mat.Trace(k), mat.Trace(centredGram(y)); tk < ty*(1-2e-7) {
		t.Errorf("tr K = %g < data %g", tk, ty)
	}
	t.Logf("%+v", res)
}

// Where both forms converge they agree: the optimum value is unique.
func TestMVUReducedMatchesAnchored(t *testing.T) {
	const n = 60
	y := swissRoll(n, 1)
	pairs, sq := knn(y, 6)
	ek, ev, lk, lv, scale, err := mvuPairs(n, pairs, sq, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Solve(anchored(n, ek, ev, lk, lv), nil)
	if err != nil {
		t.Fatal(err)
	}
	v := faceBasis(n, ek, ev)
	if v == nil {
		t.Fatal("no face")
	}
	r, err := reduced(v, ek, ev, lk, lv, nil)
	if err != nil {
		t.Fatal(err)
	}
	ka, kr := mvuKernel(a.X, n, scale), faceKernel(v, r.X, scale)
	if ta, tr := mat.Trace(ka), mat.Trace(kr); math.Abs(ta-tr) > 1e-6*ta {
		t.Errorf("tr K anchored %.10g, reduced %.10g", ta, tr)
	}
	checkMVU(t, kr, pairs, sq, nil, nil, 1e-6)
}

// The Schur complement is assembled row by row, each entry by one
// goroutine, so the result does not depend on the number of workers.
func TestWorkersDeterministic(t *testing.T) {
	y := noisySwissRoll(80, 10, 0.1, 2)
	pairs, sq := knn(y, 6)
	k1, r1, err1 := MVU(80, pairs, sq, &Settings{Workers: 1})
	k2, r2, err2 := MVU(80, pairs, sq, &Settings{Workers: 2})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if r1 != r2 || !mat.Equal(k1, k2) {
		t.Errorf("Workers 1 and 2 differ: %+v vs %+v", r1, r2)
	}
}
