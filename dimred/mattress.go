package dimred

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/rng"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// The mattress model (book §5.7, Fig 5.1): a finite element model of a
// sheet of paper is a grid of points, each tied to its lattice neighbours
// by springs of stiffness κ_ij (κ_ij = 0 for unconnected points; negative
// would be repulsive). Deformed to positions Y (n×p, one row per grid
// point), Hooke's law gives the potential energy
//
//	E(Y, κ) = ½ Σ_ij κ_ij ‖y_i − y_j‖² = ½ tr(κ D),   D_ij = ‖y_i − y_j‖²,
//
// and with the stiffness matrix (book eqs. 5.3–5.4)
//
//	ℓ_ij = −½(κ_ij + κ_ji)  (i ≠ j),   ℓ_ii = ½ Σ_{j≠i} (κ_ij + κ_ji),
//
// which is the graph Laplacian of the symmetrised springs (L 1 = 0),
//
//	E(Y, κ) = tr(L Y Yᵀ).
//
// In a heat bath the positions follow the Gibbs density
// p(Y) ∝ exp(−½ tr(L Y Yᵀ)) — a Gaussian random field, independent across
// the p coordinates, whose precision is the stiffness matrix: maximum
// entropy unfolding's model in the limit γ → 0 (book §5.3, §5.7).

// LatticeSprings returns the springs of a rows×cols mattress: point
// i = r·cols + c is tied to its 4 lattice neighbours (3 on an edge, 2 at a
// corner; the book's footnote: 2 for a string, rows = 1) with stiffness
// kappa, as a symmetric n×n CSR, n = rows·cols. It panics unless
// rows, cols ≥ 1 and kappa is finite.
func LatticeSprings(rows, cols int, kappa float64) *linalg.CSR {
	if rows < 1 || cols < 1 {
		panic(fmt.Sprintf("dimred: LatticeSprings %d×%d", rows, cols))
	}
	if math.IsNaN(kappa) || math.IsInf(kappa, 0) {
		panic(fmt.Sprintf("dimred: LatticeSprings kappa = %v must be finite", kappa))
	}
	var is, js []int
	var vs []float64
	add := func(a, b int) {
		is, js, vs = append(is, a, b), append(js, b, a), append(vs, kappa, kappa)
	}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			i := r*cols + c
			if c+1 < cols {
				add(i, i+1)
			}
			if r+1 < rows {
				add(i, i+cols)
			}
		}
	}
	return linalg.NewCSR(rows*cols, is, js, vs)
}

// LatticePositions returns the n×2 flat positions of the rows×cols grid of
// LatticeSprings on [−½, ½]² (x along columns, y along rows; a single row
// or column sits at 0), the grid of the book's Fig 5.1. It panics unless
// rows, cols ≥ 1.
func LatticePositions(rows, cols int) *mat.Dense {
	if rows < 1 || cols < 1 {
		panic(fmt.Sprintf("dimred: LatticePositions %d×%d", rows, cols))
	}
	at := func(k, m int) float64 {
		if m == 1 {
			return 0
		}
		return -0.5 + float64(k)/float64(m-1)
	}
	X := mat.NewDense(rows*cols, 2, nil)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			X.Set(r*cols+c, 0, at(c, cols))
			X.Set(r*cols+c, 1, at(r, rows))
		}
	}
	return X
}

// Stiffness returns the stiffness matrix L of the springs κ (n×n, not
// necessarily symmetric) by the book's eqs. (5.3)–(5.4):
// ℓ_ij = −½(κ_ij + κ_ji) off the diagonal and ℓ_ii = ½ Σ_{j≠i}(κ_ij + κ_ji),
// so L is symmetric with L 1 = 0. Diagonal entries of κ are ignored (a
// spring from a point to itself stores no energy).
func Stiffness(kappa *linalg.CSR) *linalg.CSR {
	n := kappa.N
	var is, js []int
	var vs []float64
	diag := make([]float64, n)
	for i := 0; i < n; i++ {
		cols, vals := kappa.Row(i)
		for t, j := range cols {
			if j == i {
				continue
			}
			h := vals[t] / 2
			is, js, vs = append(is, i, j), append(js, j, i), append(vs, -h, -h)
			diag[i] += h
			diag[j] += h
		}
	}
	for i, d := range diag {
		is, js, vs = append(is, i), append(js, i), append(vs, d)
	}
	return linalg.NewCSR(n, is, js, vs)
}

// SpringEnergy returns Hooke's energy E(Y, κ) = ½ Σ_ij κ_ij ‖y_i − y_j‖² of
// positions Y (n×p) on the springs κ (n×n). It panics if the sizes differ
// and, having no error to return, on a NaN or Inf entry of Y (naming it) or
// an energy beyond the float64 range (rescale Y).
func SpringEnergy(kappa *linalg.CSR, Y mat.Matrix) (energy float64) {
	n, p := Y.Dims()
	if kappa.N != n {
		panic(mat.ErrShape)
	}
	if n == 0 {
		return 0
	}
	checkProjectInput("SpringEnergy", Y, "Y")
	defer func() {
		if math.IsNaN(energy) || math.IsInf(energy, 0) {
			panic(fmt.Sprintf("dimred: SpringEnergy = %v: overflow on finite input (rescale Y)", energy))
		}
	}()
	var e float64
	for i := 0; i < n; i++ {
		cols, vals := kappa.Row(i)
		for t, j := range cols {
			var d float64
			for c := 0; c < p; c++ {
				v := Y.At(i, c) - Y.At(j, c)
				d += v * v
			}
			e += vals[t] * d
		}
	}
	return e / 2
}

// SampleGRF draws p independent columns from the Gaussian random field
// with precision L + γI (n×n, symmetric; a Laplacian or stiffness matrix
// given as *linalg.CSR or any mat.Matrix),
//
//	y_:,j ~ N(0, (L + γI)⁻¹),   j = 1 … p,
//
// the heat-bath positions of the mattress (book §5.7) and the maximum
// entropy model of §5.3. With L + γI = RᵀR (Cholesky), y = R⁻¹z for
// z ~ N(0, I) has covariance R⁻¹R⁻ᵀ = (L + γI)⁻¹; the factorisation is
// dense, O(n³) (gonum has no sparse Cholesky). A nil src means the
// package's fixed seed. It returns an error wrapping ErrSingular when
// L + γI is not positive definite (γ = 0 with a Laplacian, whose null
// space holds 1; or repulsive springs) and ErrNaN for a non-finite entry.
// It panics if L is not square, γ < 0 or p < 1.
func SampleGRF(L mat.Matrix, gamma float64, p int, src rand.Source) (*mat.Dense, error) {
	n, c := L.Dims()
	if n != c {
		panic(mat.ErrShape)
	}
	if gamma < 0 || math.IsNaN(gamma) || p < 1 {
		panic(fmt.Sprintf("dimred: SampleGRF γ = %v, p = %d", gamma, p))
	}
	P := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := L.At(i, j)
			if i == j {
				v += gamma
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: precision entry (%d,%d) = %v", ErrNaN, i, j, v)
			}
			P.SetSym(i, j, v)
		}
	}
	var ch mat.Cholesky
	// Whether a singular P (γ = 0 on a Laplacian) survives the
	// factorisation with a round-off pivot depends on the BLAS's rounding,
	// so a condition number beyond 1/ε counts as singular too.
	if !ch.Factorize(P) || !(ch.Cond() < 1/dlamchE) {
		return nil, fmt.Errorf("%w: GRF precision L + γI (γ = %g) is not positive definite", ErrSingular, gamma)
	}
	var R mat.TriDense
	ch.UTo(&R)
	Z := rng.NormalDense(rng.New(src), n, p)
	Y := mat.NewDense(n, p, nil)
	if err := Y.Solve(&R, Z); err != nil {
		return nil, fmt.Errorf("%w: GRF sample: %v", ErrSingular, err)
	}
	return Y, nil
}

// dlamchE is the unit round-off of float64, 2⁻⁵³.
const dlamchE = 1.0 / (1 << 53)

// OUPrecision returns the precision (inverse covariance) of the
// Ornstein–Uhlenbeck covariance k(x, x') = σ² exp(−|x − x'|/ℓ) on the 1-D
// inputs x (the spectral paper §5.1: the GP-LVM with this covariance and a
// 1-D latent space is a Gauss–Markov random field whose only neighbours
// are adjacent points). With the inputs sorted, x_(1) < … < x_(n), and
// ρ_t = exp(−(x_(t+1) − x_(t))/ℓ), the process is the AR(1) chain
// x_(t+1) | x_(t) ~ N(ρ_t x_(t), σ²(1 − ρ_t²)), so the precision is
// tridiagonal in sorted order:
//
//	Q_(t,t+1) = −ρ_t / (σ²(1 − ρ_t²)),
//	Q_(t,t)   = [1/(1 − ρ_{t−1}²) + ρ_t²/(1 − ρ_t²)] / σ²,
//
// with the terms for t − 1 < 1 replaced by 1 and for t = n by 0. The
// result is indexed like x (not sorted). It returns an error wrapping
// ErrSingular when two inputs coincide (the covariance is then singular)
// and ErrNaN for a non-finite input, ErrOverflow when two inputs are so
// close that a precision entry (≈ ℓ/(2σ²|x − x'|)) exceeds the float64
// range. It panics if ℓ or σ² is not positive and finite, or x is empty.
func OUPrecision(x []float64, lengthScale, variance float64) (*linalg.CSR, error) {
	n := len(x)
	if n == 0 || !(lengthScale > 0) || !(variance > 0) || math.IsInf(lengthScale, 1) || math.IsInf(variance, 1) {
		panic(fmt.Sprintf("dimred: OUPrecision n = %d, ℓ = %v, σ² = %v", n, lengthScale, variance))
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: x[%d] = %v", ErrNaN, i, v)
		}
	}
	ord := make([]int, n)
	for i := range ord {
		ord[i] = i
	}
	sort.SliceStable(ord, func(a, b int) bool { return x[ord[a]] < x[ord[b]] })
	// rho[t] = ρ_t and c[t] = 1 − ρ_t², the latter as −expm1(−2d/ℓ): for
	// inputs closer than ~1e-16ℓ, 1 − ρ² in floating point is 0 although
	// the precision (≈ ℓ/2d) is finite.
	rho := make([]float64, n-1)
	c := make([]float64, n-1)
	for t := range rho {
		d := x[ord[t+1]] - x[ord[t]]
		if d == 0 {
			return nil, fmt.Errorf("%w: OU covariance of coincident inputs x[%d] = x[%d] = %v", ErrSingular, ord[t], ord[t+1], x[ord[t]])
		}
		rho[t] = math.Exp(-d / lengthScale)
		c[t] = -math.Expm1(-2 * d / lengthScale)
	}
	var is, js []int
	var vs []float64
	for t := 0; t < n; t++ {
		d := 1.0 // the chain's start: x_(1) ~ N(0, σ²)
		if t > 0 {
			d = 1 / c[t-1]
		}
		if t < n-1 {
			r := rho[t]
			d += r * r / c[t]
			off := -r / c[t] / variance
			if math.IsInf(off, 0) {
				return nil, errs.Overflowf("OUPrecision: inputs x[%d] = %v and x[%d] = %v are too close for ℓ = %v", ord[t], x[ord[t]], ord[t+1], x[ord[t+1]], lengthScale)
			}
			is, js, vs = append(is, ord[t], ord[t+1]), append(js, ord[t+1], ord[t]), append(vs, off, off)
		}
		if math.IsInf(d/variance, 0) {
			return nil, errs.Overflowf("OUPrecision: precision of x[%d] = %v (neighbours too close for ℓ = %v)", ord[t], x[ord[t]], lengthScale)
		}
		is, js, vs = append(is, ord[t]), append(js, ord[t]), append(vs, d/variance)
	}
	return linalg.NewCSR(n, is, js, vs), nil
}
