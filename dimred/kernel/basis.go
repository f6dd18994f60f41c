package kernel

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/linalg"
	"gonum.org/v1/gonum/mat"
)

// FeatureMap is a finite set of M basis functions, mapping a point y (of
// dimension p) to its feature vector φ(y) = [φ_1(y) … φ_M(y)]ᵀ (book Box 4.1
// and the opening of Chapter 4).
type FeatureMap interface {
	// NumFeatures returns M.
	NumFeatures() int
	// FeaturesTo stores the n×M design matrix Φ, row i = φ(y_i)ᵀ, of the
	// rows of Y (n×p). An empty dst is resized; wrong shapes panic with
	// mat.ErrShape.
	FeaturesTo(dst *mat.Dense, Y mat.Matrix)
}

// EQBasis is a set of exponentiated quadratic (radial, Gaussian) basis
// functions with centres μ_j and common width ℓ, in the book's form
// (the opening of Chapter 4, with the index slip of its first φ_j corrected)
//
//	φ_j(y) = exp(−‖y − μ_j‖² / ℓ²),
//
// which has no factor 2 in the denominator (unlike the RBF kernel). With
// Normalised set each function is multiplied by (πℓ²)^{−p/2}, making it
// the Gaussian density of mean μ_j and variance ℓ²/2 per dimension; this is
// the form whose infinite limit gives the prefactor α/(πℓ²) of book §4.2.1
// (see UniformEQBasis).
type EQBasis struct {
	Centres     *mat.Dense // M×p, row j is μ_j
	LengthScale float64    // ℓ; must be > 0 (panics otherwise)
	Normalised  bool       // multiply by (πℓ²)^{−p/2}
}

// NumFeatures returns the number of centres M.
func (b EQBasis) NumFeatures() int {
	m, _ := b.Centres.Dims()
	return m
}

// FeaturesTo stores Φ_ij = φ_j(y_i) in dst (n×M). Y must have as many
// columns as the centres; otherwise it panics with mat.ErrShape.
func (b EQBasis) FeaturesTo(dst *mat.Dense, Y mat.Matrix) {
	if b.Centres == nil {
		panic("dimred: EQBasis.Centres is nil")
	}
	if !(b.LengthScale > 0) || math.IsInf(b.LengthScale, 0) {
		panic(fmt.Sprintf("dimred: EQBasis.LengthScale ℓ = %v must be positive and finite", b.LengthScale))
	}
	_, p := Y.Dims()
	_, pc := b.Centres.Dims()
	if p != pc {
		panic(mat.ErrShape)
	}
	// exp(−d/ℓ²) is the RBF kernel with ℓ_RBF = ℓ/√2 evaluated between
	// the points and the centres.
	scale := 1.0
	if b.Normalised {
		scale = math.Pow(math.Pi*b.LengthScale*b.LengthScale, -float64(p)/2)
	}
	RBF{Variance: scale, LengthScale: b.LengthScale / math.Sqrt2}.CrossTo(dst, Y, b.Centres)
}

// UniformEQBasis returns M one-dimensional normalised EQ basis functions of
// width ℓ with centres spread evenly over [a, b],
//
//	μ_k = a + (k−1)Δμ,  Δμ = (b − a)/(M − 1),  k = 1 … M,
//
// so that μ_1 = a and μ_M = b. (The book's μ_k = a + kΔμ in §4.2.1 puts μ_M
// beyond b and contradicts its own b − a = (M−1)Δμ; the difference vanishes
// in the limit.) Together with weights of prior variance γ = αΔμ,
// FeatureKernel{Map: basis, Variance: α·Δμ} is a Riemann sum for the
// finite-interval kernel IntervalEQKernel, and tends to the EQ kernel as
// a → −∞, b → ∞ (book §4.2.1). M must be at least 2, a < b finite and
// ℓ > 0 finite; otherwise it panics.
func UniformEQBasis(a, b float64, M int, ell float64) (basis EQBasis, deltaMu float64) {
	if M < 2 || !(a < b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		panic(fmt.Sprintf("dimred: UniformEQBasis needs M ≥ 2 and finite a < b; have M = %d, [%v, %v]", M, a, b))
	}
	if !(ell > 0) || math.IsInf(ell, 0) {
		panic(fmt.Sprintf("dimred: UniformEQBasis width ℓ = %v must be positive and finite", ell))
	}
	deltaMu = (b - a) / float64(M-1)
	c := mat.NewDense(M, 1, nil)
	for k := 0; k < M; k++ {
		c.Set(k, 0, a+float64(k)*deltaMu)
	}
	return EQBasis{Centres: c, LengthScale: ell, Normalised: true}, deltaMu
}

// FeatureKernel is the kernel of a finite basis with independent
// zero-mean weights of variance γ, w ~ N(0, γI):
//
//	k(y, y') = γ φ(y)ᵀφ(y'),
//
// the covariance of the random function f(y) = wᵀφ(y). The expected squared
// gap between two values of f is then the feature-space squared distance,
// ⟨(f_i − f_j)²⟩ = γ‖φ_i − φ_j‖² (book §4.1).
type FeatureKernel struct {
	Map      FeatureMap
	Variance float64 // γ, prior variance of each weight; 0 means 1; negative, NaN or Inf panics
}

func (k FeatureKernel) gamma() float64 {
	if k.Variance == 0 {
		return 1
	}
	if !(k.Variance > 0) || math.IsInf(k.Variance, 0) {
		panic(fmt.Sprintf("dimred: FeatureKernel.Variance γ = %v must be positive and finite", k.Variance))
	}
	return k.Variance
}

// Eval returns γ φ(x)ᵀφ(y).
func (k FeatureKernel) Eval(x, y []float64) float64 {
	if len(x) != len(y) {
		panic(mat.ErrShape)
	}
	var f mat.Dense
	k.Map.FeaturesTo(&f, mat.NewDense(2, len(x), append(append([]float64(nil), x...), y...)))
	return k.gamma() * mat.Dot(f.RowView(0), f.RowView(1))
}

// CrossTo implements MatrixKernel: γ Φ_A Φ_Bᵀ.
func (k FeatureKernel) CrossTo(dst *mat.Dense, A, B mat.Matrix) {
	var fa, fb mat.Dense
	k.Map.FeaturesTo(&fa, A)
	k.Map.FeaturesTo(&fb, B)
	dst.Mul(&fa, fb.T())
	dst.Scale(k.gamma(), dst)
}

// SymTo implements MatrixKernel: γ Φ Φᵀ.
func (k FeatureKernel) SymTo(dst *mat.SymDense, Y mat.Matrix) {
	var f mat.Dense
	k.Map.FeaturesTo(&f, Y)
	f.Scale(math.Sqrt(k.gamma()), &f)
	linalg.Gram(dst, &f)
}

// IntervalEQKernel returns the covariance of infinitely many normalised EQ
// basis functions of width ℓ spread uniformly over [a, b] with weight
// density α (book §4.2.1, with the bracket of its half-infinite form corrected):
//
//	k(y, y') = α/√(2πℓ²) · exp(−(y−y')²/(2ℓ²)) ·
//	           ½[erf(√(2/ℓ²)(b − (y+y')/2)) − erf(√(2/ℓ²)(a − (y+y')/2))].
//
// As a → −∞ and b → ∞ the bracket tends to 1 and k becomes the EQ kernel
// α/√(2πℓ²) exp(−(y−y')²/(2ℓ²)) (§4.2.1): RBF{Variance: α/√(2πℓ²),
// LengthScale: ℓ}. Use a = math.Inf(-1), b = math.Inf(1) for the limit.
// It panics unless ℓ > 0 is finite and a ≤ b.
func IntervalEQKernel(y, y2, a, b, ell, alpha float64) float64 {
	if !(ell > 0) || math.IsInf(ell, 0) {
		panic(fmt.Sprintf("dimred: IntervalEQKernel width ℓ = %v must be positive and finite", ell))
	}
	if !(a <= b) {
		panic(fmt.Sprintf("dimred: IntervalEQKernel interval [%v, %v] needs a ≤ b", a, b))
	}
	m := (y + y2) / 2
	s := math.Sqrt(2 / (ell * ell))
	bracket := 0.5 * (math.Erf(s*(b-m)) - math.Erf(s*(a-m)))
	d := y - y2
	return alpha / math.Sqrt(2*math.Pi*ell*ell) * math.Exp(-d*d/(2*ell*ell)) * bracket
}
