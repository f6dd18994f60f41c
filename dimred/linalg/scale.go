package linalg

import (
	"math"

	"github.com/dimredbook/book/dimred/internal/vec"

	"gonum.org/v1/gonum/mat"
)

// UnitScale guards products of extreme-scale data. It returns a itself and
// 1 when the largest magnitude m of its entries lies within 2^±400 (or a
// is zero), and otherwise a copy of a divided by the power of two
// s = 2^e ≤ m, and s. Squared distances, AᵀA or Y Yᵀ of the copy cannot
// overflow or underflow for any size below 2^200 entries per row; results
// are scaled back by s (distances, singular values) or s² (squared
// distances, inner products). Division by a power of two is exact, and
// data of ordinary scale are returned untouched, so their results are
// bit-identical.
func UnitScale(a mat.Matrix) (mat.Matrix, float64) {
	r, c := a.Dims()
	m := 0.0
	if rm, ok := a.(mat.RawMatrixer); ok {
		raw := rm.RawMatrix()
		if raw.Stride == c {
			m = vec.MaxAbs(raw.Data[:r*c])
		} else {
			for i := 0; i < r && !math.IsNaN(m); i++ {
				m = math.Max(m, vec.MaxAbs(raw.Data[i*raw.Stride:i*raw.Stride+c]))
			}
		}
	} else {
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				m = math.Max(m, math.Abs(a.At(i, j)))
			}
		}
	}
	if m == 0 || math.IsNaN(m) || math.IsInf(m, 0) || (m < 0x1p+400 && m > 0x1p-400) {
		return a, 1
	}
	_, e := math.Frexp(m) // m = f·2^e, f ∈ [½, 1)
	e--                   // 2^e ≤ m, finite for every finite m
	out := mat.NewDense(r, c, nil)
	out.Apply(func(_, _ int, v float64) float64 { return math.Ldexp(v, -e) }, a)
	return out, math.Ldexp(1, e)
}
