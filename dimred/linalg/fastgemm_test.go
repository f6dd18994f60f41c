//go:build !openblas

package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

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

func randSlice(rnd *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = rnd.NormFloat64()
	}
	return s
}

// TestTransposed: Dgemm's transposed copy, on shapes off its blocks of 32
// and its groups of four rows, with a padded leading dimension, on one and
// on three goroutines (a recycled buffer the second time).
func TestTransposed(t *testing.T) {
	for _, sz := range [][3]int{{1, 1, 1}, {3, 5, 7}, {37, 45, 50}, {301, 403, 410}} {
		r, c, ld := sz[0], sz[1], sz[2]
		x := make([]float64, (r-1)*ld+c)
		for i := range x {
			x[i] = float64(i)
		}
		for _, w := range []int{1, 3, 3} {
			out := transposed(x, ld, r, c, w)
			for j := 0; j < c; j++ {
				for i := 0; i < r; i++ {
					if out[j*r+i] != x[i*ld+j] {
						t.Fatalf("%v w=%d: transpose[%d,%d] = %v, want %v", sz, w, j, i, out[j*r+i], x[i*ld+j])
					}
				}
			}
			putTransposed(out)
		}
	}
}
