package linalg

import (
	"github.com/dimredbook/book/dimred/internal/dense"
	"gonum.org/v1/gonum/mat"
)

// SquaredDistances stores in dst the n×m matrix of squared Euclidean
// distances between the rows of A (n×p) and the rows of B (m×p),
//
//	D_ij = ‖a_i‖² + ‖b_j‖² − 2 a_iᵀ b_j,
//
// computed with one BLAS matrix product rather than a triple loop. Round-off
// can make the expansion slightly negative for near-identical rows; such
// entries are set to zero. An empty dst is resized; a dst of the wrong shape
// panics with mat.ErrShape, as does a column mismatch between A and B.
// Squared distances beyond the float64 range (rows of norm above about
// 1e154) come out as ±Inf or NaN; the methods of package dimred report
// that as ErrOverflow. NaN in, NaN out: like gonum's mat it does not check
// its input; callers validate.
func SquaredDistances(dst *mat.Dense, A, B mat.Matrix) {
	n, p := A.Dims()
	m, pb := B.Dims()
	if p != pb {
		panic(mat.ErrShape)
	}
	dense.ReuseAs(dst, n, m)
	ra, okA := A.(mat.RawMatrixer)
	rb, okB := B.(mat.RawMatrixer)
	if okA && okB && p > 0 {
		GemmNT(1, ra.RawMatrix(), rb.RawMatrix(), 0, dst.RawMatrix())
	} else {
		dst.Mul(A, B.T())
	}
	na := RowSquaredNorms(A)
	nb := RowSquaredNorms(B)
	raw := dst.RawMatrix()
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+m]
		for j, g := range row {
			d := na[i] + nb[j] - 2*g
			if d < 0 {
				d = 0
			}
			row[j] = d
		}
	}
}

// PairwiseSquaredDistances stores in dst the n×n symmetric matrix of
// squared Euclidean distances between the rows of Y (n×p), with an exactly
// zero diagonal. Only the upper triangle of the Gram matrix Y Yᵀ is formed,
// half the work of a general product, in tiles filled in parallel by BLAS
// (dsyrk on the diagonal, dgemm off it). An empty dst is
// resized; a dst of the wrong size panics with mat.ErrShape. As for
// SquaredDistances, entries beyond the float64 range are not finite, and
// NaN in gives NaN out (callers validate).
func PairwiseSquaredDistances(dst *mat.SymDense, Y mat.Matrix) {
	n, p := Y.Dims()
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
	} else if dst.SymmetricDim() != n {
		panic(mat.ErrShape)
	}
	if p == 0 {
		dst.Zero()
		return
	}
	Gram(dst, Y)
	g := dst.RawSymmetric()
	sq := make([]float64, n)
	for i := 0; i < n; i++ {
		sq[i] = g.Data[i*g.Stride+i]
	}
	for i := 0; i < n; i++ {
		row := g.Data[i*g.Stride : i*g.Stride+n]
		row[i] = 0
		for j := i + 1; j < n; j++ {
			d := sq[i] + sq[j] - 2*row[j]
			if d < 0 {
				d = 0
			}
			row[j] = d
		}
	}
}

// RowSquaredNorms returns ‖y_i‖² for each row of Y.
func RowSquaredNorms(Y mat.Matrix) []float64 {
	n, p := Y.Dims()
	out := make([]float64, n)
	if rv, ok := Y.(mat.RawMatrixer); ok {
		r := rv.RawMatrix()
		for i := 0; i < n; i++ {
			s := 0.0
			for _, v := range r.Data[i*r.Stride : i*r.Stride+p] {
				s += v * v
			}
			out[i] = s
		}
		return out
	}
	for i := 0; i < n; i++ {
		s := 0.0
		for j := 0; j < p; j++ {
			v := Y.At(i, j)
			s += v * v
		}
		out[i] = s
	}
	return out
}
