package dimred

import "gonum.org/v1/gonum/mat"

// Helpers for the slice-valued …To extractors (EigenvaluesTo and friends).

// copyVecTo copies src into dst and returns dst: a nil dst is allocated, a
// dst of another length panics with mat.ErrShape.
func copyVecTo(dst, src []float64) []float64 {
	if dst == nil {
		dst = make([]float64, len(src))
	}
	if len(dst) != len(src) {
		panic(mat.ErrShape)
	}
	copy(dst, src)
	return dst
}

// copyVecReuse copies src into dst when it has src's length, into a new
// slice otherwise, and returns it.
func copyVecReuse(dst, src []float64) []float64 {
	if len(dst) != len(src) {
		dst = make([]float64, len(src))
	}
	copy(dst, src)
	return dst
}
