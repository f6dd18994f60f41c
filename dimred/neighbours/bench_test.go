package neighbours

import (
	"fmt"
	"testing"

	"github.com/dimredbook/book/dimred/internal/benchutil"
	"github.com/dimredbook/book/dimred/internal/testutil"
	"github.com/dimredbook/book/dimred/linalg"
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
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			defer benchutil.CPUMetric(b)()
			for i := 0; i < b.N; i++ {
				if _, err := KNNGraph(Y, 10, Union); err != nil {
					b.Fatal(err)
				}
			}
		})
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
