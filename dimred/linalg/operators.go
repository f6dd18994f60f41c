package linalg

import (
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/internal/vec"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// blockOperator is implemented by operators that can apply themselves to a
// block of b vectors at once, far faster per vector than b calls of MulVecTo
// for dense matrices (one pass over A per block). x and dst are b×n,
// row-major: row v is the v-th vector. They do not overlap.
type blockOperator interface {
	mulBlockTo(dst, x []float64, b int)
}

// mulBlock applies op to the b vectors stored as rows of x.
func mulBlock(op SymOperator, dst, x []float64, b int) {
	if bo, ok := op.(blockOperator); ok {
		bo.mulBlockTo(dst, x, b)
		return
	}
	n := op.Size()
	for v := 0; v < b; v++ {
		op.MulVecTo(dst[v*n:(v+1)*n], x[v*n:(v+1)*n])
	}
}

// DenseOperator returns a as a SymOperator whose products read only the
// stored upper triangle, once per block of vectors, on all cores (see
// upperSymOp). Use it to compose implicit operators, e.g.
// DoubleCentred{A: DenseOperator(D)}. A matrix that does not expose an
// upper-triangle raw storage is applied through mat.SymDense products.
func DenseOperator(a mat.Symmetric) SymOperator {
	if rs, ok := a.(mat.RawSymmetricer); ok {
		r := rs.RawSymmetric()
		if r.Uplo == blas.Upper {
			return newUpperSymOp(r)
		}
	}
	return symDenseOp{a}
}

// upperSymOp is the symmetric matrix A held in the upper triangle of a
// row-major n×n array, optionally centred implicitly,
//
//	K̃x = Kx − 1(k̄ᵀx) − k̄(1ᵀx) + k̄(1ᵀx)1,   K̃ = H K H,
//
// with k̄ the column means of K and k̄ (grand) their mean, so H K H is never
// formed (KernelPCA sets mean and grand; DenseOperator leaves them unset).
//
// A block of vectors is applied in one pass over the triangle: row i of the
// triangle serves both as row i (a dot product with x) and, by symmetry, as
// column i (an axpy into the later entries of the result). Rows are split
// between the cores so each gets an equal share of the triangle; each core
// accumulates into its own buffer and the buffers are summed. Every matrix
// entry is read from memory once per block, which for the few vectors of a
// top-q Lanczos run is 2–3× faster than tiled GEMM over the triangle.
// The operator holds no mutable state, so it may be shared between
// goroutines.
type upperSymOp struct {
	a         []float64
	n, stride int
	mean      []float64 // k̄ for implicit centring; nil for none
	grand     float64   // k̄, the grand mean
}

// newUpperSymOp returns the uncentred operator for the upper triangle of a.
func newUpperSymOp(a blas64.Symmetric) *upperSymOp {
	return &upperSymOp{a: a.Data, n: a.N, stride: a.Stride}
}

// CentredDenseOperator returns the operator of the doubly centred matrix
//
//	Ã = A − 1 āᵀ − ā 1ᵀ + ā̄ 1 1ᵀ,  ā_i = n⁻¹ Σ_j A_ij,  ā̄ = n⁻² Σ_ij A_ij,
//
// (Ã = H A H with H = I − n⁻¹ 1 1ᵀ) applied to vectors from the stored
// upper triangle of a without forming Ã: the row means ā and the grand mean
// ā̄ are given by the caller, who usually has them already. Block products
// stream the triangle once per block on all cores. len(rowMean) must be n.
func CentredDenseOperator(a *mat.SymDense, rowMean []float64, grand float64) SymOperator {
	raw := a.RawSymmetric()
	if raw.Uplo != blas.Upper {
		panic("dimred: CentredDenseOperator needs an upper-triangular SymDense")
	}
	if len(rowMean) != raw.N {
		panic(mat.ErrShape)
	}
	op := newUpperSymOp(raw)
	op.mean, op.grand = rowMean, grand
	return op
}

// The eigensolver applies block-capable operators to whole blocks; fail
// the build, not the speed, if that interface changes.
var _ blockOperator = (*upperSymOp)(nil)

// Size returns n.
func (o *upperSymOp) Size() int { return o.n }

// MulVecTo sets dst = A x.
func (o *upperSymOp) MulVecTo(dst, x []float64) { o.mulBlockTo(dst, x, 1) }

// mulBlockTo sets dst = A x for the b vectors stored as rows of x (b×n,
// row-major); it implements the eigensolver's block-product interface.
func (o *upperSymOp) mulBlockTo(dst, x []float64, b int) {
	n, s := o.n, o.stride
	if n == 0 {
		return
	}
	w := parallel.UpperTriWorkers(n)
	// Worker 0 accumulates into dst, the others into their own buffers.
	acc := make([][]float64, w)
	acc[0] = dst[:b*n]
	for i := range acc[0] {
		acc[0][i] = 0
	}
	for t := 1; t < w; t++ {
		acc[t] = make([]float64, b*n)
	}
	parallel.Do(w, func(t int) {
		// Equal shares of the triangle: rows [n(1−√(1−t/w)), n(1−√(1−(t+1)/w))).
		lo, hi := parallel.TriBounds(n, w, t), parallel.TriBounds(n, w, t+1)
		acc := acc[t]
		for i := lo; i < hi; i++ {
			d := o.a[i*s+i]
			row := o.a[i*s+i+1 : i*s+n]
			// Row i of the triangle gives (Ax)_i its entries right of the
			// diagonal and, by symmetry, adds x_i a_ij to (Ax)_j; vectors
			// in pairs, so that the row is read once per pair.
			v := 0
			for ; v+2 <= b; v += 2 {
				x0, x1 := x[v*n:v*n+n], x[(v+1)*n:(v+1)*n+n]
				a0, a1 := acc[v*n:v*n+n], acc[(v+1)*n:(v+1)*n+n]
				d0, d1 := vec.DotAxpy2(a0[i+1:], a1[i+1:], x0[i], x1[i], row, x0[i+1:], x1[i+1:])
				a0[i] += d*x0[i] + d0
				a1[i] += d*x1[i] + d1
			}
			for ; v < b; v++ {
				xv := x[v*n : v*n+n]
				av := acc[v*n : v*n+n]
				av[i] += d*xv[i] + vec.DotAxpy(av[i+1:], xv[i], row, xv[i+1:])
			}
		}
	})
	for t := 1; t < w; t++ {
		floats.Add(dst[:b*n], acc[t])
	}
	if o.mean == nil {
		return
	}
	// Implicit centring: K̃x = Kx − 1(k̄ᵀx) − k̄(1ᵀx) + k̄(1ᵀx)1.
	for v := 0; v < b; v++ {
		xv, yv := x[v*n:v*n+n], dst[v*n:v*n+n]
		sum := vec.Sum(xv)
		c := o.grand*sum - floats.Dot(o.mean, xv)
		floats.AddScaled(yv, -sum, o.mean)
		for i := range yv {
			yv[i] += c
		}
	}
}

// DoubleCentred is the implicit operator B = −½ H A H, with H = I − n⁻¹ 1 1ᵀ
// the centring matrix, applied as
//
//	B x = −½ (z − mean(z) 1),  z = A (x − mean(x) 1),
//
// so H is never formed and a product costs one product with A plus O(n).
// For A = D, the matrix of squared distances d_ij = ‖y_i − y_j‖², B is the
// centred inner-product matrix Ŷ Ŷᵀ of classical MDS (book Ch. 3); its top
// eigenvectors give the MDS embedding through EigenSymOp. Wrap a dense D
// with DenseOperator to keep its fast block products.
type DoubleCentred struct {
	A SymOperator
}

// Size returns n.
func (d DoubleCentred) Size() int { return d.A.Size() }

// MulVecTo sets dst = −½ H A H x.
func (d DoubleCentred) MulVecTo(dst, x []float64) { d.mulBlockTo(dst, x, 1) }

func (d DoubleCentred) mulBlockTo(dst, x []float64, b int) {
	n := d.A.Size()
	hx := make([]float64, b*n)
	copy(hx, x)
	centreRows(hx, b, n)
	mulBlock(d.A, dst, hx, b)
	centreRows(dst, b, n)
	for i := range dst[:b*n] {
		dst[i] *= -0.5
	}
}

// centreRows subtracts from each of the b rows of length n its mean.
func centreRows(x []float64, b, n int) {
	for v := 0; v < b; v++ {
		row := x[v*n : (v+1)*n]
		s := 0.0
		for _, e := range row {
			s += e
		}
		m := s / float64(n)
		for i := range row {
			row[i] -= m
		}
	}
}
