//go:build openblas

package linalg

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// gemmNT: OpenBLAS threads its own products, so w only says whether the
// caller is already parallel (the library is told nothing either way).
func gemmNT(alpha float64, A, B blas64.General, beta float64, C blas64.General, _ int) {
	if C.Rows == 0 || C.Cols == 0 {
		return
	}
	if A.Cols == 0 {
		// BLAS needs k ≥ 1 for its leading dimensions; C = beta·C.
		for i := 0; i < C.Rows; i++ {
			row := C.Data[i*C.Stride : i*C.Stride+C.Cols]
			for j := range row {
				if beta == 0 {
					row[j] = 0
				} else {
					row[j] *= beta
				}
			}
		}
		return
	}
	Gemm(blas.NoTrans, blas.Trans, alpha, A, B, beta, C)
}

// syrkUpperSerial sets the upper triangle of the n×n C to A Aᵀ (dsyrk).
func syrkUpperSerial(A blas64.General, C blas64.General) {
	dimredBLAS().Dsyrk(blas.Upper, blas.NoTrans, A.Rows, A.Cols, 1, A.Data, A.Stride, 0, C.Data, C.Stride)
}
