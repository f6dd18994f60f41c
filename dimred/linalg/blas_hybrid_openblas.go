//go:build openblas

package linalg

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/netlib/blas/netlib"
)

// hybridBLAS is the BLAS of the openblas build: OpenBLAS for the calls that
// carry real work, gonum's pure-Go routines for the small ones. OpenBLAS
// wakes its threads for every call, and they spin for a while afterwards;
// on the many small products and BLAS-2 calls of an iterative solver
// (Lanczos's orthogonalisation, the LAPACK of its projected problems) that
// cost more than the call itself — kernel PCA at n = 1000 took 9.6 ms with
// OpenBLAS doing everything and 6.9 ms with it single-threaded. Level-1
// routines are always gonum's. The crossover, hybridMinFlops, is the work at
// which a product takes about 0.1 ms in pure Go.
type hybridBLAS struct{ gonum.Implementation }

var (
	ob   netlib.Implementation
	pure gonum.Implementation
)

const hybridMinFlops = 1 << 20

func big(flops float64) bool { return flops >= hybridMinFlops }

func (hybridBLAS) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if big(2 * float64(m) * float64(n) * float64(k)) {
		ob.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	pure.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (hybridBLAS) Dsymm(s blas.Side, ul blas.Uplo, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if big(2 * float64(m) * float64(n) * float64(max(m, n))) {
		ob.Dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	pure.Dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (hybridBLAS) Dsyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	if big(float64(n) * float64(n) * float64(k)) {
		ob.Dsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	pure.Dsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc)
}

func (hybridBLAS) Dsyr2k(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if big(2 * float64(n) * float64(n) * float64(k)) {
		ob.Dsyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	pure.Dsyr2k(ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func (hybridBLAS) Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if big(float64(m) * float64(n) * float64(max(m, n))) {
		ob.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	pure.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

func (hybridBLAS) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if big(float64(m) * float64(n) * float64(max(m, n))) {
		ob.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	pure.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
}

func (hybridBLAS) Dgemv(tA blas.Transpose, m, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if big(2 * float64(m) * float64(n)) {
		ob.Dgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	pure.Dgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
}

func (hybridBLAS) Dsymv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if big(2 * float64(n) * float64(n)) {
		ob.Dsymv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	pure.Dsymv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
}

func (hybridBLAS) Dsyr2(ul blas.Uplo, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	if big(2 * float64(n) * float64(n)) {
		ob.Dsyr2(ul, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	pure.Dsyr2(ul, n, alpha, x, incX, y, incY, a, lda)
}

func (hybridBLAS) Dger(m, n int, alpha float64, x []float64, incX int, y []float64, incY int, a []float64, lda int) {
	if big(2 * float64(m) * float64(n)) {
		ob.Dger(m, n, alpha, x, incX, y, incY, a, lda)
		return
	}
	pure.Dger(m, n, alpha, x, incX, y, incY, a, lda)
}
