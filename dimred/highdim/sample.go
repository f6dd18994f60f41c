package highdim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/rng"

	"gonum.org/v1/gonum/mat"
)

// SampleIsotropic stores in dst n rows drawn independently from
// N(0, σ² I_p). An empty dst is resized to n×p. src nil means the
// package's fixed seed. It panics unless n, p ≥ 1 and σ² > 0.
func SampleIsotropic(dst *mat.Dense, n, p int, sigma2 float64, src rand.Source) {
	if n < 1 {
		panic(fmt.Sprintf("dimred: SampleIsotropic n = %d < 1", n))
	}
	checkDimVar(p, sigma2)
	dense.ReuseAs(dst, n, p)
	rnd := rng.New(src)
	s := math.Sqrt(sigma2)
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		for j := range row {
			row[j] = s * rnd.NormFloat64()
		}
	}
}

// SampleLinearGaussian stores in dst n rows y = W x + σ ε with
// x ~ N(0, I_q) and ε ~ N(0, I_p): samples of N(0, C) with the structured
// covariance C = W Wᵀ + σ² I (book §1.11 and Chapter 2's PPCA model). W is
// p×q. This costs O(n p q), far less than a Cholesky factor of the p×p C.
// An empty dst is resized to n×p. It panics unless n ≥ 1 and σ² ≥ 0.
func SampleLinearGaussian(dst *mat.Dense, n int, W mat.Matrix, sigma2 float64, src rand.Source) {
	p, q := W.Dims()
	if n < 1 {
		panic(fmt.Sprintf("dimred: SampleLinearGaussian n = %d < 1", n))
	}
	if !(sigma2 >= 0) || math.IsInf(sigma2, 0) {
		panic(fmt.Sprintf("dimred: SampleLinearGaussian σ² = %v must be non-negative and finite", sigma2))
	}
	dense.ReuseAs(dst, n, p)
	rnd := rng.New(src)
	X := rng.NormalDense(rnd, n, q)
	dst.Mul(X, W.T())
	s := math.Sqrt(sigma2)
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		for j := range row {
			row[j] += s * rnd.NormFloat64()
		}
	}
}

// SampleGaussian stores in dst n rows drawn from N(μ, C), given the
// Cholesky factorisation of C (C = L Lᵀ, y = μ + L z). An empty dst is
// resized to n×p. It panics if len(mean) differs from the size of C.
func SampleGaussian(dst *mat.Dense, n int, mean []float64, chol *mat.Cholesky, src rand.Source) {
	p := chol.SymmetricDim()
	if len(mean) != p {
		panic(mat.ErrShape)
	}
	if n < 1 {
		panic(fmt.Sprintf("dimred: SampleGaussian n = %d < 1", n))
	}
	dense.ReuseAs(dst, n, p)
	var L mat.TriDense
	chol.LTo(&L)
	rnd := rng.New(src)
	Z := rng.NormalDense(rnd, n, p)
	dst.Mul(Z, L.T())
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		for j := range row {
			row[j] += mean[j]
		}
	}
}
