//go:build !openblas

package linalg

import (
	"runtime"
	"sync"

	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/internal/vec"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// fastBLAS is the BLAS of the pure-Go build: gonum's routines, except that
// a large Dgemm runs on the AVX2/AVX-512 kernel of internal/vec (the
// operands brought to the inner-product form A·Bᵀ by transposed copies
// where needed, O((m+n)k) against the product's O(mnk)). On the
// development machine that is about 45–52 GFlop/s per CPU-second for a
// 2000×784 by 784×2000 product against gonum's 6–7, and 0.85–1.09
// (median 0.93) of OpenBLAS's dgemm per CPU-second in the same runs of
// scripts/bench. Processors without AVX2/FMA, small products
// (under fastGemmMinFlops) and malformed calls (which gonum reports) keep
// gonum's Dgemm. The results differ from gonum's only by the order of
// rounding. dimred's own products call it directly (Gemm); it becomes the
// process's gonum BLAS only through UseFastBLAS.
type fastBLAS struct{ gonum.Implementation }

// dimredBLAS is the BLAS of dimred's own products in this build: fastBLAS
// where the processor has the vector kernel, gonum's otherwise.
func dimredBLAS() blas.Float64 {
	if vec.HasGemmKernel() {
		return fastBLAS{}
	}
	return gonum.Implementation{}
}

const fastGemmMinFlops = 1 << 21

// Dgemm implements blas.Float64.
func (f fastBLAS) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	f.dgemm(fastGemmMinFlops, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// dgemm is Dgemm with the kernel used from minFlops on (tests pass 0, so
// that gonum's testblas cases, all small, reach the kernel).
func (f fastBLAS) dgemm(minFlops float64, tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if 2*float64(m)*float64(n)*float64(k) < minFlops || !wellFormedGemm(tA, tB, m, n, k, a, lda, b, ldb, c, ldc) {
		f.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	// A' (m×k) and B' (n×k), row-major with k contiguous.
	w := runtime.GOMAXPROCS(0)
	ap, ldap := a, lda
	if tA != blas.NoTrans { // a is k×m
		ap, ldap = transposed(a, lda, k, m, w), k
	}
	bp, ldbp := b, ldb
	if tB == blas.NoTrans { // b is k×n
		bp, ldbp = transposed(b, ldb, k, n, w), k
	}
	splitRows(m, n, k, w, func(lo, hi int) {
		vec.GemmNT(hi-lo, n, k, alpha, ap[lo*ldap:], ldap, bp, ldbp, beta, c[lo*ldc:], ldc)
	})
	if tA != blas.NoTrans {
		putTransposed(ap)
	}
	if tB == blas.NoTrans {
		putTransposed(bp)
	}
}

// putTransposed hands a buffer of transposed back for reuse.
func putTransposed(x []float64) { transposeBufs.Put(&x) }

// wellFormedGemm reports whether a Dgemm call is valid by the BLAS rules
// (gonum's Dgemm panics on the others, with its messages).
func wellFormedGemm(tA, tB blas.Transpose, m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) bool {
	okT := func(t blas.Transpose) bool { return t == blas.NoTrans || t == blas.Trans || t == blas.ConjTrans }
	if !okT(tA) || !okT(tB) || m <= 0 || n <= 0 || k <= 0 {
		return false
	}
	ar, ac := m, k
	if tA != blas.NoTrans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB != blas.NoTrans {
		br, bc = n, k
	}
	return lda >= ac && ldb >= bc && ldc >= n &&
		len(a) >= (ar-1)*lda+ac && len(b) >= (br-1)*ldb+bc && len(c) >= (m-1)*ldc+n
}

// transposeBufs recycles transposed's buffers: a fresh one of a large
// product's size costs its page faults on every call.
var transposeBufs sync.Pool

// transposed returns the c×r row-major transpose of the r×c matrix x
// (leading dimension ld) by vec.Transpose, blocks of 32 columns shared
// among up to w goroutines. The buffer is recycled: hand it back with
// putTransposed once done.
func transposed(x []float64, ld, r, c, w int) []float64 {
	var out []float64
	if p, _ := transposeBufs.Get().(*[]float64); p != nil && cap(*p) >= c*r {
		out = (*p)[:c*r]
	} else {
		out = make([]float64, c*r)
	}
	const blk = 32
	nb := (c + blk - 1) / blk
	w = max(1, min(w, nb, r*c/parallel.Grain))
	parallel.Do(w, func(t int) {
		vec.Transpose(out, x, ld, r, min(c, t*nb/w*blk), min(c, (t+1)*nb/w*blk))
	})
	return out
}
