package kernel

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/internal/vec"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// Kernel is a covariance function k(y, y') = φ(y)ᵀφ(y'), the inner product
// of two points in a (possibly infinite) feature space (book §4.2). A kernel
// must be symmetric and positive semi-definite: every Gram matrix
// K_ij = k(y_i, y_j) it produces is PSD (Mercer's condition, book §4.2.1).
type Kernel interface {
	// Eval returns k(x, y); x and y have the same length.
	Eval(x, y []float64) float64
}

// MatrixKernel is a Kernel with a fast bulk path, used by Cross
// and Gram when present. RBF, Linear and Polynomial implement it with
// one BLAS matrix product followed by an elementwise map over all cores.
type MatrixKernel interface {
	Kernel
	// CrossTo stores K_ij = k(a_i, b_j) for the rows of A (n×p) and B
	// (m×p) in dst (n×m). The caller has checked the shapes.
	CrossTo(dst *mat.Dense, A, B mat.Matrix)
	// SymTo stores K_ij = k(y_i, y_j) for the rows of Y (n×p) in dst
	// (n×n), which the caller has sized.
	SymTo(dst *mat.SymDense, Y mat.Matrix)
}

// RBF is the exponentiated quadratic (Gaussian, squared exponential)
// kernel
//
//	k(y, y') = σ² exp(−‖y − y'‖² / (2ℓ²)),
//
// the limit of infinitely many exponentiated quadratic basis functions
// spread over the whole input space (book §4.2.1, with
// α = σ²√(2πℓ²)). Other parameterisations in use: GPmat's inverseWidth is
// 1/ℓ² (see RBFInverseWidth), the γ of exp(−γ‖y − y'‖²) in book Chapter 5
// and scikit-learn is 1/(2ℓ²) (see RBFGamma).
//
// LengthScale must be positive: a non-positive ℓ is a programmer error and
// panics (in Eval and in the bulk paths).
//
// One type serves both uses: an RBF value is a MatrixKernel for kernel
// PCA and the Gram products, and a pointer, *RBF, is also a
// CrossParamKernel with θ = (log σ², log ℓ) and the gradients a GP-LVM
// needs (ParamGrad, LatentGrad, CrossGrad; grad.go, crossgrad.go).
// Written with GPmat's inverse width γ = 1/ℓ² it is σ² exp(−½γ‖x − x'‖²).
type RBF struct {
	Variance    float64 // σ², the kernel's value at zero distance; 0 means 1, negative panics
	LengthScale float64 // ℓ, the distance over which k decays by e^{-1/2}; must be > 0
}

// RBFInverseWidth returns the RBF kernel with unit variance written as
// GPmat's rbf kernel, k = exp(−½·inverseWidth·‖y − y'‖²), so ℓ = 1/√inverseWidth.
// The book's rotated-sixes figures (demSixKpca.m) use inverseWidth = 5×10⁻⁷
// on raw 0–255 pixels.
func RBFInverseWidth(inverseWidth float64) RBF {
	if !(inverseWidth > 0) || math.IsInf(inverseWidth, 0) {
		panic(fmt.Sprintf("dimred: RBF inverse width %v must be positive and finite", inverseWidth))
	}
	return RBF{LengthScale: 1 / math.Sqrt(inverseWidth)}
}

// RBFGamma returns the RBF kernel with unit variance written as
// k = exp(−γ‖y − y'‖²) (book Chapter 5, scikit-learn), so ℓ = 1/√(2γ).
func RBFGamma(gamma float64) RBF {
	if !(gamma > 0) || math.IsInf(gamma, 0) {
		panic(fmt.Sprintf("dimred: RBF gamma %v must be positive and finite", gamma))
	}
	return RBF{LengthScale: 1 / math.Sqrt(2*gamma)}
}

// params validates the kernel and returns σ² and 1/(2ℓ²).
func (k RBF) params() (variance, half float64) {
	if !(k.LengthScale > 0) || math.IsInf(k.LengthScale, 0) {
		panic(fmt.Sprintf("dimred: RBF.LengthScale ℓ = %v must be positive and finite", k.LengthScale))
	}
	variance = k.Variance
	if variance == 0 {
		variance = 1
	}
	if !(variance > 0) || math.IsInf(variance, 0) {
		panic(fmt.Sprintf("dimred: RBF.Variance σ² = %v must be positive and finite", k.Variance))
	}
	return variance, 1 / (2 * k.LengthScale * k.LengthScale)
}

// Eval returns σ² exp(−‖x − y‖²/(2ℓ²)).
func (k RBF) Eval(x, y []float64) float64 {
	if len(x) != len(y) {
		panic(mat.ErrShape)
	}
	v, h := k.params()
	d := 0.0
	for i, xi := range x {
		t := xi - y[i]
		d += t * t
	}
	return v * math.Exp(-h*d)
}

// CrossTo implements MatrixKernel: BLAS squared distances, then the
// exponential on all cores.
//
// Inputs of extreme scale (entries beyond 2^±400, whose squared distances
// would overflow or underflow) are divided by a common power of two s and
// ℓ with them, so k is computed wherever its value is representable.
func (k RBF) CrossTo(dst *mat.Dense, A, B mat.Matrix) {
	v, _ := k.params()
	A, B, s := commonScale(A, B)
	h := k.scaledHalf(s)
	linalg.SquaredDistances(dst, A, B)
	raw := dst.RawMatrix()
	parallel.ForWork(raw.Rows, raw.Rows*raw.Cols, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			expRow(raw.Data[i*raw.Stride:i*raw.Stride+raw.Cols], v, h)
		}
	})
}

// scaledHalf returns 1/(2(ℓ/s)²), the exponent's factor for squared
// distances of data divided by s (1/(2ℓ²), as params, when s = 1).
func (k RBF) scaledHalf(s float64) float64 {
	l := k.LengthScale / s
	return 1 / (2 * l * l)
}

// rbf returns v exp(−h d), exactly v at d = 0 (also when h overflowed to
// +Inf for data of extreme scale).
func rbf(v, h, d float64) float64 {
	if d == 0 {
		return v
	}
	return v * math.Exp(-h*d)
}

// commonScale returns A and B unchanged with s = 1 when neither is of
// extreme scale (linalg.UnitScale), and otherwise both divided by the
// larger of their power-of-two scales s.
func commonScale(A, B mat.Matrix) (mat.Matrix, mat.Matrix, float64) {
	_, sa := linalg.UnitScale(A)
	_, sb := linalg.UnitScale(B)
	s := math.Max(sa, sb)
	if s == 1 {
		return A, B, 1
	}
	_, e := math.Frexp(s)
	e-- // s = 2^e
	div := func(m mat.Matrix) mat.Matrix {
		var out mat.Dense
		out.Apply(func(_, _ int, x float64) float64 { return math.Ldexp(x, -e) }, m)
		return &out
	}
	return div(A), div(B), s
}

// SymTo implements MatrixKernel, on all cores. For data of up to
// rbfDirectMaxDim columns the squared distances are summed coordinate by
// coordinate, d_ij = Σ_c (y_ic − y_jc)², which is exact up to rounding
// however close the points are; for wider data they come from the Gram
// matrix Y Yᵀ (tiled BLAS) as d_ij = ‖y_i‖² + ‖y_j‖² − 2y_iᵀy_j, clamped at
// zero and exactly zero on the diagonal. Either way the exponential runs
// row by row on the AVX2 kernel of internal/vec where the processor has
// one.
//
// Y of extreme scale is divided by a power of two s, and ℓ with it, as in
// CrossTo.
func (k RBF) SymTo(dst *mat.SymDense, Y mat.Matrix) {
	v, _ := k.params()
	Y, s := linalg.UnitScale(Y)
	h := k.scaledHalf(s)
	raw := dst.RawSymmetric()
	n, p := Y.Dims()
	if raw.N != n {
		panic(mat.ErrShape)
	}
	if p <= rbfDirectMaxDim {
		// Coordinates as columns (p×n), so each coordinate's contribution
		// to a row of distances is one vector pass.
		cols := make([][]float64, p)
		for c := range cols {
			cols[c] = make([]float64, n)
			for i := range cols[c] {
				cols[c][i] = Y.At(i, c)
			}
		}
		parallel.TriRows(n, func(i int) {
			row := raw.Data[i*raw.Stride+i : i*raw.Stride+n]
			for j := range row {
				row[j] = 0
			}
			for c := range cols {
				vec.AddSqDiff(row[1:], cols[c][i+1:], cols[c][i])
			}
			expRow(row, v, h)
		})
		return
	}
	linalg.Gram(dst, Y)
	sq := make([]float64, n)
	for i := range sq {
		sq[i] = raw.Data[i*raw.Stride+i]
	}
	parallel.TriRows(n, func(i int) {
		row := raw.Data[i*raw.Stride+i : i*raw.Stride+n]
		row[0] = 0
		for j := 1; j < len(row); j++ {
			row[j] = max(0, sq[i]+sq[i+j]-2*row[j])
		}
		expRow(row, v, h)
	})
}

// rbfDirectMaxDim is the widest data for which RBF.SymTo sums squared
// differences directly (p vector passes over a row held in cache), which
// never cancels. With gonum's pure-Go BLAS the direct sum was faster than
// the Gram route at every width tried, n = 2000: 4.3 against 12.8 ms at
// p = 8, 10.4 against 29.3 ms at p = 64, 21 against 29 ms at p = 128
// (BenchmarkRBFGram); an optimised BLAS wins on wide data.
const rbfDirectMaxDim = 64

// expRow overwrites the squared distances d in row with v exp(−h d),
// exactly v where d = 0 (also when h overflowed to +Inf for data of
// extreme scale).
func expRow(row []float64, v, h float64) {
	if math.IsInf(h, 0) {
		for j, d := range row {
			row[j] = rbf(v, h, d)
		}
		return
	}
	vec.ScaledExp(row, row, -h, v)
}

// Linear is the linear kernel k(y, y') = σ² yᵀy', whose feature map is
// the identity (scaled by σ). Kernel PCA with it is principal component
// analysis (principal coordinates, book §3.4). A zero Variance is σ² = 1.
//
// One type serves both uses: a Linear value is a MatrixKernel, and a
// pointer, *Linear, is also a CrossParamKernel with θ = (log σ²) and the
// gradients a GP-LVM needs (crossgrad.go). A GP-LVM with this kernel (plus
// noise) is probabilistic PCA in its dual form (Lawrence 2005, §3).
type Linear struct {
	Variance float64 // σ²; 0 means 1; negative panics
}

// GradLinear is the former name of the linear kernel with gradients.
//
// Deprecated: use *Linear, the one linear kernel type.
type GradLinear = Linear

// GradRBF is the former name of the RBF kernel with gradients.
//
// Deprecated: use *RBF, the one RBF kernel type.
type GradRBF = RBF

// variance returns σ², validating it (0 means 1).
func (k Linear) variance() float64 {
	v := k.Variance
	if v == 0 {
		return 1
	}
	if !(v > 0) || math.IsInf(v, 0) {
		panic(fmt.Sprintf("dimred: Linear.Variance σ² = %v must be positive and finite", k.Variance))
	}
	return v
}

// Eval returns σ² xᵀy.
func (k Linear) Eval(x, y []float64) float64 {
	if len(x) != len(y) {
		panic(mat.ErrShape)
	}
	s := 0.0
	for i, xi := range x {
		s += xi * y[i]
	}
	if v := k.variance(); v != 1 {
		s *= v
	}
	return s
}

// CrossTo implements MatrixKernel with one matrix product σ² A Bᵀ.
func (k Linear) CrossTo(dst *mat.Dense, A, B mat.Matrix) {
	dst.Mul(A, B.T())
	if v := k.variance(); v != 1 {
		dst.Scale(v, dst)
	}
}

// SymTo implements MatrixKernel with one symmetric rank-k update σ² Y Yᵀ.
func (k Linear) SymTo(dst *mat.SymDense, Y mat.Matrix) {
	linalg.Gram(dst, Y)
	if v := k.variance(); v != 1 {
		dst.ScaleSym(v, dst)
	}
}

// Polynomial is the polynomial kernel
//
//	k(y, y') = (a·yᵀy' + c)^d,
//
// whose feature space holds every monomial of the inputs of degree up to d
// (exactly d when c = 0).
type Polynomial struct {
	Degree int     // d; 0 means 2, negative panics
	Scale  float64 // a; 0 means 1, negative panics
	Offset float64 // c ≥ 0; 0 gives the homogeneous kernel (yᵀy')^d, negative panics
}

func (k Polynomial) params() (d int, a, c float64) {
	d, a, c = k.Degree, k.Scale, k.Offset
	if d == 0 {
		d = 2
	}
	if a == 0 {
		a = 1
	}
	if d < 0 || a < 0 || c < 0 || math.IsNaN(a) || math.IsNaN(c) || math.IsInf(a, 0) || math.IsInf(c, 0) {
		panic(fmt.Sprintf("dimred: Polynomial kernel needs Degree ≥ 0, Scale ≥ 0, Offset ≥ 0 (finite); have %d, %v, %v", k.Degree, k.Scale, k.Offset))
	}
	return d, a, c
}

func kernelPowInt(x float64, d int) float64 {
	r := 1.0
	for d > 0 {
		if d&1 == 1 {
			r *= x
		}
		x *= x
		d >>= 1
	}
	return r
}

// Eval returns (a·xᵀy + c)^d.
func (k Polynomial) Eval(x, y []float64) float64 {
	d, a, c := k.params()
	return kernelPowInt(a*Linear{}.Eval(x, y)+c, d)
}

// CrossTo implements MatrixKernel.
func (k Polynomial) CrossTo(dst *mat.Dense, A, B mat.Matrix) {
	d, a, c := k.params()
	dst.Mul(A, B.T())
	raw := dst.RawMatrix()
	parallel.ForWork(raw.Rows, raw.Rows*raw.Cols, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
			for j, g := range row {
				row[j] = kernelPowInt(a*g+c, d)
			}
		}
	})
}

// SymTo implements MatrixKernel.
func (k Polynomial) SymTo(dst *mat.SymDense, Y mat.Matrix) {
	d, a, c := k.params()
	linalg.Gram(dst, Y)
	raw := dst.RawSymmetric()
	n := raw.N
	parallel.TriRows(n, func(i int) {
		row := raw.Data[i*raw.Stride+i : i*raw.Stride+n]
		for j, g := range row {
			row[j] = kernelPowInt(a*g+c, d)
		}
	})
}

// Cross stores in dst the n×m cross-kernel matrix
// K_ij = k(a_i, b_j) between the rows of A (n×p) and B (m×p). An empty dst
// is resized; a dst of the wrong shape, or A and B with different numbers of
// columns, panic with mat.ErrShape. Kernels implementing MatrixKernel use
// their BLAS path; others are evaluated pairwise on all cores.
func Cross(dst *mat.Dense, k Kernel, A, B mat.Matrix) {
	n, p := A.Dims()
	m, pb := B.Dims()
	if p != pb {
		panic(mat.ErrShape)
	}
	if k == nil {
		panic("dimred: kernel.Cross: nil Kernel")
	}
	dense.ReuseAs(dst, n, m)
	if mk, ok := k.(MatrixKernel); ok {
		mk.CrossTo(dst, A, B)
		return
	}
	ad, bd := mat.DenseCopyOf(A), mat.DenseCopyOf(B)
	parallel.ForWork(n, n*m*(p+1), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ai := ad.RawRowView(i)
			for j := 0; j < m; j++ {
				dst.Set(i, j, k.Eval(ai, bd.RawRowView(j)))
			}
		}
	})
}

// Gram stores in dst the n×n Gram (kernel) matrix K_ij = k(y_i, y_j)
// of the rows of Y (n×p). An empty dst is resized; a dst of another size
// panics with mat.ErrShape. Kernels implementing MatrixKernel use their
// BLAS path; others are evaluated on the upper triangle on all cores.
func Gram(dst *mat.SymDense, k Kernel, Y mat.Matrix) {
	n, _ := Y.Dims()
	if k == nil {
		panic("dimred: kernel.Gram: nil Kernel")
	}
	dense.ReuseAsSym(dst, n)
	if mk, ok := k.(MatrixKernel); ok {
		mk.SymTo(dst, Y)
		return
	}
	yd := mat.DenseCopyOf(Y)
	raw := dst.RawSymmetric()
	parallel.TriRows(n, func(i int) {
		yi := yd.RawRowView(i)
		for j := i; j < n; j++ {
			raw.Data[i*raw.Stride+j] = k.Eval(yi, yd.RawRowView(j))
		}
	})
}

// ImpliedSquaredDistances stores in dst the squared feature-space
// distances implied by a kernel matrix, by the standard transformation
//
//	d_ij = ‖φ(y_i) − φ(y_j)‖² = k_ii + k_jj − 2 k_ij
//
// (the opening of book Chapter 4; §5.2's eq. (5.1) prints −k_jj, a sign
// error). For a stationary kernel with unit variance d_ij = 2 − 2k_ij, so
// pairs the kernel sees as dissimilar (k_ij ≈ 0) sit at distance √2.
// Round-off below zero is set to zero; the diagonal is exactly zero. An
// empty dst is resized; a dst of another size panics with mat.ErrShape.
func ImpliedSquaredDistances(dst *mat.SymDense, K mat.Symmetric) {
	n := K.SymmetricDim()
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
	} else if dst.SymmetricDim() != n {
		panic(mat.ErrShape)
	}
	diag := make([]float64, n)
	for i := range diag {
		diag[i] = K.At(i, i)
	}
	// Read K fully before writing, in case dst aliases K.
	vals := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			vals = append(vals, K.At(i, j))
		}
	}
	t := 0
	for i := 0; i < n; i++ {
		dst.SetSym(i, i, 0)
		for j := i + 1; j < n; j++ {
			d := diag[i] + diag[j] - 2*vals[t]
			t++
			if d < 0 {
				d = 0
			}
			dst.SetSym(i, j, d)
		}
	}
}
