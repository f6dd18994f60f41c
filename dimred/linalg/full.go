package linalg

import (
	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/parallel"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// FullDense stores the symmetric matrix a (n×n, e.g. from
// PairwiseSquaredDistances or neighbours.GeodesicDistances, which fill
// only the upper triangle of a *mat.SymDense) in dst as a full n×n
// *mat.Dense, both triangles written, and returns dst. It copies rows of
// the stored triangle in bulk on all cores, where dst.Copy(a) reads every
// entry through At. An empty or nil dst is allocated; a dst of another
// shape panics with mat.ErrShape.
func FullDense(dst *mat.Dense, a *mat.SymDense) *mat.Dense {
	n := a.SymmetricDim()
	if dst == nil {
		dst = &mat.Dense{}
	}
	if n == 0 {
		return dst
	}
	dense.ReuseAs(dst, n, n)
	raw := a.RawSymmetric()
	out := dst.RawMatrix()
	upper := raw.Uplo != blas.Lower
	// Rows in blocks: copy each stored row segment, then mirror it into
	// the column below (or above) the diagonal.
	parallel.ForWork(n, n*n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := out.Data[i*out.Stride : i*out.Stride+n]
			if upper {
				copy(row[i:], raw.Data[i*raw.Stride+i:i*raw.Stride+n])
				for j := 0; j < i; j++ {
					row[j] = raw.Data[j*raw.Stride+i]
				}
			} else {
				copy(row[:i+1], raw.Data[i*raw.Stride:i*raw.Stride+i+1])
				for j := i + 1; j < n; j++ {
					row[j] = raw.Data[j*raw.Stride+i]
				}
			}
		}
	})
	return dst
}
