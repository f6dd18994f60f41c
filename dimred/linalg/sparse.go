package linalg

import (
	"fmt"
	"math"
	"sort"

	"github.com/dimredbook/book/dimred/internal/parallel"

	"gonum.org/v1/gonum/mat"
)

// CSR is a sparse n×n matrix in compressed sparse row form: the entries of
// row i are Val[RowPtr[i]:RowPtr[i+1]] in columns Col[RowPtr[i]:RowPtr[i+1]],
// columns strictly ascending within a row. It is the package's neighbourhood
// graph (W_ij = weight of edge i–j; an undirected graph stores both i→j and
// j→i) and Laplacian type. A symmetric CSR is a SymOperator, so EigenSymOp
// takes it directly; its products use all cores for large n.
//
// CSR also implements mat.Matrix (At by binary search within a row) for
// inspection and small tests; use MulVecTo, not mat.Dense.Mul, for speed.
type CSR struct {
	N      int
	RowPtr []int
	Col    []int
	Val    []float64
}

// Check panics with a "dimred: CSR ..." message unless c is a well-formed
// n×n CSR matrix: N ≥ 0, len(RowPtr) = N+1, RowPtr[0] = 0, RowPtr
// non-decreasing, RowPtr[N] = len(Col) = len(Val), and every column index
// in [0, N). A hand-built CSR such as &CSR{N: 3} (no RowPtr) is a
// programmer error; the graph functions call Check before indexing it.
func (c *CSR) Check() {
	if c == nil {
		panic("dimred: CSR is nil")
	}
	if c.N < 0 {
		panic(fmt.Sprintf("dimred: CSR N = %d is negative", c.N))
	}
	if c.N == 0 && len(c.RowPtr) == 0 {
		return // the zero CSR: a 0×0 matrix
	}
	if len(c.RowPtr) != c.N+1 {
		panic(fmt.Sprintf("dimred: CSR with N = %d has len(RowPtr) = %d, want N+1 = %d", c.N, len(c.RowPtr), c.N+1))
	}
	if c.RowPtr[0] != 0 {
		panic(fmt.Sprintf("dimred: CSR RowPtr[0] = %d, want 0", c.RowPtr[0]))
	}
	for i := 0; i < c.N; i++ {
		if c.RowPtr[i+1] < c.RowPtr[i] {
			panic(fmt.Sprintf("dimred: CSR RowPtr decreases at row %d (%d > %d)", i, c.RowPtr[i], c.RowPtr[i+1]))
		}
	}
	if nnz := c.RowPtr[c.N]; len(c.Col) != nnz || len(c.Val) != nnz {
		panic(fmt.Sprintf("dimred: CSR RowPtr[N] = %d entries but len(Col) = %d, len(Val) = %d", nnz, len(c.Col), len(c.Val)))
	}
	for t, j := range c.Col {
		if j < 0 || j >= c.N {
			panic(fmt.Sprintf("dimred: CSR column index Col[%d] = %d outside [0, %d)", t, j, c.N))
		}
	}
}

// NewCSR builds the n×n CSR matrix with entries v[t] at (i[t], j[t]);
// duplicate positions are summed. Indices out of range panic.
func NewCSR(n int, i, j []int, v []float64) *CSR {
	if len(i) != len(j) || len(i) != len(v) {
		panic("dimred: NewCSR triplet slices of different lengths")
	}
	count := make([]int, n+1)
	for t, r := range i {
		if r < 0 || r >= n || j[t] < 0 || j[t] >= n {
			panic(fmt.Sprintf("dimred: NewCSR entry (%d, %d) outside %d×%d", r, j[t], n, n))
		}
		count[r+1]++
	}
	for r := 0; r < n; r++ {
		count[r+1] += count[r]
	}
	col := make([]int, len(i))
	val := make([]float64, len(i))
	next := append([]int(nil), count[:n]...)
	for t, r := range i {
		col[next[r]] = j[t]
		val[next[r]] = v[t]
		next[r]++
	}
	// Sort each row by column and merge duplicates.
	c := &CSR{N: n, RowPtr: make([]int, n+1)}
	c.Col = col[:0]
	c.Val = val[:0]
	out := 0
	for r := 0; r < n; r++ {
		lo, hi := count[r], count[r+1]
		rs := rowSorter{col[lo:hi], val[lo:hi]}
		if !sort.IsSorted(rs) {
			sort.Sort(rs)
		}
		for t := lo; t < hi; t++ {
			if out > c.RowPtr[r] && col[out-1] == col[t] {
				val[out-1] += val[t]
				continue
			}
			col[out], val[out] = col[t], val[t]
			out++
		}
		c.RowPtr[r+1] = out
	}
	c.Col = col[:out]
	c.Val = val[:out]
	return c
}

type rowSorter struct {
	c []int
	v []float64
}

func (r rowSorter) Len() int           { return len(r.c) }
func (r rowSorter) Less(a, b int) bool { return r.c[a] < r.c[b] }
func (r rowSorter) Swap(a, b int) {
	r.c[a], r.c[b] = r.c[b], r.c[a]
	r.v[a], r.v[b] = r.v[b], r.v[a]
}

// Size returns n (SymOperator).
func (c *CSR) Size() int { return c.N }

// Dims returns n, n (mat.Matrix).
func (c *CSR) Dims() (int, int) { return c.N, c.N }

// At returns entry (i, j), zero where none is stored.
func (c *CSR) At(i, j int) float64 {
	if i < 0 || i >= c.N || j < 0 || j >= c.N {
		panic(mat.ErrIndexOutOfRange)
	}
	cols := c.Col[c.RowPtr[i]:c.RowPtr[i+1]]
	k := sort.SearchInts(cols, j)
	if k < len(cols) && cols[k] == j {
		return c.Val[c.RowPtr[i]+k]
	}
	return 0
}

// T returns the transpose as a mat.Matrix (an implicit view).
func (c *CSR) T() mat.Matrix { return mat.Transpose{Matrix: c} }

// NNZ returns the number of stored entries. The zero value CSR{} is the
// empty 0×0 matrix.
func (c *CSR) NNZ() int {
	if len(c.RowPtr) == 0 {
		return 0
	}
	return c.RowPtr[c.N]
}

// Row returns the column indices and values of row i (views, not copies).
func (c *CSR) Row(i int) (cols []int, vals []float64) {
	lo, hi := c.RowPtr[i], c.RowPtr[i+1]
	return c.Col[lo:hi], c.Val[lo:hi]
}

// RowSums returns Σ_j A_ij for each row: the degrees d_i of a weight matrix.
func (c *CSR) RowSums() []float64 {
	d := make([]float64, c.N)
	for i := range d {
		s := 0.0
		for _, v := range c.Val[c.RowPtr[i]:c.RowPtr[i+1]] {
			s += v
		}
		d[i] = s
	}
	return d
}

// IsSymmetric reports whether A_ij = A_ji for every stored entry, to within
// tol·max(|A_ij|, |A_ji|).
func (c *CSR) IsSymmetric(tol float64) bool {
	for i := 0; i < c.N; i++ {
		cols, vals := c.Row(i)
		for t, j := range cols {
			a, b := vals[t], c.At(j, i)
			if math.Abs(a-b) > tol*math.Max(math.Abs(a), math.Abs(b)) {
				return false
			}
		}
	}
	return true
}

// Map returns a copy of c with every stored value v replaced by f(i, j, v),
// e.g. heat-kernel weights exp(−d²/t) from a graph of distances.
func (c *CSR) Map(f func(i, j int, v float64) float64) *CSR {
	out := &CSR{N: c.N, RowPtr: append([]int(nil), c.RowPtr...), Col: append([]int(nil), c.Col...), Val: make([]float64, len(c.Val))}
	for i := 0; i < c.N; i++ {
		for t := c.RowPtr[i]; t < c.RowPtr[i+1]; t++ {
			out.Val[t] = f(i, c.Col[t], c.Val[t])
		}
	}
	return out
}

// MulVecTo sets dst = A x (SymOperator). Rows are split over GOMAXPROCS
// goroutines when the product touches at least parallel.Grain entries.
func (c *CSR) MulVecTo(dst, x []float64) {
	if len(dst) != c.N || len(x) != c.N {
		panic(mat.ErrShape)
	}
	c.mulBlockTo(dst, x, 1)
}

func (c *CSR) mulBlockTo(dst, x []float64, b int) {
	n := c.N
	f := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			s, e := c.RowPtr[i], c.RowPtr[i+1]
			cols, vals := c.Col[s:e], c.Val[s:e]
			for v := 0; v < b; v++ {
				xv := x[v*n : (v+1)*n]
				sum := 0.0
				for t, j := range cols {
					sum += vals[t] * xv[j]
				}
				dst[v*n+i] = sum
			}
		}
	}
	if c.NNZ()*b < parallel.Grain {
		f(0, n)
		return
	}
	parallel.For(n, 256, f)
}

// MulTransVecTo sets dst = Aᵀ x (serial; for a symmetric A use MulVecTo).
func (c *CSR) MulTransVecTo(dst, x []float64) {
	if len(dst) != c.N || len(x) != c.N {
		panic(mat.ErrShape)
	}
	for i := range dst {
		dst[i] = 0
	}
	for i := 0; i < c.N; i++ {
		xi := x[i]
		if xi == 0 {
			continue
		}
		for t := c.RowPtr[i]; t < c.RowPtr[i+1]; t++ {
			dst[c.Col[t]] += c.Val[t] * xi
		}
	}
}

// MulTrans returns the sparse product Aᵀ B of two n×n CSR matrices, e.g.
// LLE's M = (I − W)ᵀ (I − W), which is then a symmetric CSR whose bottom
// eigenvectors EigenSymOp finds with the sparse (Chebyshev-filtered) path.
// Cost: Σ_r nnz(A_r)·nnz(B_r) triplets, n·(k+1)² for LLE weights.
func (c *CSR) MulTrans(b *CSR) *CSR {
	if c.N != b.N {
		panic(mat.ErrShape)
	}
	var ii, jj []int
	var vv []float64
	for r := 0; r < c.N; r++ {
		ac, av := c.Row(r)
		bc, bv := b.Row(r)
		for s, i := range ac {
			for t, j := range bc {
				ii, jj, vv = append(ii, i), append(jj, j), append(vv, av[s]*bv[t])
			}
		}
	}
	return NewCSR(c.N, ii, jj, vv)
}
