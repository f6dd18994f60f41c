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
	var m, n, k int
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
	dimredBLAS().Dgemm(tA, tB, m, n, k, alpha, a.Data, max(a.Stride, 1), b.Data, max(b.Stride, 1), beta, c.Data, max(c.Stride, 1))
}
