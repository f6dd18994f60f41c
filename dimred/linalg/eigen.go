package linalg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/rng"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// SymOperator is a symmetric n×n linear operator known through its action
// on vectors, such as a dense or sparse matrix or an implicit product like
// the double-centred distances −½ H D H that is never formed.
type SymOperator interface {
	// Size returns n.
	Size() int
	// MulVecTo sets dst = A x. len(dst) == len(x) == n; dst and x do not
	// overlap.
	MulVecTo(dst, x []float64)
}

// EigenEnd selects which end of the spectrum EigenSym returns.
type EigenEnd int

const (
	// Largest selects the algebraically largest eigenvalues, in
	// descending order.
	Largest EigenEnd = iota
	// Smallest selects the algebraically smallest eigenvalues, in
	// ascending order.
	Smallest
)

// EigenMethod selects the algorithm used by EigenSym.
type EigenMethod int

const (
	// EigenAuto uses the dense solver when PreferDense(n, k) and an
	// iterative solver otherwise (the package policy, see PreferDense).
	EigenAuto EigenMethod = iota
	// EigenDense uses a full dense decomposition (mat.EigenSym).
	EigenDense
	// EigenLanczos uses the iterative partial solver: thick-restart block
	// Lanczos with full reorthogonalisation (see EigenSymOp).
	EigenLanczos
	// EigenChebyshev runs block Lanczos on a Chebyshev polynomial filter
	// of a sparse *CSR operator (see EigenSymOp); where the filter does not
	// apply (another operator, or no spectral gap to filter with) it falls
	// back to EigenLanczos.
	EigenChebyshev
)

// EigenSettings tunes EigenSym. The zero value (or nil) selects defaults.
type EigenSettings struct {
	Method EigenMethod
	Tol    float64     // residual tolerance ‖Av − λv‖ ≤ Tol·‖A‖; default 1e-10
	Src    rand.Source // start vectors; nil means a fixed seed

	// MaxProducts limits the work of the iterative solvers, counted in
	// operator applications (matrix–vector products, a block of b vectors
	// counting b), not in iterations; 0 means max(20000, 10n).
	MaxProducts int

	// BlockSize is the number of vectors the Lanczos basis grows by at a
	// time; 0 means automatic: min(max(k, 2), 8) for dense matrices and
	// DoubleCentred, whose block products read the matrix once per block, and
	// min(k, 4) for other operators. With BlockSize ≥ k every wanted pair
	// is found whatever the multiplicities; with BlockSize < k an
	// eigenvalue of multiplicity above BlockSize may be missed. Larger
	// blocks need more products but cost less per vector when the product
	// reads the matrix once per block (BenchmarkEigenCrossover).
	BlockSize int
}

// check panics on an impossible setting (a NaN Tol, a negative count, an
// unknown Method): settings are the caller's code, not data, and are never
// reinterpreted as defaults.
func (s *EigenSettings) check() {
	switch {
	case math.IsNaN(s.Tol):
		panic("dimred: EigenSettings.Tol = NaN is not a tolerance")
	case s.MaxProducts < 0:
		panic(fmt.Sprintf("dimred: EigenSettings.MaxProducts = %d must not be negative", s.MaxProducts))
	case s.BlockSize < 0:
		panic(fmt.Sprintf("dimred: EigenSettings.BlockSize = %d must not be negative", s.BlockSize))
	case s.Method < EigenAuto || s.Method > EigenChebyshev:
		panic(fmt.Sprintf("dimred: EigenSettings.Method = %d is not an EigenMethod", s.Method))
	}
}

// symDenseOp adapts a mat.Symmetric to SymOperator.
type symDenseOp struct{ a mat.Symmetric }

func (o symDenseOp) Size() int { return o.a.SymmetricDim() }
func (o symDenseOp) MulVecTo(dst, x []float64) {
	n := len(x)
	d := mat.NewVecDense(n, dst)
	d.MulVec(o.a, mat.NewVecDense(n, x))
}

// EigenSym returns k eigenpairs at one end of the spectrum of the symmetric
// matrix a: eigenvalues vals (descending for Largest, ascending for
// Smallest) and the n×k matrix vecs whose orthonormal columns are the
// eigenvectors. Each eigenvector's entry of largest magnitude is positive.
// k must satisfy 1 ≤ k ≤ n; otherwise EigenSym panics.
//
// The method is chosen by s.Method; EigenAuto uses the dense solver for
// PreferDense(n, k) and block Lanczos otherwise. The iterative
// path works on the stored triangle of a *mat.SymDense in parallel tiles
// without copying it. A NaN or Inf in a is reported as ErrNaN. If the
// iteration limit is reached, EigenSym returns the best approximations with
// a *NotConvergedError (wrapping ErrNotConverged) holding the residuals.
func EigenSym(a mat.Symmetric, k int, end EigenEnd, s *EigenSettings) (vals []float64, vecs *mat.Dense, err error) {
	return eigenSymOp(context.Background(), symDenseOp{a}, a, k, end, s)
}

// EigenSymContext is EigenSym under ctx: the iterative solvers check ctx
// before every block of products and return an error wrapping ctx.Err()
// once it is done; they report the products made, against the limit
// MaxProducts, as the phase "eigensolver" to ctx's progress.Reporter. The
// dense solver (n ≤ DenseMax, well under a second) is checked before and
// after.
func EigenSymContext(ctx context.Context, a mat.Symmetric, k int, end EigenEnd, s *EigenSettings) (vals []float64, vecs *mat.Dense, err error) {
	return eigenSymOp(ctx, symDenseOp{a}, a, k, end, s)
}

// EigenSymOp is EigenSym for a symmetric operator known only through its
// products, such as a sparse *CSR Laplacian or DoubleCentred{A} (−½ H A H
// without forming H). The iterative method is thick-restart block Lanczos
// with full reorthogonalisation (see blockLanczos in lanczos.go): residuals
// ‖A v − λ v‖ ≤ Tol·‖A‖, ‖A‖ estimated by the largest Ritz value in
// magnitude; start vectors from s.Src, so runs are reproducible.
//
// Smallest eigenpairs, e.g. of a graph Laplacian, are found from the same
// Krylov space as the largest: a plain spectral transform σI − L leaves that
// space unchanged and so gains nothing for Lanczos (it only helps power or
// subspace iteration). Shift-invert would need few outer steps but either a
// sparse Cholesky factorisation (fill-in; gonum has none) or an inner
// conjugate-gradient solve whose iteration count grows with the same
// √(λ_max/gap) as Lanczos itself, so it is not faster without a good
// preconditioner. What does cost is Lanczos's full reorthogonalisation when
// the wanted end is clustered (hundreds of basis vectors at O(n·m) each), so
// for a *CSR with n ≥ 500 Lanczos runs on a Chebyshev polynomial filter of
// the matrix (see chebyshev.go): d = 32 cheap sparse products per basis
// vector, about a fifth of the basis, and a final Rayleigh–Ritz check with
// the matrix itself. Measured: BenchmarkEigenLaplacianBottom3. Eigenvalues
// of multiplicity above the block size may be missed (one Krylov vector per
// eigenspace per block column); set BlockSize to the expected multiplicity
// (e.g. the number of components of a disconnected graph).
//
// A product holding a NaN or ±Inf stops the iteration with an error
// wrapping ErrNaN that names the product and the entry.
//
// With EigenDense (or EigenAuto at small n) the operator is materialised
// column by column, n products.
func EigenSymOp(op SymOperator, k int, end EigenEnd, s *EigenSettings) (vals []float64, vecs *mat.Dense, err error) {
	return eigenSymOp(context.Background(), op, nil, k, end, s)
}

// EigenSymOpContext is EigenSymOp under ctx (see EigenSymContext).
func EigenSymOpContext(ctx context.Context, op SymOperator, k int, end EigenEnd, s *EigenSettings) (vals []float64, vecs *mat.Dense, err error) {
	return eigenSymOp(ctx, op, nil, k, end, s)
}

func eigenSymOp(ctx context.Context, op SymOperator, dense mat.Symmetric, k int, end EigenEnd, s *EigenSettings) ([]float64, *mat.Dense, error) {
	n := op.Size()
	if k < 1 || k > n {
		panic(fmt.Sprintf("dimred: EigenSym k = %d outside [1, %d]", k, n))
	}
	if s == nil {
		s = &EigenSettings{}
	}
	s.check()
	if end != Largest && end != Smallest {
		panic("dimred: EigenSym end must be Largest or Smallest")
	}
	method := s.Method
	if method == EigenAuto {
		switch c, isCSR := op.(*CSR); {
		case PreferDense(n, k):
			method = EigenDense
		case isCSR && c.N >= chebMinN && k <= n/20:
			method = EigenChebyshev
		default:
			method = EigenLanczos
		}
	}
	if err := progress.Check(ctx, "eigensolver"); err != nil {
		return nil, nil, err
	}
	if method == EigenDense {
		if dense == nil {
			dense = materialise(op)
		}
		vals, vecs, err := eigenDense(dense, k, end)
		if err == nil {
			err = progress.Check(ctx, "eigensolver")
		}
		return vals, vecs, err
	}
	if dense != nil {
		if err := checkFiniteSym(dense, "A"); err != nil {
			return nil, nil, err
		}
		if a, sc := symUnitScale(dense); sc != 1 {
			// Lanczos squares entries (norms, residuals): at 1e300 they
			// overflowed and it reported ErrNotConverged with residual
			// +Inf. Solve for A/sc (exact, a power of two) and scale the
			// eigenvalues back; one beyond float64 is ErrOverflow.
			vals, vecs, err := eigenSymOp(ctx, symDenseOp{a}, a, k, end, s)
			for i, v := range vals {
				if vals[i] = v * sc; math.IsInf(vals[i], 0) {
					return nil, nil, fmt.Errorf("%w: eigenvalue %d of A is %.4g·%.4g, beyond float64", ErrOverflow, i+1, v, sc)
				}
			}
			return vals, vecs, err
		}
		op = DenseOperator(dense)
	}
	p := lanczosParams{tol: s.Tol, maxProducts: s.MaxProducts, block: s.BlockSize}
	if p.tol <= 0 {
		p.tol = 1e-10
	}
	if p.maxProducts <= 0 {
		p.maxProducts = max(20000, 10*n)
		if _, isCSR := op.(*CSR); s.Method == EigenAuto && !isCSR && n <= autoDenseFallback {
			// Past about the dense solve's cost, fall back to it
			// (policy.go): no size pays much more than the dense route.
			p.maxProducts = DenseEquivalentProducts(n)
		}
	}
	_, blockFast := op.(blockOperator)
	if p.block <= 0 {
		if blockFast {
			p.block = min(max(k, 2), 8)
		} else {
			p.block = min(k, 4)
		}
	}
	p.ncv = max(2*k+4*p.block, k+48)
	p.rnd = rand.New(rng.FitSource(s.Src))
	ph, err := progress.Start(ctx, "eigensolver", p.maxProducts)
	if err != nil {
		return nil, nil, err
	}
	p.ph = ph
	if c, ok := op.(*CSR); ok && method == EigenChebyshev {
		vals, vecs, err := chebyshevLanczos(c, k, end, p)
		if e := ph.Err(); e != nil {
			return nil, nil, e
		}
		if !errors.Is(err, errChebUnsuitable) {
			return vals, vecs, err
		}
	}
	vals, vecs, err := blockLanczos(op, k, end, p)
	if e := ph.Err(); e != nil {
		return nil, nil, e
	}
	if err != nil && !errors.Is(err, ErrNaN) && s.Method == EigenAuto && n <= autoDenseFallback {
		if dense == nil {
			dense = materialise(op)
		}
		return eigenDense(dense, k, end)
	}
	return vals, vecs, err
}

// materialise forms the n×n matrix of op column by column.
func materialise(op SymOperator) *mat.SymDense {
	n := op.Size()
	a := mat.NewSymDense(n, nil)
	e := make([]float64, n)
	col := make([]float64, n)
	for j := 0; j < n; j++ {
		e[j] = 1
		op.MulVecTo(col, e)
		e[j] = 0
		for i := 0; i <= j; i++ {
			a.SetSym(i, j, col[i])
		}
	}
	return a
}

// eigenDense computes the full decomposition with mat.EigenSym and keeps k
// pairs at the requested end.
func eigenDense(a mat.Symmetric, k int, end EigenEnd) ([]float64, *mat.Dense, error) {
	if err := errs.CheckFinite(a, "A"); err != nil {
		return nil, nil, err
	}
	var es mat.EigenSym
	if !es.Factorize(a, true) {
		return nil, nil, fmt.Errorf("%w: dense symmetric eigendecomposition failed", ErrNotConverged)
	}
	all := es.Values(nil) // ascending
	var ev mat.Dense
	es.VectorsTo(&ev)
	n := len(all)
	idx := ritzOrder(all, end)[:k]
	vals := make([]float64, k)
	vecs := mat.NewDense(n, k, nil)
	for c, j := range idx {
		vals[c] = all[j]
		if math.IsInf(vals[c], 0) || math.IsNaN(vals[c]) {
			return nil, nil, fmt.Errorf("%w: eigenvalue %d of A is %v (A's entries are finite)", ErrOverflow, c+1, vals[c])
		}
		for i := 0; i < n; i++ {
			vecs.Set(i, c, ev.At(i, j))
		}
	}
	FixSigns(vecs)
	return vals, vecs, nil
}

// FixSigns flips each column of v so that its entry of largest magnitude is
// positive (ties: the first such entry), the package's sign convention, and
// reports which columns it flipped (so that paired factors, such as the U of
// an SVD, can be flipped alike).
func FixSigns(v *mat.Dense) (flipped []bool) {
	r, c := v.Dims()
	flipped = make([]bool, c)
	for j := 0; j < c; j++ {
		best, bi := -1.0, 0
		for i := 0; i < r; i++ {
			if a := math.Abs(v.At(i, j)); a > best+1e-12*math.Max(1, best) {
				best, bi = a, i
			}
		}
		if v.At(bi, j) < 0 {
			flipped[j] = true
			for i := 0; i < r; i++ {
				v.Set(i, j, -v.At(i, j))
			}
		}
	}
	return flipped
}

// checkFiniteSym is errs.CheckFinite for a symmetric matrix, reading the stored
// upper triangle of a raw SymDense directly.
func checkFiniteSym(a mat.Symmetric, what string) error {
	rs, ok := a.(mat.RawSymmetricer)
	if !ok {
		return errs.CheckFinite(a, what)
	}
	r := rs.RawSymmetric()
	if r.Uplo != blas.Upper {
		return errs.CheckFinite(a, what)
	}
	for i := 0; i < r.N; i++ {
		row := r.Data[i*r.Stride+i : i*r.Stride+r.N]
		// v*0 is 0 for finite v and NaN for ±Inf or NaN, so one
		// branch-free pass flags a row holding any non-finite entry.
		s := 0.0
		for _, v := range row {
			s += v * 0
		}
		if s != 0 || math.IsNaN(s) {
			for j, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("%w: %s[%d,%d] = %v", ErrNaN, what, i, i+j, v)
				}
			}
		}
	}
	return nil
}

// symUnitScale is UnitScale for a symmetric matrix: a/2^e and 2^e when its
// largest |a_ij| lies outside 2^±400, otherwise a and 1.
func symUnitScale(a mat.Symmetric) (mat.Symmetric, float64) {
	n := a.SymmetricDim()
	m := 0.0
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			m = math.Max(m, math.Abs(a.At(i, j)))
		}
	}
	if m == 0 || math.IsNaN(m) || math.IsInf(m, 0) || (m < 0x1p+400 && m > 0x1p-400) {
		return a, 1
	}
	_, e := math.Frexp(m)
	e--
	out := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			out.SetSym(i, j, math.Ldexp(a.At(i, j), -e))
		}
	}
	return out, math.Ldexp(1, e)
}
