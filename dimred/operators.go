package dimred

import (
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// blockOperator is implemented by operators that can apply themselves to a
// block of b vectors at once, far faster per vector than b calls of MulVecTo
// for dense matrices (one pass over A, BLAS-3 kernels). x and dst are b×n,
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

// parallelFor runs f(lo, hi) over [0, n) split into at most GOMAXPROCS
// contiguous chunks of at least minChunk items, and waits.
func parallelFor(n, minChunk int, f func(lo, hi int)) {
	p := runtime.GOMAXPROCS(0)
	if minChunk < 1 {
		minChunk = 1
	}
	if c := n / minChunk; c < p {
		p = c
	}
	if p <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for t := 0; t < p; t++ {
		lo, hi := t*n/p, (t+1)*n/p
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

// denseSymOp is a SymOperator for a dense symmetric matrix held in upper
// triangular storage (mat.SymDense). Products read only the stored upper
// triangle, tile by tile, so no full copy of A is made; work is split over
// column tiles of the result across GOMAXPROCS goroutines.
type denseSymOp struct {
	a blas64.Symmetric
}

// DenseOperator returns a as a SymOperator whose products use both the
// stored triangle only and all cores (tiled BLAS-3 kernels). Use it to
// compose implicit operators, e.g. DoubleCentred{A: DenseOperator(D)}.
func DenseOperator(a mat.Symmetric) SymOperator {
	if rs, ok := a.(mat.RawSymmetricer); ok {
		r := rs.RawSymmetric()
		if r.Uplo == blas.Upper {
			return denseSymOp{a: r}
		}
	}
	return symDenseOp{a}
}

func (o denseSymOp) Size() int { return o.a.N }

func (o denseSymOp) MulVecTo(dst, x []float64) { o.mulBlockTo(dst, x, 1) }

const symTile = 256

// mulBlockTo computes Dᵀ = Xᵀ A for the b×n row blocks X, D, i.e. D = A X
// with vectors as rows. For output column tile J,
//
//	D[:, J] = Σ_{I≤J} X[:, I] A[I, J] + Σ_{I>J} X[:, I] A[J, I]ᵀ,
//
// where only the upper tiles A[I, J], I ≤ J, are read; the diagonal tile uses
// dsymm.
func (o denseSymOp) mulBlockTo(dst, x []float64, b int) {
	n := o.a.N
	if n == 0 {
		return
	}
	nt := (n + symTile - 1) / symTile
	a := o.a
	parallelFor(nt, 1, func(lo, hi int) {
		for jt := lo; jt < hi; jt++ {
			j0, j1 := jt*symTile, min(n, (jt+1)*symTile)
			w := j1 - j0
			C := blas64.General{Rows: b, Cols: w, Stride: n, Data: dst[j0:]}
			for v := 0; v < b; v++ {
				row := dst[v*n+j0 : v*n+j1]
				for i := range row {
					row[i] = 0
				}
			}
			for it := 0; it < nt; it++ {
				i0, i1 := it*symTile, min(n, (it+1)*symTile)
				h := i1 - i0
				X := blas64.General{Rows: b, Cols: h, Stride: n, Data: x[i0:]}
				switch {
				case it < jt:
					T := blas64.General{Rows: h, Cols: w, Stride: a.Stride, Data: a.Data[i0*a.Stride+j0:]}
					blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, X, T, 1, C)
				case it > jt:
					T := blas64.General{Rows: w, Cols: h, Stride: a.Stride, Data: a.Data[j0*a.Stride+i0:]}
					blas64.Gemm(blas.NoTrans, blas.Trans, 1, X, T, 1, C)
				default:
					S := blas64.Symmetric{N: w, Stride: a.Stride, Data: a.Data[j0*a.Stride+j0:], Uplo: blas.Upper}
					blas64.Symm(blas.Right, 1, S, X, 1, C)
				}
			}
		}
	})
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
