package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/internal/benchutil"
	"gonum.org/v1/gonum/mat"
)

// rbfKernel returns K_ij = exp(−‖y_i − y_j‖²/(2ℓ²)) for n Gaussian points in
// p dimensions.
func rbfKernel(n, p int, ell float64, seed uint64) *mat.SymDense {
	rnd := rand.New(rand.NewPCG(seed, 1))
	Y := mat.NewDense(n, p, nil)
	for i := range Y.RawMatrix().Data {
		Y.RawMatrix().Data[i] = rnd.NormFloat64()
	}
	K := mat.NewSymDense(n, nil)
	PairwiseSquaredDistances(K, Y)
	raw := K.RawSymmetric()
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+n]
		for j := i; j < n; j++ {
			row[j] = math.Exp(-row[j] / (2 * ell * ell))
		}
	}
	return K
}

func BenchmarkEigenRBFTop2(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		K := rbfKernel(n, 5, 1, 1)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			defer benchutil.CPUMetric(b)()
			for i := 0; i < b.N; i++ {
				if _, _, err := EigenSym(K, 2, Largest, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEigenCrossover compares the dense and Lanczos paths at small n,
// the basis of DenseMax (policy.go).
//
// Measured on the development machine (2 cores, gonum v0.17, default Tol
// 1e-10; mean of 5 runs, machine shared):
//
//	n                         64     100    128    160    200    256    400
//	dense, any k             0.9ms  2.8ms  9.6ms   15ms   35ms  143ms  310ms
//	Lanczos top-2, RBF       5.4ms  2.3ms  3.6ms  4.3ms  5.8ms  5.9ms   15ms
//	Lanczos top-2, random    7.5ms  7.9ms   28ms   17ms   24ms   37ms   57ms
//	Lanczos bottom-10, rand  7.9ms   21ms   33ms   34ms   61ms  103ms  106ms
//
// A random symmetric matrix (semicircle spectrum, no gaps) is the hard case
// for a Krylov method; kernel and distance matrices with decaying spectra
// cross over near n = 100. DenseMax = 200 is the worst case's crossover.
//
// Block size, top 2 of an RBF kernel, n = 4000: b = 1, 2, 4, 8 need 24, 34,
// 56, 88 products at 11.5, 6.7, 5.2, 4.4 ms per vector (measured with an
// earlier tiled-GEMM product).
func BenchmarkEigenCrossover(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{64, 128, 200, 256, 400} {
		mats := map[string]*mat.SymDense{"rbf": rbfKernel(n, 5, 1, 1), "random": randomSym(n, rnd)}
		for _, name := range []string{"rbf", "random"} {
			for _, m := range []EigenMethod{EigenDense, EigenLanczos} {
				b.Run(fmt.Sprintf("n=%d/%s/method=%d", n, name, m), func(b *testing.B) {
					defer benchutil.CPUMetric(b)()
					for i := 0; i < b.N; i++ {
						EigenSym(mats[name], 2, Largest, &EigenSettings{Method: m})
					}
				})
			}
		}
	}
}

func BenchmarkTruncatedSVD(b *testing.B) {
	Y := lowRankPlusNoise(5000, 784, 0.9, 0.1, 4)
	for _, m := range []SVDMethod{SVDExact, SVDRandomized} {
		b.Run(fmt.Sprintf("5000x784/k=10/method=%d", m), func(b *testing.B) {
			defer benchutil.CPUMetric(b)()
			for i := 0; i < b.N; i++ {
				if _, _, _, err := TruncatedSVD(Y, 10, &SVDSettings{Method: m}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
