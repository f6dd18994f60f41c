//go:build !openblas

package linalg

import (
	"gonum.org/v1/gonum/blas/blas64"
)

func gemmNT(alpha float64, A, B blas64.General, beta float64, C blas64.General, w int) {
	if C.Rows == 0 || C.Cols == 0 {
		return
	}
	gemmSplit(w, false, true, C.Rows, C.Cols, A.Cols, alpha, A.Data, A.Stride, B.Data, B.Stride, beta, C.Data, C.Stride)
}

// syrkUpperSerial sets the upper triangle of the n×n C to A Aᵀ (A n×k),
// on the calling goroutine. The AVX2 kernel computes the whole square
// (the lower half is storage a SymDense ignores); that is still faster
// than gonum's Dsyrk on half of it.
func syrkUpperSerial(A blas64.General, C blas64.General) {
	gemmNT(1, A, A, 0, C, 1)
}
