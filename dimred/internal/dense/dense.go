// Package dense holds the small matrix helpers shared by dimred's packages:
// the one dst rule of every …To extractor, and a dense view of a
// mat.Matrix.
package dense

import "gonum.org/v1/gonum/mat"

// NilDst is the panic message of a nil matrix dst: a …To extractor cannot
// allocate through a nil pointer, so a nil dst is a programmer error (pass
// &mat.Dense{} to have it allocated).
const NilDst = "dimred: nil dst matrix (pass an empty one, &mat.Dense{}, to have it allocated)"

// ReuseAs applies the package-wide dst rule to a matrix: an empty dst is
// resized to r×c; a non-empty dst of another shape panics with
// mat.ErrShape; a nil dst panics with NilDst.
func ReuseAs(dst *mat.Dense, r, c int) {
	if dst == nil {
		panic(NilDst)
	}
	if dst.IsEmpty() {
		dst.ReuseAs(r, c)
		return
	}
	if rr, cc := dst.Dims(); rr != r || cc != c {
		panic(mat.ErrShape)
	}
}

// ReuseAsSym is ReuseAs for a symmetric dst of size n×n.
func ReuseAsSym(dst *mat.SymDense, n int) {
	if dst == nil {
		panic(NilDst)
	}
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
		return
	}
	if dst.SymmetricDim() != n {
		panic(mat.ErrShape)
	}
}

// CopyVecTo applies the dst rule to a slice: it copies src into dst and
// returns dst; a nil or empty dst is allocated, a dst of another length
// panics with mat.ErrShape.
func CopyVecTo(dst, src []float64) []float64 {
	if len(dst) == 0 {
		dst = make([]float64, len(src))
	}
	if len(dst) != len(src) {
		panic(mat.ErrShape)
	}
	copy(dst, src)
	return dst
}

// AsDense returns Y as a *mat.Dense, sharing storage when Y already is
// one (callers must not modify it) and copying otherwise.
func AsDense(Y mat.Matrix) *mat.Dense {
	if d, ok := Y.(*mat.Dense); ok {
		return d
	}
	return mat.DenseCopyOf(Y)
}
