//go:build !openblas

package linalg

import (
	"runtime"

	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/internal/vec"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// fastBLAS is the BLAS of the pure-Go build: gonum's routines, except that
// a large Dgemm runs on the AVX2/AVX-512 kernel of internal/vec (vec.Gemm,
// which reads transposed operands while packing them, so A·B, Aᵀ·B and
// A·Bᵀ all run at the kernel's speed without transposed copies). On the
// development machine that is about 52–53 GFlop/s per CPU-second for a
// 2000×784 by 784×2000 product against gonum's 6–7. Against numpy's
// OpenBLAS (0.3.21) on the products of scripts/bench (2000 and 4000 rows,
// k = 784, one and two threads a side, 16 interleaved runs at load
// averages 3–11), it gave 0.95–1.13 (median 0.99) of OpenBLAS's speed per
// CPU-second, where transposing B into a copy and splitting C by rows had
// given 0.92–1.09 (median 0.97) in the same runs (1.03× faster, 0.99–1.05).
// Processors without AVX2/FMA, small products
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

// gemmBlockBLAS is the BLAS of a block of a product of the given flops
// (see gemmBlock): on every processor, gonum's below fastGemmMinFlops and
// vec.Gemm on the calling goroutine from there on.
func gemmBlockBLAS(flops float64) blas.Float64 {
	if flops < fastGemmMinFlops {
		return gonum.Implementation{}
	}
	return kernelSerial{}
}

// kernelSerial is gonum's BLAS with every well-formed Dgemm on vec.Gemm,
// on the calling goroutine (the blocks of gemmBlock are already spread
// over the cores).
type kernelSerial struct{ gonum.Implementation }

// Dgemm implements blas.Float64.
func (f kernelSerial) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if !wellFormedGemm(tA, tB, m, n, k, a, lda, b, ldb, c, ldc) {
		f.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemmSplit(1, tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// dgemm is Dgemm with the kernel used from minFlops on (tests pass 0, so
// that gonum's testblas cases, all small, reach the kernel).
func (f fastBLAS) dgemm(minFlops float64, tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if 2*float64(m)*float64(n)*float64(k) < minFlops || !wellFormedGemm(tA, tB, m, n, k, a, lda, b, ldb, c, ldc) {
		f.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	gemmSplit(runtime.GOMAXPROCS(0), tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// gemmSplit runs vec.Gemm (C = alpha·op(A)·op(B) + beta·C, BLAS's
// shapes) on up to w goroutines, each on a block of columns of C, or of
// rows when C has more rows than columns. Every goroutine packs the whole
// of the operand on the other side of its block: split by columns, all of
// op(A) and only its own columns of op(B) (for 2000×784 by 784×2000 on two
// goroutines one pass over B and two over A, where a split by rows made
// two over each, as vec packs op(A) once per 1024 columns of op(B));
// split by rows, all of op(B). Splitting the longer side duplicates the
// smaller operand and keeps tall products (m ≫ n) parallel. Blocks are
// multiples of 8 columns (whole packed strips of B on either kernel, whole
// 64-byte lines of C) or 6 rows (whole strips of A). Every entry is summed
// in one order whatever the split, so the bits of C do not depend on w.
func gemmSplit(w int, tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	cols := func(lo, hi int) {
		off := lo // op(B) = B, k×n: its columns lo … hi−1
		if tB {
			off = lo * ldb // op(B) = Bᵀ, B n×k: its rows lo … hi−1
		}
		vec.Gemm(tA, tB, m, hi-lo, k, alpha, a, lda, b[off:], ldb, beta, c[lo:], ldc)
	}
	rows := func(lo, hi int) {
		off := lo * lda // op(A) = A, m×k: its rows lo … hi−1
		if tA {
			off = lo // op(A) = Aᵀ, A k×m: its columns lo … hi−1
		}
		vec.Gemm(tA, tB, hi-lo, n, k, alpha, a[off:], lda, b, ldb, beta, c[lo*ldc:], ldc)
	}
	if w <= 1 || 2*float64(m)*float64(n)*float64(k) < parallel.Grain {
		cols(0, n)
		return
	}
	if n >= m {
		splitBlocks(n, 8, w, cols)
	} else {
		splitBlocks(m, 6, w, rows)
	}
}

// splitBlocks runs f on up to w ranges of 0 … size−1 of about equal
// length, in multiples of unit, on their own goroutines (f(0, size) alone
// when there is less than two units).
func splitBlocks(size, unit, w int, f func(lo, hi int)) {
	w = min(w, size/unit)
	if w <= 1 {
		f(0, size)
		return
	}
	per := (size/w + unit - 1) / unit * unit
	parallel.Do(w, func(t int) {
		lo := t * per
		hi := min(size, lo+per)
		if t == w-1 {
			hi = size
		}
		if lo < hi {
			f(lo, hi)
		}
	})
}

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
