//go:build !openblas

package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/internal/vec"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestFastBLASDgemm compares the pure-Go build's Dgemm with gonum's on
// every transpose combination, sizes on both sides of the kernel's
// threshold and of its 3-row split, padded leading dimensions, alpha,
// beta (beta = 0 must not read C, which holds NaN). Tolerance: 2(k+2)ε
// times Σ_l |a_il b_lj| plus |beta c_ij| (reordered, partly fused sums).
func TestFastBLASDgemm(t *testing.T) {
	rnd := rand.New(rand.NewPCG(21, 22))
	var f fastBLAS
	var g gonum.Implementation
	ts := []blas.Transpose{blas.NoTrans, blas.Trans}
	for _, sz := range [][3]int{{2, 3, 4}, {131, 129, 130}, {300, 7, 700}, {7, 300, 700}, {256, 256, 33}} {
		m, n, k := sz[0], sz[1], sz[2]
		for _, tA := range ts {
			for _, tB := range ts {
				for _, ab := range [][2]float64{{1, 0}, {-0.5, 2}} {
					name := fmt.Sprintf("%v %c%c alpha=%v beta=%v", sz, tA, tB, ab[0], ab[1])
					ar, ac := m, k
					if tA == blas.Trans {
						ar, ac = k, m
					}
					br, bc := k, n
					if tB == blas.Trans {
						br, bc = n, k
					}
					lda, ldb, ldc := ac+2, bc+1, n+3
					a := randSlice(rnd, ar*lda)
					b := randSlice(rnd, br*ldb)
					c := randSlice(rnd, m*ldc)
					if ab[1] == 0 {
						for i := range c {
							c[i] = math.NaN()
						}
					}
					want := append([]float64(nil), c...)
					got := append([]float64(nil), c...)
					g.Dgemm(tA, tB, m, n, k, ab[0], a, lda, b, ldb, ab[1], want, ldc)
					f.Dgemm(tA, tB, m, n, k, ab[0], a, lda, b, ldb, ab[1], got, ldc)
					for i := 0; i < m; i++ {
						for j := 0; j < ldc; j++ {
							w, v := want[i*ldc+j], got[i*ldc+j]
							if j >= n {
								if !(w == v || math.IsNaN(w) && math.IsNaN(v)) {
									t.Fatalf("%s: padding C[%d,%d] changed", name, i, j)
								}
								continue
							}
							mag := 0.0
							for l := 0; l < k; l++ {
								var x, y float64
								if tA == blas.Trans {
									x = a[l*lda+i]
								} else {
									x = a[i*lda+l]
								}
								if tB == blas.Trans {
									y = b[j*ldb+l]
								} else {
									y = b[l*ldb+j]
								}
								mag += math.Abs(x * y)
							}
							tol := 2 * float64(k+2) * 0x1p-52 * (math.Abs(ab[0])*mag + math.Abs(ab[1])*3)
							if !(math.Abs(w-v) <= tol) {
								t.Fatalf("%s: C[%d,%d] = %v, gonum %v", name, i, j, v, w)
							}
						}
					}
				}
			}
		}
	}
	// Malformed calls still panic as gonum's do.
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Dgemm with lda < k did not panic")
			}
		}()
		f.Dgemm(blas.NoTrans, blas.NoTrans, 200, 200, 200, 1, make([]float64, 200*200), 100, make([]float64, 200*200), 200, 0, make([]float64, 200*200), 200)
	}()
}

// TestFastBLASDgemmOnKernel: from fastGemmMinFlops on, fastBLAS's Dgemm
// (dimred's own products, and the program's after UseFastBLAS) runs on
// vec.Gemm — its bits are gemmSplit's — and below it on gonum's. An edit
// that dropped fastBLAS's Dgemm method left the embedded gonum Dgemm in
// its place, and TestFastBLASDgemm, which compares within a tolerance,
// did not see it.
func TestFastBLASDgemmOnKernel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(23, 24))
	for _, sz := range [][3]int{{300, 200, 100}, {20, 20, 20}} {
		m, n, k := sz[0], sz[1], sz[2]
		a, b := randSlice(rnd, m*k), randSlice(rnd, k*n)
		got, want := make([]float64, m*n), make([]float64, m*n)
		fastBLAS{}.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, got, n)
		if 2*float64(m*n*k) >= fastGemmMinFlops {
			gemmSplit(1, false, false, m, n, k, 1, a, k, b, n, 0, want, n)
		} else {
			gonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, want, n)
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%v: C[%d] = %v, want %v from the kernel of its size", sz, i, got[i], want[i])
			}
		}
	}
}

func randSlice(rnd *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = rnd.NormFloat64()
	}
	return s
}

// TestGemmSplitBits: Dgemm's split of C by columns or rows over 1, 2 and
// 3 goroutines, on every transpose combination, gives the bits of
// vec.GemmNT on explicit copies of op(A) and op(B)ᵀ (one goroutine), on
// shapes wide and tall, off the split's blocks of 8 columns or 6 rows and
// the kernels' strips, with padded leading dimensions and beta = 0 (C
// holding NaN), 1 and other.
func TestGemmSplitBits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(31, 32))
	for _, sz := range [][3]int{{7, 17, 9}, {50, 61, 300}, {61, 203, 517}, {13, 1100, 20}, {301, 5, 40}, {203, 61, 517}} {
		m, n, k := sz[0], sz[1], sz[2]
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				ar, ac := m, k
				if tA {
					ar, ac = k, m
				}
				br, bc := k, n
				if tB {
					br, bc = n, k
				}
				lda, ldb, ldc := ac+3, bc+1, n+2
				a, b := randSlice(rnd, ar*lda), randSlice(rnd, br*ldb)
				// op(A) (m×k) and op(B)ᵀ (n×k), copied.
				an, bn := make([]float64, m*k), make([]float64, n*k)
				for i := 0; i < m; i++ {
					for l := 0; l < k; l++ {
						if tA {
							an[i*k+l] = a[l*lda+i]
						} else {
							an[i*k+l] = a[i*lda+l]
						}
					}
				}
				for j := 0; j < n; j++ {
					for l := 0; l < k; l++ {
						if tB {
							bn[j*k+l] = b[j*ldb+l]
						} else {
							bn[j*k+l] = b[l*ldb+j]
						}
					}
				}
				for _, ab := range [][2]float64{{1, 0}, {-0.5, 1}, {1.5, -2}} {
					alpha, beta := ab[0], ab[1]
					c0 := randSlice(rnd, m*ldc)
					if beta == 0 {
						for i := range c0 {
							c0[i] = math.NaN()
						}
					}
					want := append([]float64(nil), c0...)
					vec.GemmNT(m, n, k, alpha, an, k, bn, k, beta, want, ldc)
					for _, w := range []int{1, 2, 3} {
						got := append([]float64(nil), c0...)
						gemmSplit(w, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
						for i := range got {
							if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
								t.Fatalf("%v tA=%v tB=%v alpha=%v beta=%v w=%d: C[%d,%d] = %v, want %v",
									sz, tA, tB, alpha, beta, w, i/ldc, i%ldc, got[i], want[i])
							}
						}
					}
				}
			}
		}
	}
}
