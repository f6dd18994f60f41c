package linalg

import (
	"runtime"

	"gonum.org/v1/gonum/blas/blas64"
)

// GemmNT sets C = alpha·A·Bᵀ + beta·C, A m×k, B n×k, C m×n (row-major
// blas64.General views): the inner products of the rows of A with those of
// B behind Gram matrices, squared distances and the brute-force
// neighbour search, on all cores. The pure-Go build uses the AVX-512 or
// AVX2/FMA kernel of internal/vec where the processor has one (about seven
// times gonum's pure-Go Dgemm per CPU-second), with bit-identical results on
// every amd64 processor; the openblas build uses the system BLAS. As in
// BLAS, beta = 0 sets C without reading it, and NaN in A or B gives NaN in
// C (callers validate). Mismatched shapes panic. A and B may be the same
// matrix (Y Yᵀ); C must not share memory with either, as in BLAS (it is
// not checked: the product would read entries already overwritten).
func GemmNT(alpha float64, A, B blas64.General, beta float64, C blas64.General) {
	if A.Cols != B.Cols || C.Rows != A.Rows || C.Cols != B.Rows {
		panic("dimred: GemmNT shape mismatch")
	}
	gemmNT(alpha, A, B, beta, C, runtime.GOMAXPROCS(0))
}

// gemmNTSerial is GemmNT on the calling goroutine (for callers that
// already split their work over the cores).
func gemmNTSerial(alpha float64, A, B blas64.General, beta float64, C blas64.General) {
	gemmNT(alpha, A, B, beta, C, 1)
}
