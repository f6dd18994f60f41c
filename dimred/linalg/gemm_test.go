package linalg

import (
	"math"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// TestGemmNT checks GemmNT against gonum's product A Bᵀ on shapes that
// split over the cores (and a row count not a multiple of the 3-row
// block), on sub-matrix views with padded strides, with beta ≠ 0.
// Tolerance: 2k·ε·max|A|·max|B|·k (reordered sums of k products).
func TestGemmNT(t *testing.T) {
	for _, sz := range [][3]int{{1, 1, 1}, {7, 5, 3}, {301, 257, 784}, {1000, 40, 10}, {5, 300, 0}} {
		m, n, k := sz[0], sz[1], sz[2]
		big := testutil.RandDense(m+2, k+3, 1)
		bigB := testutil.RandDense(n+1, k+2, 2)
		A := big.Slice(1, m+1, 2, k+2).(*mat.Dense)
		B := bigB.Slice(0, n, 1, k+1).(*mat.Dense)
		C := testutil.RandDense(m, n+4, 3).Slice(0, m, 1, n+1).(*mat.Dense)
		C0 := mat.DenseCopyOf(C)
		var want mat.Dense
		want.Mul(A, B.T())
		want.Scale(-0.5, &want)
		var bc mat.Dense
		bc.Scale(2, C0)
		want.Add(&want, &bc)
		var ra, rb blas64.General
		if k > 0 {
			ra, rb = A.RawMatrix(), B.RawMatrix()
		} else {
			ra = blas64.General{Rows: m, Cols: 0, Stride: 1}
			rb = blas64.General{Rows: n, Cols: 0, Stride: 1}
		}
		GemmNT(-0.5, ra, rb, 2, C.RawMatrix())
		tol := 2 * float64(k+2) * float64(k+1) * 0x1p-52 * 16
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				if d := math.Abs(C.At(i, j) - want.At(i, j)); d > tol {
					t.Fatalf("%v: C[%d,%d] = %v, want %v", sz, i, j, C.At(i, j), want.At(i, j))
				}
			}
		}
	}
}

// TestGemmNTShapes: mismatched shapes are programmer errors and panic.
func TestGemmNTShapes(t *testing.T) {
	A := testutil.RandDense(4, 3, 1).RawMatrix()
	B := testutil.RandDense(5, 3, 2).RawMatrix()
	for name, c := range map[string]struct{ A, B, C blas64.General }{
		"k differs": {A, testutil.RandDense(5, 2, 3).RawMatrix(), mat.NewDense(4, 5, nil).RawMatrix()},
		"C rows":    {A, B, mat.NewDense(3, 5, nil).RawMatrix()},
		"C columns": {A, B, mat.NewDense(4, 4, nil).RawMatrix()},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: GemmNT did not panic", name)
				}
			}()
			GemmNT(1, c.A, c.B, 0, c.C)
		}()
	}
}
