package dimred

import (
	"fmt"
	"testing"

	"github.com/dimredbook/book/dimred/internal/benchutil"
	"github.com/dimredbook/book/dimred/internal/testutil"

	"gonum.org/v1/gonum/mat"
)

// Size ladders of the Chapter 5 performance targets (issue: Isomap on the
// swiss roll with k = 10 at n = 2000/4000/8000, LLE and Laplacian
// eigenmaps at n = 16000), each timing the whole fit: neighbours, graph,
// geodesics or weights, eigenproblem. The swiss roll is
// testutil.SwissRoll (3-D, seed 1). A later bench script runs
// scikit-learn's Isomap / LocallyLinearEmbedding / SpectralEmbedding on
// the same points for the ratio.

// benchFits runs one sub-benchmark per size n, named by label (a format
// taking n, e.g. "n=%d"), each timing whole fits of a fresh model from
// newModel on data(n) and reporting cpu-s/op. The data are made before the
// sub-benchmark starts, outside its timer.
func benchFits(b *testing.B, sizes []int, label string, data func(n int) mat.Matrix, newModel func() Embedder) {
	for _, n := range sizes {
		Y := data(n)
		b.Run(fmt.Sprintf(label, n), func(b *testing.B) {
			defer benchutil.CPUMetric(b)()
			for range b.N {
				if err := newModel().Fit(Y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// swissRoll is the benchmarks' swiss roll: testutil.SwissRoll(n, 1).
func swissRoll(n int) mat.Matrix { return testutil.SwissRoll(n, 1) }

func BenchmarkIsomapSwissRoll(b *testing.B) {
	benchFits(b, []int{2000, 4000, 8000}, "n=%d", swissRoll, func() Embedder { return &Isomap{Q: 2, K: 10} })
}

func BenchmarkIsomapLandmarkSwissRoll(b *testing.B) {
	benchFits(b, []int{8000, 16000}, "n=%d,m=400", swissRoll, func() Embedder { return &Isomap{Q: 2, K: 10, Landmarks: 400} })
}

func BenchmarkLLESwissRoll(b *testing.B) {
	benchFits(b, []int{4000, 16000}, "n=%d", swissRoll, func() Embedder { return &LLE{Q: 2, K: 10} })
}

func BenchmarkLaplacianEigenmapsSwissRoll(b *testing.B) {
	benchFits(b, []int{4000, 16000}, "n=%d", swissRoll, func() Embedder { return &LaplacianEigenmaps{Q: 2, K: 10, T: 4} })
}

func BenchmarkNeighbourhoodCurves(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		Y := testutil.SwissRoll(n, 1)
		X := Y.Slice(0, n, 0, 2)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			defer benchutil.CPUMetric(b)()
			for range b.N {
				if _, err := NeighbourhoodCurves(Y, X, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkIsomapLandmark100k is landmark Isomap beyond the memory of the
// full method: n = 100 000 swiss-roll points (k = 10, m = 400 landmarks).
// Full Isomap stores the n×n geodesics, 8n² bytes = 80 GB here (the
// hostile-input tests found it stops near n = 44 000 in 24 GB); the
// landmark route stores m×n, 320 MB. peak-MB is the process's maximum
// resident set (getrusage), which includes the benchmark's own data.
func BenchmarkIsomapLandmark100k(b *testing.B) {
	Y := testutil.SwissRoll(100000, 1)
	b.ResetTimer()
	defer benchutil.CPUMetric(b)()
	for range b.N {
		m := Isomap{Q: 2, K: 10, Landmarks: 400}
		if err := m.Fit(Y); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(peakRSSMB(), "peak-MB")
}

// BenchmarkEigenmapsJitteredGrid10000 is Laplacian eigenmaps on a
// path-like graph (a jittered 1-D grid, n = 10 000, k = 10), whose small
// eigenvalues cluster (λ_j ≈ (πj/n)²): 7.6 s of CPU on one thread by
// Chebyshev–Lanczos, 37 ms by the shift-invert route it now takes.
func BenchmarkEigenmapsJitteredGrid10000(b *testing.B) {
	Y := jitteredGrid(10000, 1)
	defer benchutil.CPUMetric(b)()
	for range b.N {
		m := LaplacianEigenmaps{Q: 2, K: 10}
		if err := m.Fit(Y); err != nil {
			b.Fatal(err)
		}
	}
}
