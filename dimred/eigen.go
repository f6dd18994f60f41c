package dimred

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

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
	// EigenAuto uses the dense solver for small n and an iterative solver
	// above a measured crossover.
	EigenAuto EigenMethod = iota
	// EigenDense uses a full dense decomposition (mat.EigenSym).
	EigenDense
	// EigenLanczos uses the iterative partial solver.
	EigenLanczos
)

// EigenSettings tunes EigenSym. The zero value (or nil) selects defaults.
type EigenSettings struct {
	Method  EigenMethod
	Tol     float64     // residual tolerance ‖Av − λv‖ ≤ Tol·‖A‖; default 1e-10
	MaxIter int         // iteration limit of the iterative solver; 0 means a default
	Src     rand.Source // start vectors; nil means a fixed seed
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
func EigenSym(a mat.Symmetric, k int, end EigenEnd, s *EigenSettings) (vals []float64, vecs *mat.Dense, err error) {
	return eigenSymOp(symDenseOp{a}, a, k, end, s)
}

// EigenSymOp is EigenSym for an operator given by its action.
func EigenSymOp(op SymOperator, k int, end EigenEnd, s *EigenSettings) (vals []float64, vecs *mat.Dense, err error) {
	return eigenSymOp(op, nil, k, end, s)
}

func eigenSymOp(op SymOperator, dense mat.Symmetric, k int, end EigenEnd, s *EigenSettings) ([]float64, *mat.Dense, error) {
	n := op.Size()
	if k < 1 || k > n {
		panic(fmt.Sprintf("dimred: EigenSym k = %d outside [1, %d]", k, n))
	}
	if dense == nil {
		dense = materialise(op)
	}
	return eigenDense(dense, k, end)
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
	if err := checkFinite(a, "A"); err != nil {
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
	idx := make([]int, k)
	for i := range idx {
		if end == Largest {
			idx[i] = n - 1 - i
		} else {
			idx[i] = i
		}
	}
	vals := make([]float64, k)
	vecs := mat.NewDense(n, k, nil)
	for c, j := range idx {
		vals[c] = all[j]
		for i := 0; i < n; i++ {
			vecs.Set(i, c, ev.At(i, j))
		}
	}
	fixSigns(vecs)
	return vals, vecs, nil
}

// fixSigns flips each column of v so that its entry of largest magnitude is
// positive (ties: the first such entry), the package's sign convention.
func fixSigns(v *mat.Dense) {
	r, c := v.Dims()
	for j := 0; j < c; j++ {
		best, bi := -1.0, 0
		for i := 0; i < r; i++ {
			if a := math.Abs(v.At(i, j)); a > best+1e-12*math.Max(1, best) {
				best, bi = a, i
			}
		}
		if v.At(bi, j) < 0 {
			for i := 0; i < r; i++ {
				v.Set(i, j, -v.At(i, j))
			}
		}
	}
}

// sortDesc sorts vals descending and permutes the columns of vecs alike.
func sortDesc(vals []float64, vecs *mat.Dense) {
	k := len(vals)
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return vals[idx[a]] > vals[idx[b]] })
	r, _ := vecs.Dims()
	v2 := make([]float64, k)
	m2 := mat.NewDense(r, k, nil)
	for c, j := range idx {
		v2[c] = vals[j]
		m2.Slice(0, r, c, c+1).(*mat.Dense).Copy(vecs.Slice(0, r, j, j+1))
	}
	copy(vals, v2)
	vecs.Copy(m2)
}
