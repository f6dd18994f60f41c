package linalg

import (
	"runtime"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"
)

// eigenBits returns the hash of the eigenvalues and eigenvectors of the k
// smallest pairs of L by method, on procs threads.
func eigenBits(t *testing.T, L *CSR, k int, method EigenMethod, procs int) string {
	t.Helper()
	old := runtime.GOMAXPROCS(procs)
	defer runtime.GOMAXPROCS(old)
	vals, vecs, err := EigenSymOp(L, k, Smallest, &EigenSettings{Method: method})
	if err != nil {
		t.Fatal(err)
	}
	return testutil.BitsHash(vals) + " " + testutil.BitsHash(vecs.RawMatrix().Data)
}

// TestEigenSymOpThreadIndependent: the Lanczos and Chebyshev solvers give
// the same bits on one, two and three threads. The basis products had
// been split into as many column chunks as there were cores, so from
// n = 4096 on the partial sums of the Gram–Schmidt coefficients (and the
// kernel of each product, chosen by the chunk's size) followed GOMAXPROCS:
// a 100×90 grid Laplacian gave three different eigenvector hashes on 1, 2
// and 3 threads.
func TestEigenSymOpThreadIndependent(t *testing.T) {
	L := gridLaplacian(100, 90)
	for _, method := range []EigenMethod{EigenLanczos, EigenChebyshev} {
		one := eigenBits(t, L, 3, method, 1)
		for _, procs := range []int{2, 3} {
			if got := eigenBits(t, L, 3, method, procs); got != one {
				t.Errorf("method %d: %d threads give %s, one thread %s", method, procs, got, one)
			}
		}
	}
}

// TestEigenSymGoldenBits pins the bits of the Lanczos solver on a 50×45
// grid Laplacian; scripts/test reruns it under -tags dimred_noasm with
// GODEBUG turning off AVX, AVX2 and FMA, which is a processor without
// dimred's vector kernels. Such a processor had run the basis products of
// 2 MFlop and more on gonum's Dgemm instead of vec.Gemm's plain-Go twin,
// in another order of summation, and got other eigenvectors (hash
// 54d07906… against 826893c5…), and UMAP's spectral start with them.
func TestEigenSymGoldenBits(t *testing.T) {
	if !gonumAsm {
		t.Skip("gonum's kernels are plain Go (noasm) or OpenBLAS (openblas): the pin is for the default build")
	}
	const want = "826893c58964c273de39e719ff184c9bfce6704941e838d1d83a69bc2e83ba6f 077e82dc2ae061bee2d7701aee900d519987c4d1c5a2369ace2817d59d9c7fe4"
	if got := eigenBits(t, gridLaplacian(50, 45), 3, EigenLanczos, 2); got != want {
		t.Errorf("eigenvalues and eigenvectors hash %s, want %s", got, want)
	}
}
