package dimred

import (
	"errors"
	"math"
	"runtime"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"
	"gonum.org/v1/gonum/mat"
)

// TestUMAPCurve: umap-learn's find_ab_params gives a = 1.5769, b = 0.8951
// for min_dist 0.1, spread 1 (its documented defaults; scipy curve_fit).
func TestUMAPCurve(t *testing.T) {
	a, b := UMAPCurve(0.1, 1)
	if math.Abs(a-1.5769) > 5e-4 || math.Abs(b-0.8951) > 5e-4 {
		t.Errorf("a, b = %.5f, %.5f; want 1.5769, 0.8951", a, b)
	}
}

// TestUMAPCurveScale: the curve depends on d/spread alone, so b is the
// same at every spread and a·spread^{2b} too. Fitted in d itself, the
// damped steps from a = 1 stalled at spread 10⁶ and 10⁻⁶ (b = 1.12 and
// 1.07 for 1.93) and at 10¹² and 10⁻¹² (a = b = 1, the start).
func TestUMAPCurveScale(t *testing.T) {
	for _, f := range []float64{0.1, 1} {
		a1, b1 := UMAPCurve(f, 1)
		for _, s := range []float64{1e-12, 1e-6, 1e-3, 10, 1e6, 1e12} {
			a, b := UMAPCurve(f*s, s)
			if as := a * math.Pow(s, 2*b); math.Abs(b-b1) > 1e-6*b1 || math.Abs(as-a1) > 1e-6*a1 {
				t.Errorf("UMAPCurve(%g, %g): a·spread^2b = %.6g, b = %.6g; at spread 1: %.6g, %.6g", f*s, s, as, b, a1, b1)
			}
		}
	}
}

// TestSmoothKNN: every row's weights sum to log₂ k (umap-learn's
// smooth_knn_dist target), the nearest neighbour has weight 1.
func TestSmoothKNN(t *testing.T) {
	Y, _ := gaussianClusters(3, 30, 4, 3)
	k := 10
	_, d2, err := exactNeighbours(Y, k)
	if err != nil {
		t.Fatal(err)
	}
	d := make([]float64, len(d2))
	for i, v := range d2 {
		d[i] = math.Sqrt(v)
	}
	w := smoothKNN(d, 90, k)
	for i := 0; i < 90; i++ {
		s := 0.0
		for _, v := range w[i*k : (i+1)*k] {
			s += v
		}
		if math.Abs(s-math.Log2(float64(k))) > 1e-4 || w[i*k] != 1 {
			t.Fatalf("row %d: Σw = %v (want %v), w_nearest = %v", i, s, math.Log2(float64(k)), w[i*k])
		}
	}
}

func TestUMAPClusters(t *testing.T) {
	Y, labels := gaussianClusters(3, 100, 10, 11)
	for _, init := range []UMAPInit{UMAPInitSpectral, UMAPInitPCA} {
		m := &UMAP{Init: init, NEpochs: 200}
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var X mat.Dense
		m.LatentTo(&X)
		if e := NearestNeighbourErrors(&X, labels); e != 0 {
			t.Errorf("init %d: %d nearest-neighbour errors, want 0", init, e)
		}
		tw, err := Trustworthiness(Y, &X, 10)
		if err != nil || tw < 0.9 {
			t.Errorf("init %d: trustworthiness(10) = %v (%v), want ≥ 0.9", init, tw, err)
		}
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
				t.Errorf("init %d: new point %d (cluster %d) placed beside cluster %d", init, r, newLabels[r], labels[bj])
			}
		}
	}
}

// TestUMAPBitReproducible: identical bits from two runs and from one
// thread against two; and the PCA start pinned by hash (see
// TestTSNEGoldenBits for the cross-processor argument).
func TestUMAPBitReproducible(t *testing.T) {
	Y, _ := gaussianClusters(4, 150, 8, 13)
	run := func(procs int, init UMAPInit) *mat.Dense {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		m := &UMAP{NEpochs: 100, Init: init}
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var X mat.Dense
		m.LatentTo(&X)
		return &X
	}
	for _, init := range []UMAPInit{UMAPInitSpectral, UMAPInitPCA} {
		a, b, c := run(2, init), run(2, init), run(1, init)
		if !mat.Equal(a, b) {
			t.Errorf("init %d: two runs differ", init)
		}
		if !mat.Equal(a, c) {
			t.Errorf("init %d: one thread and two threads differ", init)
		}
	}
	if testing.Short() {
		return
	}
	// At 8000 points the spectral start's Lanczos splits its basis
	// products over the cores (from n = 4096 on), which had made its
	// eigenvectors, and so the embedding, follow GOMAXPROCS.
	big := testutil.SwissRoll(8000, 1)
	fit := func(procs int) *mat.Dense {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		m := &UMAP{NEpochs: 2}
		if err := m.Fit(big); err != nil {
			t.Fatal(err)
		}
		var X mat.Dense
		m.LatentTo(&X)
		return &X
	}
	if one, two := fit(1), fit(2); !mat.Equal(one, two) {
		t.Error("8000 points, spectral start: one thread and two threads differ")
	}
}

func TestUMAPBadInput(t *testing.T) {
	Y, _ := gaussianClusters(2, 10, 3, 1)
	Y.Set(3, 1, math.Inf(1))
	if err := (&UMAP{NNeighbors: 5}).Fit(Y); !errors.Is(err, ErrNaN) {
		t.Errorf("Inf: %v, want ErrNaN", err)
	}
	Y.Set(3, 1, 0)
	if err := (&UMAP{NNeighbors: 20}).Fit(Y); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("20 points, 20 neighbours: %v, want ErrTooFewPoints", err)
	}
	Z := mat.NewDense(40, 3, nil) // two sets of 20 coincident points
	for i := 20; i < 40; i++ {
		Z.Set(i, 0, 1)
	}
	m := &UMAP{NNeighbors: 5, NEpochs: 50}
	if err := m.Fit(Z); err != nil {
		t.Fatalf("duplicated points: %v", err)
	}
	if !m.SpectralFallback() {
		t.Error("two coincident sets: the graph is disconnected, the spectral start should fall back")
	}
	for name, bad := range map[string]*UMAP{
		"MinDist > Spread": {MinDist: 2},
		"Spread NaN":       {Spread: math.NaN()},
		"NNeighbors < 0":   {NNeighbors: -1},
		"LearningRate Inf": {LearningRate: math.Inf(1)},
		// The edge model's a ∝ Spread^(−2b) overflows (every step NaN)
		// or underflows (no attraction) at such spreads.
		"Spread 1e-200": {MinDist: 1e-201, Spread: 1e-200},
		"Spread 1e300":  {Spread: 1e300},
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

// TestUMAPGoldenBits pins the PCA-started embedding's bits (see
// TestTSNEGoldenBits; scripts/test reruns it under -tags dimred_noasm).
func TestUMAPGoldenBits(t *testing.T) {
	if !gonumAsm {
		t.Skip("gonum's kernels are plain Go (noasm) or OpenBLAS (openblas): the pin is for the default build")
	}
	Y, _ := gaussianClusters(4, 150, 12, 21)
	m := &UMAP{NEpochs: 60, Init: UMAPInitPCA}
	if err := m.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var X mat.Dense
	m.LatentTo(&X)
	const want = "3430221d6e87380068f2300434eda4380fc573fe15132a9fbb2e0bb1ffc3a1e6"
	if got := bitsHash(&X); got != want {
		t.Errorf("embedding hash %s, want %s", got, want)
	}

	// The default, spectral start on a connected graph (the clusters
	// above fall back to PCA): its Lanczos solve is pinned on its own by
	// linalg's TestEigenSymGoldenBits.
	s := &UMAP{NEpochs: 60}
	if err := s.Fit(testutil.SwissRoll(600, 1)); err != nil {
		t.Fatal(err)
	}
	if s.SpectralFallback() {
		t.Fatal("the swiss roll's graph is disconnected")
	}
	s.LatentTo(&X)
	const wantSpectral = "c768742e879d7faead08ba4017bdf8b3873e2e9bd1b464b448771d83c77df275"
	if got := bitsHash(&X); got != wantSpectral {
		t.Errorf("spectral start: embedding hash %s, want %s", got, wantSpectral)
	}
}

// TestUMAPScaleFree: data scaled far from 1 are embedded from the same
// graph. umap-learn's bandwidth search starts at σ = 1 with 64 steps, so
// neighbour distances near 2^-100 or 2^100 left σ at the end of its range
// (a review's outside-in test: Y·2^-100 embedded up to 8.7 away from Y).
// The fit rescales such data by a power of two to a largest entry in
// [½, 1), exactly, so the fit on Y·2^±100 is bit for bit the fit on that
// rescaled Y, and ProjectTo of the scaled training rows agrees too.
func TestUMAPScaleFree(t *testing.T) {
	Y, _ := gaussianClusters(3, 40, 5, 11)
	unit := ldexpDense(Y, -maxExponent(Y))
	fit := func(d *mat.Dense) (*UMAP, *mat.Dense) {
		m := &UMAP{NEpochs: 60}
		if err := m.Fit(d); err != nil {
			t.Fatal(err)
		}
		var X mat.Dense
		m.LatentTo(&X)
		return m, &X
	}
	_, want := fit(unit)
	for _, e := range []int{-100, 100} {
		scaled := ldexpDense(Y, e)
		m, got := fit(scaled)
		if !mat.Equal(got, want) {
			var d mat.Dense
			d.Sub(got, want)
			t.Errorf("Y·2^%d: embedding differs from the rescaled data's by up to %g", e, mat.Norm(&d, math.Inf(1)))
		}
		var P mat.Dense
		m.ProjectTo(&P, scaled.Slice(0, 5, 0, 5))
		var ref mat.Dense
		um, _ := fit(unit)
		um.ProjectTo(&ref, unit.Slice(0, 5, 0, 5))
		if !mat.Equal(&P, &ref) {
			t.Errorf("Y·2^%d: ProjectTo differs from the rescaled data's", e)
		}
	}
}
