package linalg

import (
	"math"

	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// SubspaceSin returns the sine of the largest principal angle between the
// column spaces of the orthonormal p×q matrices a and b: ‖(I − aaᵀ) b‖₂.
func SubspaceSin(a, b *mat.Dense) float64 {
	var atb, r mat.Dense
	atb.Mul(a.T(), b)
	r.Mul(a, &atb)
	r.Sub(b, &r)
	var svd mat.SVD
	if !svd.Factorize(&r, mat.SVDNone) {
		return math.Inf(1)
	}
	return svd.Values(nil)[0]
}

// SubspaceAngle returns the largest principal angle, in radians, between
// the column spaces of the p×q matrices A and B (any full-rank bases). It
// is the rotation-invariant way to compare loadings: W and W R span the
// same subspace for every orthogonal R. It panics unless A and B are both
// p×q with q ≤ p. NaN in, NaN out: a NaN or ±Inf entry gives NaN (it
// panicked inside LAPACK).
func SubspaceAngle(A, B mat.Matrix) float64 {
	pa, qa := A.Dims()
	pb, qb := B.Dims()
	if pa != pb || qa != qb || qa > pa {
		panic(mat.ErrShape)
	}
	a, b := mat.DenseCopyOf(A), mat.DenseCopyOf(B)
	if !allFinite(a) || !allFinite(b) {
		return math.NaN()
	}
	Orthonormalise(a)
	Orthonormalise(b)
	s := SubspaceSin(a, b)
	return math.Asin(math.Min(s, 1))
}

// Orthonormalise replaces the columns of a (m×k, m ≥ k) by an orthonormal
// basis of their span (Householder QR). It panics with mat.ErrShape when
// m < k (k vectors in m < k dimensions have no orthonormal basis; it
// panicked inside LAPACK, "bad length of tau").
func Orthonormalise(a *mat.Dense) {
	raw := a.RawMatrix()
	m, k := a.Dims()
	if m < k {
		panic(mat.ErrShape)
	}
	tau := make([]float64, k)
	work := []float64{0}
	lapack64.Geqrf(raw, tau, work, -1)
	work = make([]float64, int(work[0]))
	lapack64.Geqrf(raw, tau, work, len(work))
	w2 := []float64{0}
	lapack64.Orgqr(raw, tau, w2, -1)
	if int(w2[0]) > len(work) {
		work = make([]float64, int(w2[0]))
	}
	lapack64.Orgqr(raw, tau, work, len(work))
}

// allFinite reports whether every entry of a is finite.
func allFinite(a *mat.Dense) bool {
	raw := a.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}
