package dimred

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// DefaultSeed seeds every random choice of the package whose Src is nil,
// so results and figures are identical run to run.
const DefaultSeed = 1

// newRand returns a generator on src, or on the package's fixed seed.
func newRand(src rand.Source) *rand.Rand {
	if src == nil {
		src = rand.NewPCG(DefaultSeed, DefaultSeed)
	}
	return rand.New(src)
}

// fitSource returns src, or, when it is nil, a new PCG(1, 2) source: the
// fixed start of the fitting methods' random choices (eigensolver and SVD
// start vectors, randomized PCA, PPCA's EM start and PPCA.Sample,
// MixturePPCA's k-means seeding). The samplers above use DefaultSeed
// instead (newRand).
func fitSource(src rand.Source) rand.Source {
	if src == nil {
		return rand.NewPCG(1, 2)
	}
	return src
}

// normalDense returns an r×c matrix of independent standard normal draws
// from rnd, filled row by row.
func normalDense(rnd *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range m.RawMatrix().Data {
		m.RawMatrix().Data[i] = rnd.NormFloat64()
	}
	return m
}

// SampleIsotropic stores in dst n rows drawn independently from
// N(0, σ² I_p). An empty dst is resized to n×p. src nil means the
// package's fixed seed. It panics unless n, p ≥ 1 and σ² > 0.
func SampleIsotropic(dst *mat.Dense, n, p int, sigma2 float64, src rand.Source) {
	if n < 1 {
		panic(fmt.Sprintf("dimred: SampleIsotropic n = %d < 1", n))
	}
	checkDimVar(p, sigma2)
	reuseAs(dst, n, p)
	rng := newRand(src)
	s := math.Sqrt(sigma2)
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		for j := range row {
			row[j] = s * rng.NormFloat64()
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
	reuseAs(dst, n, p)
	rng := newRand(src)
	X := normalDense(rng, n, q)
	dst.Mul(X, W.T())
	s := math.Sqrt(sigma2)
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		for j := range row {
			row[j] += s * rng.NormFloat64()
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
	reuseAs(dst, n, p)
	var L mat.TriDense
	chol.LTo(&L)
	rng := newRand(src)
	Z := normalDense(rng, n, p)
	dst.Mul(Z, L.T())
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		for j := range row {
			row[j] += mean[j]
		}
	}
}
