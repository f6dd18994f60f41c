package linalg

import (
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"
	"gonum.org/v1/gonum/mat"
)

// The one-pass triangle product equals the dense product, for one vector
// and for blocks, on one core and on several.
func TestUpperSymOp(t *testing.T) {
	for _, n := range []int{7, 300} {
		A := testutil.RandDense(n, n, 21)
		S := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				S.SetSym(i, j, A.At(i, j))
			}
		}
		raw := S.RawSymmetric()
		op := newUpperSymOp(raw)
		for _, b := range []int{1, 3} {
			X := testutil.RandDense(b, n, 22)
			dst := make([]float64, b*n)
			if b == 1 {
				op.MulVecTo(dst, X.RawRowView(0))
			} else {
				op.mulBlockTo(dst, X.RawMatrix().Data, b)
			}
			var want mat.Dense
			want.Mul(X, S) // rows: xᵀS = (S x)ᵀ
			got := mat.NewDense(b, n, dst)
			if d := testutil.MaxAbsDiff(got, &want); d > 1e-12 {
				t.Errorf("n=%d b=%d: max diff %v", n, b, d)
			}
		}
		// With implicit centring the operator is H S H.
		mean := make([]float64, n)
		grand := 0.0
		for i := range mean {
			for j := 0; j < n; j++ {
				mean[i] += S.At(i, j)
			}
			mean[i] /= float64(n)
			grand += mean[i] / float64(n)
		}
		cop := newUpperSymOp(raw)
		cop.mean, cop.grand = mean, grand
		H := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				H.Set(i, j, -1/float64(n))
			}
			H.Set(i, i, 1-1/float64(n))
		}
		var hsh, hs mat.Dense
		hs.Mul(H, S)
		hsh.Mul(&hs, H)
		X := testutil.RandDense(3, n, 23)
		dst := make([]float64, 3*n)
		cop.mulBlockTo(dst, X.RawMatrix().Data, 3)
		var want mat.Dense
		want.Mul(X, &hsh)
		if d := testutil.MaxAbsDiff(mat.NewDense(3, n, dst), &want); d > 1e-10 {
			t.Errorf("n=%d centred: max diff %v", n, d)
		}
	}
}
