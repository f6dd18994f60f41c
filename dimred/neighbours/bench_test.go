package neighbours

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/internal/benchutil"
	"github.com/dimredbook/book/dimred/internal/testutil"
	"github.com/dimredbook/book/dimred/internal/vec"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

func knnLaplacian(b testing.TB, n, k int) *linalg.CSR {
	g, err := KNNGraph(testutil.SwissRoll(n, 1), k, Union)
	if err != nil {
		b.Fatal(err)
	}
	if err := CheckConnected(g); err != nil {
		b.Fatal(err)
	}
	return Laplacian(g.Map(func(i, j int, d float64) float64 { return 1 }))
}

func BenchmarkEigenLaplacianBottom3(b *testing.B) {
	for _, n := range []int{1000, 4000, 16000} {
		L := knnLaplacian(b, n, 10)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			defer benchutil.CPUMetric(b)()
			for i := 0; i < b.N; i++ {
				if _, _, err := linalg.EigenSymOp(L, 3, linalg.Smallest, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGeodesic(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000} {
		g, err := KNNGraph(testutil.SwissRoll(n, 2), 10, Union)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			defer benchutil.CPUMetric(b)()
			for i := 0; i < b.N; i++ {
				if _, err := GeodesicDistances(g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkKNNGraph784(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		Y := testutil.GaussianData(n, 784, 3)
		for _, path := range []string{"gemm", "fused"} {
			if path == "fused" && !vec.HasDistKernel() {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/%s", n, path), func(b *testing.B) {
				defer func(u bool) { useFusedKNN = u }(useFusedKNN)
				useFusedKNN = path == "fused"
				defer benchutil.CPUMetric(b)()
				for i := 0; i < b.N; i++ {
					if _, err := KNNGraph(Y, 10, Union); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkKNearestDim measures the kd-tree against blocked BLAS distances
// as the dimension grows, the basis of DefaultKDTreeMaxDim. Measured on the
// development machine (2 cores shared with other jobs, so ±50%),
// n = 8000 Gaussian points, k = 10:
//
//	p          2      4      6      8     16     32
//	kd-tree  0.34s  0.56s  2.5s   7.0s   4.5s   10s
//	BLAS     1.5s   2.0s   2.5s   1.9s   0.4s   1.5s
func BenchmarkKNearestDim(b *testing.B) {
	n := 8000
	for _, p := range []int{2, 4, 6, 8, 16, 32} {
		Y := testutil.GaussianData(n, p, uint64(p))
		for _, path := range []string{"kdtree", "blas"} {
			b.Run(fmt.Sprintf("p=%d/%s", p, path), func(b *testing.B) {
				s := Search{KDTreeMaxDim: -1}
				if path == "kdtree" {
					s.KDTreeMaxDim = 1000
				}
				defer benchutil.CPUMetric(b)()
				for i := 0; i < b.N; i++ {
					if _, err := s.KNearest(Y, 10); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// benchClusters is scripts/bench's clustered data: n points in p
// dimensions from c unit-spread Gaussian clusters with N(0, 4²I) centres,
// point i in cluster i mod c.
func benchClusters(n, p, c int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 17))
	centres := make([][]float64, c)
	for k := range centres {
		centres[k] = make([]float64, p)
		for j := range centres[k] {
			centres[k][j] = 4 * rnd.NormFloat64()
		}
	}
	y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			y.Set(i, j, centres[i%c][j]+rnd.NormFloat64())
		}
	}
	return y
}

// BenchmarkKNearestClustered is the neighbour search behind UMAP's and
// t-SNE's bench rows (clustered points, p = 50, k = 15) on the fused
// kernel and on GemmNT's blocks with their scans (run with -cpu 1 for
// one core's cost).
func BenchmarkKNearestClustered(b *testing.B) {
	for _, n := range []int{10000, 50000} {
		Y := benchClusters(n, 50, 10, 3)
		for _, path := range []string{"gemm", "fused"} {
			if path == "fused" && !vec.HasDistKernel() {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/%s", n, path), func(b *testing.B) {
				defer func(u bool) { useFusedKNN = u }(useFusedKNN)
				useFusedKNN = path == "fused"
				defer benchutil.CPUMetric(b)()
				for i := 0; i < b.N; i++ {
					if _, err := (Search{}).KNearest(Y, 15); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
