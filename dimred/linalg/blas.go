package linalg

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// UseFastBLAS makes dimred's BLAS the process's gonum BLAS (blas64.Use):
// large Dgemm calls on dimred's AVX2/AVX-512 kernels in the pure-Go build
// (gonum's routines otherwise), OpenBLAS for calls with real work in the
// openblas build. Importing a dimred package changes no global state:
// without this call, mat.Dense products in the program — including those
// inside dimred that go through gonum's mat — use whatever BLAS the
// program chose (gonum's pure Go by default), while dimred's own large
// products (Gram matrices, distances, neighbour search, Lanczos blocks)
// call its BLAS directly either way. The book's figures and scripts call
// it once at start-up (package figures does so when imported).
func UseFastBLAS() { blas64.Use(dimredBLAS()) }

// Gemm is blas64.Gemm — C = alpha·op(A)·op(B) + beta·C — on dimred's BLAS,
// whatever the process's gonum BLAS is (see UseFastBLAS). Shapes follow
// blas64.Gemm, which panics on a mismatch. As in BLAS, c must not share
// memory with a or b (not checked).
func Gemm(tA, tB blas.Transpose, alpha float64, a, b blas64.General, beta float64, c blas64.General) {
	m, n, k := gemmDims(tA, tB, a, b, c)
	dimredBLAS().Dgemm(tA, tB, m, n, k, alpha, a.Data, max(a.Stride, 1), b.Data, max(b.Stride, 1), beta, c.Data, max(c.Stride, 1))
}

// gemmBlock is Gemm on one block of a larger product whose flops (2mnk of
// the whole) choose the kernel, so that every block of a product split
// over the cores runs on the same kernel whatever the split. In the
// pure-Go build the choice is fastBLAS's on every processor — gonum's
// Dgemm under fastGemmMinFlops (SSE2, the same on every amd64 processor),
// vec.Gemm from there on (whose plain-Go twin gives the AVX2 and AVX-512
// kernels' bits where the processor lacks them) — so the product is
// bit-identical on any number of threads and any amd64 processor, which
// Lanczos's basis products need for UMAP's reproducibility. Where vec.Gemm
// has no vector kernel it runs on software fused multiply–adds, many times
// slower than gonum's Dgemm; only such split products pay that.
func gemmBlock(flops float64, tA, tB blas.Transpose, alpha float64, a, b blas64.General, beta float64, c blas64.General) {
	m, n, k := gemmDims(tA, tB, a, b, c)
	gemmBlockBLAS(flops).Dgemm(tA, tB, m, n, k, alpha, a.Data, max(a.Stride, 1), b.Data, max(b.Stride, 1), beta, c.Data, max(c.Stride, 1))
}

// gemmDims returns the m, n, k of C = op(A)·op(B), panicking on a shape
// mismatch.
func gemmDims(tA, tB blas.Transpose, a, b blas64.General, c blas64.General) (m, n, k int) {
	if tA == blas.NoTrans {
		m, k = a.Rows, a.Cols
	} else {
		m, k = a.Cols, a.Rows
	}
	if tB == blas.NoTrans {
		n = b.Cols
	} else {
		n = b.Rows
	}
	if c.Rows != m || c.Cols != n {
		panic("dimred: Gemm shape mismatch")
	}
	if tB == blas.NoTrans {
		if b.Rows != k {
			panic("dimred: Gemm shape mismatch")
		}
	} else if b.Cols != k {
		panic("dimred: Gemm shape mismatch")
	}
	return m, n, k
}
