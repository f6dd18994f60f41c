package highdim

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// This file holds Chapter 1's mathematics ("Thinking in High Dimensions",
// book Chapter 1): the gamma density, the distribution of squared distances
// from the mean and between points of a Gaussian sample, and the "Gaussian
// egg" masses.

// GammaPDF returns the gamma density with shape a and RATE b (book Box 1.4),
//
//	G(x | a, b) = bᵃ / Γ(a) · x^(a−1) e^(−b x),   mean a/b, variance a/b²,
//
// evaluated in log space, so shapes in the thousands (p/2 for p = 24750) are
// accurate. It panics if a ≤ 0 or b ≤ 0.
func GammaPDF(x, a, b float64) float64 {
	checkGammaParams(a, b)
	return distuv.Gamma{Alpha: a, Beta: b}.Prob(x)
}

// GammaCDF returns GAMMACDF(x | a, b) = ∫₀ˣ G(z | a, b) dz = P(a, b x), the
// regularised lower incomplete gamma function (book §1.1.2, with its x/z
// mix-up corrected). It panics if a ≤ 0 or b ≤ 0.
func GammaCDF(x, a, b float64) float64 {
	checkGammaParams(a, b)
	return distuv.Gamma{Alpha: a, Beta: b}.CDF(x)
}

func checkGammaParams(a, b float64) {
	if !(a > 0) || !(b > 0) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		panic(fmt.Sprintf("dimred: gamma parameters a = %v, b = %v must be positive and finite", a, b))
	}
}

// EggMasses returns the probability mass of a p-dimensional spherical
// Gaussian N(0, σ² I) in the three zones of the book's "Gaussian egg"
// (§1.1.1–1.1.2): the yolk, within radius lo·σ; the green, between lo·σ and
// hi·σ; and the white, beyond hi·σ. The book uses lo = 0.95, hi = 1.05.
//
// The radius is measured on the dimension-normalised squared distance from
// the mean, (1/p) Σₖ yₖ² ~ G(p/2, p/(2σ²)), so
//
//	yolk  = GAMMACDF(lo² σ² | p/2, p/(2σ²)),
//	green = GAMMACDF(hi² σ² | ·) − yolk,   white = 1 − yolk − green.
//
// This is the convention that reproduces the captions of Figs 1.1–1.3
// (65.8/4.8/29.4 %, 59.4/7.4/33.2 %, 56.1/9.2/34.7 %) and the author's
// MATLAB script dimredDimensionMass.m (github.com/lawrennd/dimred);
// thresholds on the raw radius ‖y‖, as the text of §1.1.2 can be read,
// would give a 36.3 % yolk at p = 2 instead. The masses do not depend on
// σ², which scales out. It panics unless p ≥ 1 and 0 < lo < hi < ∞.
func EggMasses(p int, lo, hi float64) (yolk, green, white float64) {
	if p < 1 {
		panic(fmt.Sprintf("dimred: EggMasses dimension p = %d < 1", p))
	}
	if !(lo > 0) || !(hi > lo) || math.IsInf(hi, 0) {
		panic(fmt.Sprintf("dimred: EggMasses needs 0 < lo < hi < ∞, got lo = %v, hi = %v", lo, hi))
	}
	a := float64(p) / 2
	b := float64(p) / 2 // rate p/(2σ²) with σ² = 1
	yolk = GammaCDF(lo*lo, a, b)
	inner := GammaCDF(hi*hi, a, b)
	return yolk, inner - yolk, 1 - inner
}

// SquaredDistanceFromMean returns the shape a and rate b of the gamma
// density of the dimension-normalised squared distance of a sample of
// N(0, σ² I_p) from its mean, (1/p) Σₖ yₖ² ~ G(p/2, p/(2σ²)): mean σ²,
// variance 2σ⁴/p (book §1.1.2). It panics unless p ≥ 1 and σ² > 0.
func SquaredDistanceFromMean(p int, sigma2 float64) (a, b float64) {
	checkDimVar(p, sigma2)
	return float64(p) / 2, float64(p) / (2 * sigma2)
}

// InterpointSquaredDistance returns the shape a and rate b of the gamma
// density of the dimension-normalised squared distance between two
// independent samples of N(0, σ² I_p),
//
//	(1/p) Σₖ (y_ik − y_jk)² ~ G(p/2, p/(4σ²)),  mean 2σ², variance 8σ⁴/p.
//
// The draft (§1.1.4) prints the variance as 8σ²/D: the power of σ and the
// symbol for the dimension are typos (the variance of G(a, b) is a/b²).
// It panics unless p ≥ 1 and σ² > 0.
func InterpointSquaredDistance(p int, sigma2 float64) (a, b float64) {
	checkDimVar(p, sigma2)
	return float64(p) / 2, float64(p) / (4 * sigma2)
}

// InterpointVariance returns 8σ⁴/p, the variance of the normalised
// interpoint squared distance; with σ² = 1 (standardised data) it is the
// "predicted" value the book's histogram captions print.
func InterpointVariance(p int, sigma2 float64) float64 {
	a, b := InterpointSquaredDistance(p, sigma2)
	return a / (b * b)
}

func checkDimVar(p int, sigma2 float64) {
	if p < 1 {
		panic(fmt.Sprintf("dimred: dimension p = %d < 1", p))
	}
	if !(sigma2 > 0) || math.IsInf(sigma2, 0) {
		panic(fmt.Sprintf("dimred: variance σ² = %v must be positive and finite", sigma2))
	}
}

// NormalisedInterpointDistances returns the dimension-normalised squared
// distances v_ij = ‖z_i − z_j‖² / p, over the n(n−1)/2 pairs i < j in row
// order, between the rows z_i of Y after each column is divided by its
// sample standard deviation (normaliser n−1; constant columns by 1). This
// is the convention of the book's interpoint-distance histograms (Figs 1.8,
// 1.10, 1.12, 1.14–1.16, from the author's dimredPlotSquaredDistances.m).
// After it the mean of the v_ij is exactly 2 when no column is constant
// (each constant column lowers it by 2/p), because
// Σ_{i<j} ‖z_i − z_j‖² = n Σ_i ‖z_i − z̄‖² = n(n−1)p. The distances come from one
// BLAS rank-k update. It returns an error wrapping errs.ErrNaN for non-finite
// input and errs.ErrTooFewPoints for n < 2.
func NormalisedInterpointDistances(Y mat.Matrix) ([]float64, error) {
	n, p := Y.Dims()
	if n < 2 {
		return nil, fmt.Errorf("%w: interpoint distances need n ≥ 2 points, got %d", errs.ErrTooFewPoints, n)
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return nil, err
	}
	var Z mat.Dense
	linalg.Standardise(&Z, Y)
	var D mat.SymDense
	linalg.PairwiseSquaredDistances(&D, &Z)
	raw := D.RawSymmetric()
	v := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for _, d := range raw.Data[i*raw.Stride+i+1 : i*raw.Stride+n] {
			v = append(v, d/float64(p))
		}
	}
	return v, nil
}
