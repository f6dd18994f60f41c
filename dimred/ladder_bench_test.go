package dimred

import (
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/kernel"

	"gonum.org/v1/gonum/mat"
)

// Crossover ladders: each steps through a size at which a method changes
// solver (linalg.DenseMax = 200 for the dense-versus-Krylov choice of
// ClassicalMDS and KernelPCA; 500, where a sparse Laplacian's Krylov
// solver adds a Chebyshev filter; 1000, where LLE switched to
// shift-invert until that became its solver at every n), so that a cliff
// — a size just below a switch costing more than one above it — shows as
// a row slower than its successor. Run with -cpu 1 for the per-core
// ladder; the cpu-s/op metric is the process's CPU time per fit.

var ladderSizes = []int{150, 200, 201, 250, 400, 490, 500, 510, 900, 990, 1000, 1100, 2000}

func BenchmarkLadderLLE(b *testing.B) {
	benchFits(b, ladderSizes, "n=%d", swissRoll, func() Embedder { return &LLE{Q: 2, K: 10} })
}

func BenchmarkLadderLaplacianEigenmaps(b *testing.B) {
	benchFits(b, ladderSizes, "n=%d", swissRoll, func() Embedder { return &LaplacianEigenmaps{Q: 2, K: 10, T: 4} })
}

func BenchmarkLadderClassicalMDS(b *testing.B) {
	benchFits(b, ladderSizes, "n=%d", swissRoll, func() Embedder { return &ClassicalMDS{Q: 2} })
}

func BenchmarkLadderKernelPCA(b *testing.B) {
	gauss := func(n int) mat.Matrix {
		rnd := rand.New(rand.NewPCG(uint64(n), 3))
		Y := mat.NewDense(n, 10, nil)
		for i := range Y.RawMatrix().Data {
			Y.RawMatrix().Data[i] = rnd.NormFloat64()
		}
		return Y
	}
	benchFits(b, ladderSizes, "n=%d", gauss, func() Embedder { return &KernelPCA{Q: 2, Kernel: kernel.RBF{LengthScale: 3}} })
}
