package dimred

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

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
			for i := 0; i < b.N; i++ {
				if _, _, err := EigenSym(K, 2, Largest, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
