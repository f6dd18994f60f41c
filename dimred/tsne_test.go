package dimred

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"
	"gonum.org/v1/gonum/mat"
)

// gaussianClusters returns c clusters of m points each in p dimensions,
// centres 10 apart on the axes, unit spread, with labels.
func gaussianClusters(c, m, p int, seed uint64) (*mat.Dense, []int) {
	rnd := rand.New(rand.NewPCG(seed, 7))
	Y := mat.NewDense(c*m, p, nil)
	labels := make([]int, c*m)
	for k := 0; k < c; k++ {
		for i := 0; i < m; i++ {
			r := k*m + i
			labels[r] = k
			for j := 0; j < p; j++ {
				v := rnd.NormFloat64()
				if j == k%p {
					v += 10
				}
				Y.Set(r, j, v)
			}
		}
	}
	return Y, labels
}

func TestDetExp(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	worst := 0.0
	for i := 0; i < 200000; i++ {
		x := (rnd.Float64()*2 - 1) * 700
		if i%2 == 0 {
			x /= 1000 // the small arguments the affinities use most
		}
		got, want := detExp(x), math.Exp(x)
		if ulps := math.Abs(got-want) / (math.Nextafter(want, math.Inf(1)) - want); ulps > worst {
			worst = ulps
		}
	}
	// Each is within one ulp of the true value, so they are within two of
	// each other.
	if worst > 2 {
		t.Errorf("detExp differs from math.Exp by %.2g ulp, want ≤ 2", worst)
	}
	for _, x := range []float64{0, math.Copysign(0, -1), 1e-30, 709.7, 710, -745.2, -746, math.Inf(1), math.Inf(-1)} {
		if got, want := detExp(x), math.Exp(x); got != want && math.Abs(got-want) > 1e-15*math.Abs(want) {
			t.Errorf("detExp(%v) = %v, want %v", x, got, want)
		}
	}
	if !math.IsNaN(detExp(math.NaN())) {
		t.Error("detExp(NaN) is not NaN")
	}
}

// TestPerplexityRows: each conditional row has the asked-for perplexity
// (entropy log(perp) to the bisection's 1e-5 nats) and sums to one.
func TestPerplexityRows(t *testing.T) {
	Y, _ := gaussianClusters(3, 40, 5, 1)
	n := 120
	k := 60
	_, d2, err := exactNeighbours(Y, k)
	if err != nil {
		t.Fatal(err)
	}
	for _, perp := range []float64{5, 20} {
		P := perplexityRows(d2, n, k, perp)
		for i := 0; i < n; i++ {
			h, s := 0.0, 0.0
			for _, p := range P[i*k : (i+1)*k] {
				s += p
				if p > 0 {
					h -= p * math.Log(p)
				}
			}
			if math.Abs(s-1) > 1e-12 || math.Abs(h-math.Log(perp)) > 2e-5 {
				t.Fatalf("perp %v row %d: sum %v, entropy %v, want 1 and %v", perp, i, s, h, math.Log(perp))
			}
		}
	}
}

// TestTSNEGradient checks the exact gradient against central differences of
// KL(P‖Q).
func TestTSNEGradient(t *testing.T) {
	Y, _ := gaussianClusters(2, 15, 4, 2)
	n, q := 30, 2
	idx, d2, err := exactNeighbours(Y, 12)
	if err != nil {
		t.Fatal(err)
	}
	o := &tsneOptimiser{P: symmetrise(idx, perplexityRows(d2, n, 12, 4), n, 12), n: n, q: q}
	rnd := rand.New(rand.NewPCG(5, 6))
	X := make([]float64, n*q)
	for i := range X {
		X[i] = rnd.NormFloat64()
	}
	g := make([]float64, n*q)
	o.gradient(g, X, 1)
	const h = 1e-6
	for _, tIdx := range []int{0, 7, 31, 59} {
		x0 := X[tIdx]
		X[tIdx] = x0 + h
		fp := o.kl(X)
		X[tIdx] = x0 - h
		fm := o.kl(X)
		X[tIdx] = x0
		fd := (fp - fm) / (2 * h)
		if math.Abs(fd-g[tIdx]) > 1e-6*max(1, math.Abs(fd)) {
			t.Errorf("∂KL/∂x[%d] = %v, finite difference %v", tIdx, g[tIdx], fd)
		}
	}
}

// TestTSNEBarnesHut: the tree's repulsion sums approach the exact ones as θ
// falls. A cell summarised at its centre of mass is in error by O((s/d)²)
// < O(θ²) of its contribution (the dipole term vanishes about the centre of
// mass), so the bounds scale as θ²: 0.1θ² for Z_i, 0.2θ² for the forces (a
// wrong centre of mass or opening test would give errors of order θ).
func TestTSNEBarnesHut(t *testing.T) {
	n := 2000
	rnd := rand.New(rand.NewPCG(8, 9))
	X := make([]float64, 2*n)
	for i := range X {
		X[i] = 10 * rnd.NormFloat64()
	}
	// Duplicates: a tree must not recurse forever on coincident points.
	copy(X[2:4], X[0:2])
	copy(X[4:6], X[0:2])
	exact := &tsneOptimiser{n: n, q: 2}
	ze, fe := make([]float64, n), make([]float64, 2*n)
	exact.repulsions(ze, fe, X)
	for _, theta := range []float64{0.5, 0.1} {
		tc := struct{ theta, tolZ, tolF float64 }{theta, 0.1 * theta * theta, 0.2 * theta * theta}
		bh := &tsneOptimiser{n: n, q: 2, theta: tc.theta}
		zb, fb := make([]float64, n), make([]float64, 2*n)
		bh.repulsions(zb, fb, X)
		var errZ, errF, normF float64
		for i := 0; i < n; i++ {
			errZ = max(errZ, math.Abs(zb[i]-ze[i])/ze[i])
			errF += math.Pow(fb[2*i]-fe[2*i], 2) + math.Pow(fb[2*i+1]-fe[2*i+1], 2)
			normF += fe[2*i]*fe[2*i] + fe[2*i+1]*fe[2*i+1]
		}
		errF = math.Sqrt(errF / normF)
		if errZ > tc.tolZ || errF > tc.tolF {
			t.Errorf("θ = %v: max relative error of Z_i %.2g (want ≤ %g), relative error of the forces %.2g (want ≤ %g)", tc.theta, errZ, tc.tolZ, errF, tc.tolF)
		}
	}
}

// TestTSNEClusters: three well-separated clusters stay apart, and
// ProjectTo puts held-out points of each cluster among its own.
func TestTSNEClusters(t *testing.T) {
	Y, labels := gaussianClusters(3, 100, 10, 11)
	m := &TSNE{Perplexity: 20}
	if err := m.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var X mat.Dense
	m.LatentTo(&X)
	if e := NearestNeighbourErrors(&X, labels); e != 0 {
		t.Errorf("%d nearest-neighbour errors, want 0", e)
	}
	tw, err := Trustworthiness(Y, &X, 10)
	if err != nil || tw < 0.9 {
		t.Errorf("trustworthiness(10) = %v (%v), want ≥ 0.9", tw, err)
	}
	// Held-out points: the nearest training point of each projection has its label.
	Ynew, newLabels := gaussianClusters(3, 10, 10, 12)
	var Xnew mat.Dense
	m.ProjectTo(&Xnew, Ynew)
	for r := 0; r < 30; r++ {
		best, bj := math.Inf(1), -1
		for j := 0; j < 300; j++ {
			d := math.Hypot(Xnew.At(r, 0)-X.At(j, 0), Xnew.At(r, 1)-X.At(j, 1))
			if d < best {
				best, bj = d, j
			}
		}
		if labels[bj] != newLabels[r] {
			t.Errorf("new point %d (cluster %d) placed beside a point of cluster %d", r, newLabels[r], labels[bj])
		}
	}
}

// TestTSNEBitReproducible: the same embedding, bit for bit, from two runs
// and from one thread against all, exact and Barnes–Hut.
func TestTSNEBitReproducible(t *testing.T) {
	n := 1100 // ≥ 1000: the default uses Barnes–Hut
	if testing.Short() {
		n = 400
	}
	Y, _ := gaussianClusters(4, n/4, 8, 13)
	run := func(procs int, theta float64) *mat.Dense {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		m := &TSNE{MaxIter: 300, Theta: theta}
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var X mat.Dense
		m.LatentTo(&X)
		return &X
	}
	for _, theta := range []float64{0, -1} {
		if theta < 0 && !testing.Short() {
			continue // exact sums at n = 1100 cost more than they test
		}
		a, b, c := run(2, theta), run(2, theta), run(1, theta)
		if !mat.Equal(a, b) {
			t.Errorf("θ = %v: two runs differ", theta)
		}
		if !mat.Equal(a, c) {
			t.Errorf("θ = %v: one thread and two threads differ", theta)
		}
	}
}

func TestTSNEBadInput(t *testing.T) {
	Y, _ := gaussianClusters(2, 10, 3, 1)
	Y.Set(3, 1, math.NaN())
	m := &TSNE{Perplexity: 5}
	if err := m.Fit(Y); !errors.Is(err, ErrNaN) {
		t.Errorf("NaN: %v, want ErrNaN", err)
	}
	Y.Set(3, 1, 0)
	if err := (&TSNE{}).Fit(Y); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("20 points at perplexity 30: %v, want ErrTooFewPoints", err)
	}
	// Coincident points: finite embedding.
	Z := mat.NewDense(40, 3, nil)
	for i := 20; i < 40; i++ {
		Z.Set(i, 0, 1)
	}
	if err := m.Fit(Z); err != nil {
		t.Fatalf("duplicated points: %v", err)
	}
	var X mat.Dense
	m.LatentTo(&X)
	for _, v := range X.RawMatrix().Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatal("duplicated points: non-finite embedding")
		}
	}
	for name, bad := range map[string]*TSNE{
		"Perplexity NaN": {Perplexity: math.NaN()},
		"Theta 1":        {Theta: 1},
		"Theta NaN":      {Theta: math.NaN()},
		"LearningRate":   {LearningRate: -1},
		"Q negative":     {Q: -1},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			bad.Fit(Y)
		}()
	}
}

// bitsHash is the SHA-256 of X's float64 bits, in row order (X
// contiguous): the pin of the golden-bits tests.
func bitsHash(X *mat.Dense) string { return testutil.BitsHash(X.RawMatrix().Data) }

// TestTSNEGoldenBits pins the embedding's bits: the SHA-256 of the
// float64s of a fixed fit. The value was computed on an AVX-512 machine
// with dimred's assembly kernels; scripts/test runs it again under
// -tags dimred_noasm (dimred's plain-Go kernels, as on a processor without
// AVX2), which is the cross-processor claim. The noasm tag also switches
// gonum's SSE2 kernels (present on every amd64 processor) to plain Go,
// which changes the eigensolver's rounding: no pin there. A deliberate
// change of the algorithm changes the hash: update it then, and say so in
// the commit.
func TestTSNEGoldenBits(t *testing.T) {
	if !gonumAsm {
		t.Skip("gonum's kernels are plain Go (noasm) or OpenBLAS (openblas): the pin is for the default build")
	}
	Y, _ := gaussianClusters(4, 300, 12, 21) // 1200 points: the PCA start's covariance goes through GemmNT, the repulsion through the tree
	m := &TSNE{MaxIter: 120}
	if err := m.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var X mat.Dense
	m.LatentTo(&X)
	const want = "0dedc896a2f27e946e32b17111814d2cbf51d619cce0337cb37a6ff6ada1aa02"
	if got := bitsHash(&X); got != want {
		t.Errorf("embedding hash %s, want %s", got, want)
	}
}

// TestDeterministicPCAGram: for p > n the PCA start is read off the n×n
// Gram matrix; it gives the covariance route's scores (same signs) to
// rounding.
func TestDeterministicPCAGram(t *testing.T) {
	Y, _ := gaussianClusters(3, 10, 80, 4) // 30 points in 80 dimensions
	got := deterministicPCAVia(Y, 2, true)
	want := deterministicPCAVia(Y, 2, false)
	scale := mat.Norm(want, math.Inf(1))
	var d mat.Dense
	d.Sub(got, want)
	if e := mat.Norm(&d, math.Inf(1)) / scale; e > 1e-10 {
		t.Errorf("Gram-route PCA differs from the covariance route by %.3g relative", e)
	}
}
