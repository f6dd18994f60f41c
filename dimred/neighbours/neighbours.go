package neighbours

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/kdtree"
)

// Neighbours holds each point's k nearest neighbours (the point itself
// excluded), nearest first. Neighbours are ranked by the squared distance
// Σ_c (y_ic − y_jc)² evaluated in float64 in column order (exact for
// integer-valued data), ties broken by lower index, whichever search
// found them.
type Neighbours struct {
	N, K  int
	Index []int     // n·k; Index[i*K+m] is the m-th nearest neighbour of point i
	Dist  []float64 // n·k Euclidean distances ‖y_i − y_j‖ (not squared)
}

// Of returns point i's neighbour indices and distances (views).
func (nb *Neighbours) Of(i int) ([]int, []float64) {
	return nb.Index[i*nb.K : (i+1)*nb.K], nb.Dist[i*nb.K : (i+1)*nb.K]
}

// Search holds the settings of the neighbour searches KNearest, KNNGraph
// and EpsilonGraph; the zero value selects the defaults, and the package
// functions of the same names use it.
type Search struct {
	// KDTreeMaxDim is the largest dimension p for which gonum's kd-tree is
	// used; above it the search uses blocked distances (brute force, n²p
	// flops at matrix-product speed, half of them thanks to symmetry).
	// 0 means DefaultKDTreeMaxDim; a negative value never uses the tree.
	// The kd-tree's cost grows with the intrinsic dimension of the data
	// and only as n log n, the BLAS path's as n²p, so data on a
	// low-dimensional manifold, or much larger n, favour the kd-tree beyond
	// the default (BenchmarkKNearestDim).
	KDTreeMaxDim int
}

// DefaultKDTreeMaxDim is Search's default KDTreeMaxDim: the crossover for
// points that fill all p dimensions, the kd-tree's worst case.
const DefaultKDTreeMaxDim = 6

func (s Search) useTree(p int) bool {
	m := s.KDTreeMaxDim
	if m == 0 {
		m = DefaultKDTreeMaxDim
	}
	return p <= m
}

// knnBlockRows is the number of query rows per BLAS distance block.
const knnBlockRows = 256

// KNearest returns the k nearest neighbours of every row of Y (n×p) in
// Euclidean distance, excluding the point itself, with the default Search.
func KNearest(Y mat.Matrix, k int) (*Neighbours, error) { return Search{}.KNearest(Y, k) }

// KNearest returns the k nearest neighbours of every row of Y (n×p) in
// Euclidean distance, excluding the point itself. It uses a kd-tree when
// p ≤ KDTreeMaxDim and blocked BLAS distances otherwise, in parallel over
// query points on all cores. k must satisfy 1 ≤ k < n, else it panics. A
// NaN or Inf in Y is returned as ErrNaN. Duplicate points are neighbours at
// distance zero. Both searches rank candidates by the same directly
// computed squared distance (see Neighbours), ties broken by lower index:
// the result does not depend on the search, the BLAS or the number of
// cores. (Data such as (s + 85)/15 are not exact in binary, so distances
// equal in exact arithmetic can differ in their last bit and are then not
// ties; integer-valued data keep their ties.) Data of very large or very small scale are rescaled by a
// power of two before squaring, so a distance is finite whenever its true
// value is representable; one that is not is reported as ErrOverflow.
func (s Search) KNearest(Y mat.Matrix, k int) (*Neighbours, error) {
	return s.KNearestContext(context.Background(), Y, k)
}

// KNearestContext is KNearest under ctx: the search stops within one
// block of query rows once ctx is done, returning an error wrapping
// ctx.Err(), and reports the rows searched as the phase "k-nearest
// neighbours" to ctx's progress.Reporter.
func (s Search) KNearestContext(ctx context.Context, Y mat.Matrix, k int) (*Neighbours, error) {
	n, p := Y.Dims()
	if k < 1 || k >= n {
		panic(fmt.Sprintf("dimred: KNearest k = %d outside [1, %d)", k, n))
	}
	if p == 0 {
		panic("dimred: KNearest: Y has no columns (p = 0)")
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return nil, err
	}
	yd, scale := scaledCopy(Y)
	nb := &Neighbours{N: n, K: k, Index: make([]int, n*k), Dist: make([]float64, n*k)}
	ph, err := progress.Start(ctx, "k-nearest neighbours", n)
	if err != nil {
		return nil, err
	}
	if s.useTree(p) {
		knnKDTree(ph, yd, k, nb)
	} else {
		knnBrute(ph, yd, k, nb)
	}
	if err := ph.Err(); err != nil {
		return nil, err
	}
	if scale != 1 {
		for t, d := range nb.Dist {
			d *= scale
			if math.IsInf(d, 0) {
				return nil, fmt.Errorf("%w: distance from point %d to its neighbour %d exceeds the float64 range", ErrOverflow, t/k, nb.Index[t])
			}
			nb.Dist[t] = d
		}
	}
	return nb, nil
}

// scaledCopy returns a copy of Y, divided by a power of two when its
// scale is extreme (linalg.UnitScale), and the factor to multiply
// distances of the copy by (1 for data of ordinary scale, which are
// untouched).
func scaledCopy(Y mat.Matrix) (*mat.Dense, float64) {
	ys, scale := linalg.UnitScale(Y)
	return mat.DenseCopyOf(ys), scale
}

// kdPoint is a row of Y with its index, for gonum's kd-tree.
type kdPoint struct {
	x []float64
	i int
}

func (p kdPoint) Compare(c kdtree.Comparable, d kdtree.Dim) float64 {
	return p.x[d] - c.(kdPoint).x[d]
}
func (p kdPoint) Dims() int { return len(p.x) }
func (p kdPoint) Distance(c kdtree.Comparable) float64 {
	q := c.(kdPoint).x
	s := 0.0
	for d, v := range p.x {
		e := v - q[d]
		s += e * e
	}
	return s
}

type kdPoints []kdPoint

func (p kdPoints) Index(i int) kdtree.Comparable         { return p[i] }
func (p kdPoints) Len() int                              { return len(p) }
func (p kdPoints) Slice(start, end int) kdtree.Interface { return p[start:end] }
func (p kdPoints) Pivot(d kdtree.Dim) int {
	pl := kdPlane{p, d}
	return kdtree.Partition(pl, kdtree.MedianOfMedians(pl))
}

type kdPlane struct {
	p kdPoints
	d kdtree.Dim
}

func (pl kdPlane) Len() int           { return len(pl.p) }
func (pl kdPlane) Less(i, j int) bool { return pl.p[i].x[pl.d] < pl.p[j].x[pl.d] }
func (pl kdPlane) Swap(i, j int)      { pl.p[i], pl.p[j] = pl.p[j], pl.p[i] }
func (pl kdPlane) Slice(start, end int) kdtree.SortSlicer {
	return kdPlane{pl.p[start:end], pl.d}
}

func buildKDTree(yd *mat.Dense) (*kdtree.Tree, kdPoints) {
	n, _ := yd.Dims()
	pts := make(kdPoints, n)
	for i := range pts {
		pts[i] = kdPoint{x: yd.RawRowView(i), i: i}
	}
	orig := append(kdPoints(nil), pts...)
	return kdtree.New(pts, false), orig
}

type nbCand struct {
	d float64
	j int
}

func (a nbCand) less(b nbCand) bool { return a.d < b.d || a.d == b.d && a.j < b.j }

// knnBrute finds neighbours from blocks of squared distances
// ‖y_i‖² + ‖y_j‖² − 2 y_iᵀ y_j. Distances are symmetric, so only the blocks
// on and above the diagonal are computed (half the flops of a full
// product): the block of rows I against columns J ≥ I feeds the lists of
// the points in I (by rows) and of the points in J > I (by columns). On
// processors with AVX2 or AVX-512 the distances are formed and tested in
// registers (knnFused); elsewhere one product per row block
// (linalg.GemmNT, on all cores) is followed by the list updates in
// parallel, each goroutine owning a set of points (knnBruteGemm). The two
// give the same result, bit for bit.
//
// The expansion's round-off (about p·ε·(‖y_i‖² + ‖y_j‖²)) can reorder
// distances that are equal, or nearly so: it would decide ties, not the
// index. So each list keeps, besides its k best by the expansion, every
// candidate within twice a bound on that round-off of the k-th, and the
// final choice is made on the squared distances recomputed directly,
// Σ_c (y_ic − y_jc)² in column order — the kd-tree's arithmetic — ties
// broken by index. The extra candidates are few (only those at the k-th
// distance to within ~10⁻¹⁴ of the norms), so the fast path is kept.
func knnBrute(ph *progress.Phase, yd *mat.Dense, k int, nb *Neighbours) {
	if useFusedKNN {
		knnFused(ph, yd, k, nb)
		return
	}
	knnBruteGemm(ph, yd, k, nb)
}

// newLists returns the n empty candidate lists of the brute-force search
// for the squared norms sq of the rows of a copy of Y (n×p), each with
// its slack (see knnBrute).
func newLists(sq []float64, p, k int) []nbList {
	sqmax := 0.0
	for _, v := range sq {
		sqmax = math.Max(sqmax, v)
	}
	lists := make([]nbList, len(sq))
	// |expansion − exact| ≤ (2p+6)ε(‖y_i‖² + ‖y_j‖²) and |direct − exact|
	// ≤ 2pε(‖y_i‖² + ‖y_j‖²) (Higham, Accuracy and Stability of Numerical
	// Algorithms, §3.1: inner products, a bound that holds for any order
	// of summation); E is their sum with a factor 2 to spare, and a
	// candidate in the direct top k is within 2E of the k-th by the
	// expansion.
	const eps = 0x1p-53
	for i := range lists {
		e := 2 * float64(4*p+6) * eps * (sq[i] + sqmax)
		lists[i] = nbList{c: make([]nbCand, 0, k), worst: math.Inf(1), slack: 2 * e}
	}
	return lists
}

// knnBruteGemm is knnBrute on linalg.GemmNT's blocks of inner products,
// the lists updated by a scan of each block's rows and then of its
// columns.
func knnBruteGemm(ph *progress.Phase, yd *mat.Dense, k int, nb *Neighbours) {
	n, p := yd.Dims()
	sq := linalg.RowSquaredNorms(yd)
	yr := yd.RawMatrix()
	g := make([]float64, knnBlockRows*n)
	lists := newLists(sq, p, k)
	for r0 := 0; r0 < n; r0 += knnBlockRows {
		r1 := min(n, r0+knnBlockRows)
		// The row blocks are the search's unit of work: one block of
		// 256 rows against the rest costs 512·n·p flops.
		if ph.Add(r1-r0) != nil {
			return
		}
		h, w := r1-r0, n-r0
		q := blas64.General{Rows: h, Cols: p, Stride: yr.Stride, Data: yr.Data[r0*yr.Stride:]}
		rest := blas64.General{Rows: w, Cols: p, Stride: yr.Stride, Data: yr.Data[r0*yr.Stride:]}
		G := blas64.General{Rows: h, Cols: w, Stride: w, Data: g}
		linalg.GemmNT(1, q, rest, 0, G)
		// Rows of the block: candidates j ≥ r0.
		parallel.For(h, 16, func(lo, hi int) {
			sqr := sq[r0:]
			for ii := lo; ii < hi; ii++ {
				i := r0 + ii
				row := g[ii*w : (ii+1)*w]
				sqr := sqr[:len(row)]
				l := &lists[i]
				sqi, worst := sq[i], l.worst
				for jj, gj := range row {
					d := sqi + sqr[jj] - 2*gj
					// offer's own first test, here to spare the
					// call for the many candidates it rejects
					// (worst ≥ 0, so d ≤ worst unclamped is the
					// same test).
					if d > worst || jj == ii {
						continue
					}
					if d < 0 {
						d = 0
					}
					l.offer(d, r0+jj, k)
					worst = l.worst
				}
			}
		})
		// Columns beyond the block: candidates i ∈ [r0, r1).
		parallel.For(n-r1, 64, func(lo, hi int) {
			sqb := sq[r0:r1]
			for jj := lo; jj < hi; jj++ {
				j := r1 + jj
				col := h + jj // G's column for point j
				l := &lists[j]
				sqj, worst := sq[j], l.worst
				for ii, sqi := range sqb {
					d := sqi + sqj - 2*g[ii*w+col]
					if d > worst {
						continue
					}
					if d < 0 {
						d = 0
					}
					l.offer(d, r0+ii, k)
					worst = l.worst
				}
			}
		})
	}
	finishLists(yd, lists, k, nb)
}

// finishLists makes the final choice of the brute-force search: each
// list's candidates re-ranked by their directly computed squared
// distances, ties by index, the first k kept.
func finishLists(yd *mat.Dense, lists []nbList, k int, nb *Neighbours) {
	n := len(lists)
	parallel.For(n, 64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			c := lists[i].c
			yi := yd.RawRowView(i)
			for t := range c {
				c[t].d = directSquared(yi, yd.RawRowView(c[t].j))
			}
			sort.Slice(c, func(a, b int) bool { return c[a].less(c[b]) })
			for m := 0; m < k; m++ {
				nb.Index[i*k+m] = c[m].j
				nb.Dist[i*k+m] = math.Sqrt(c[m].d)
			}
		}
	})
}

// directSquared is Σ_c (x_c − y_c)², summed in column order: exact for
// integer-valued data whose squared distances stay below 2⁵³.
func directSquared(x, y []float64) float64 {
	s := 0.0
	for c, v := range x {
		e := v - y[c]
		s += e * e
	}
	return s
}

// nbList is a point's list of its best candidates so far, sorted by
// (squared distance, index): the k best, then any others within slack of
// the k-th (see knnBrute).
type nbList struct {
	c     []nbCand
	worst float64 // the k-th distance plus slack; +Inf until k are held
	slack float64
	pend  []nbCand // knnFused's candidates pushed since the last flush
}

// offer inserts (d, j) if it is among the k best or within slack of the
// k-th, and drops the candidates that fall beyond.
func (l *nbList) offer(d float64, j, k int) {
	if d > l.worst {
		return
	}
	c := nbCand{d, j}
	// pos: the first m with c.less(l.c[m]) (sort.Search's, without the
	// closure call per probe).
	pos, hi := 0, len(l.c)
	for pos < hi {
		m := int(uint(pos+hi) >> 1)
		if c.less(l.c[m]) {
			hi = m
		} else {
			pos = m + 1
		}
	}
	l.c = append(l.c, nbCand{})
	copy(l.c[pos+1:], l.c[pos:len(l.c)-1])
	l.c[pos] = c
	if len(l.c) >= k {
		l.worst = l.c[k-1].d + l.slack
		m := len(l.c)
		for m > k && l.c[m-1].d > l.worst {
			m--
		}
		l.c = l.c[:m]
	}
}

// Symmetrisation says how a directed k-nearest-neighbour relation becomes
// an undirected graph.
type Symmetrisation int

const (
	// Union joins i and j when either is among the other's k nearest
	// neighbours (the usual choice for Isomap, LLE and Laplacian
	// eigenmaps; every point has degree ≥ k).
	Union Symmetrisation = iota
	// Mutual joins i and j only when each is among the other's k nearest
	// (sparser; more likely to disconnect the graph).
	Mutual
)

// Graph returns the undirected neighbourhood graph as a symmetric linalg.CSR
// whose entries are the Euclidean distances between joined points.
func (nb *Neighbours) Graph(sym Symmetrisation) *linalg.CSR {
	n, k := nb.N, nb.K
	ii := make([]int, 0, 2*n*k)
	jj := make([]int, 0, 2*n*k)
	vv := make([]float64, 0, 2*n*k)
	in := func(i, j int) bool {
		for _, c := range nb.Index[i*k : (i+1)*k] {
			if c == j {
				return true
			}
		}
		return false
	}
	for i := 0; i < n; i++ {
		for m := 0; m < k; m++ {
			j, d := nb.Index[i*k+m], nb.Dist[i*k+m]
			back := in(j, i)
			switch {
			case back && i < j:
				// Added once from the smaller index.
				ii, jj, vv = append(ii, i, j), append(jj, j, i), append(vv, d, d)
			case back:
			case sym == Union:
				ii, jj, vv = append(ii, i, j), append(jj, j, i), append(vv, d, d)
			}
		}
	}
	return linalg.NewCSR(n, ii, jj, vv)
}

// KNNGraph returns the symmetrised k-nearest-neighbour graph of the rows of
// Y with edge weights ‖y_i − y_j‖, with the default Search.
func KNNGraph(Y mat.Matrix, k int, sym Symmetrisation) (*linalg.CSR, error) {
	return Search{}.KNNGraph(Y, k, sym)
}

// KNNGraph returns the symmetrised k-nearest-neighbour graph of the rows of
// Y with edge weights ‖y_i − y_j‖: KNearest followed by Graph.
func (s Search) KNNGraph(Y mat.Matrix, k int, sym Symmetrisation) (*linalg.CSR, error) {
	return s.KNNGraphContext(context.Background(), Y, k, sym)
}

// KNNGraphContext is KNNGraph under ctx (see KNearestContext).
func (s Search) KNNGraphContext(ctx context.Context, Y mat.Matrix, k int, sym Symmetrisation) (*linalg.CSR, error) {
	nb, err := s.KNearestContext(ctx, Y, k)
	if err != nil {
		return nil, err
	}
	return nb.Graph(sym), nil
}

// EpsilonGraph returns the graph joining every pair of distinct rows of Y
// with ‖y_i − y_j‖ ≤ eps, with the default Search.
func EpsilonGraph(Y mat.Matrix, eps float64) (*linalg.CSR, error) {
	return Search{}.EpsilonGraph(Y, eps)
}

// EpsilonGraph returns the graph joining every pair of distinct rows of Y
// with ‖y_i − y_j‖ ≤ eps, weighted by that distance, as a symmetric linalg.CSR.
// eps must be positive, else it panics. Like KNearest it uses a kd-tree for
// p ≤ KDTreeMaxDim and blocked BLAS distances otherwise, and rescales data
// of extreme scale so that no representable distance overflows.
func (s Search) EpsilonGraph(Y mat.Matrix, eps float64) (*linalg.CSR, error) {
	return s.EpsilonGraphContext(context.Background(), Y, eps)
}

// EpsilonGraphContext is EpsilonGraph under ctx: the search stops within
// one block of rows once ctx is done, returning an error wrapping
// ctx.Err(), and reports the rows searched as the phase "ε-neighbours".
func (s Search) EpsilonGraphContext(ctx context.Context, Y mat.Matrix, eps float64) (*linalg.CSR, error) {
	n, p := Y.Dims()
	if !(eps > 0) {
		panic("dimred: EpsilonGraph eps must be positive")
	}
	if p == 0 && n > 0 {
		panic("dimred: EpsilonGraph: Y has no columns (p = 0)")
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return nil, err
	}
	yd, scale := scaledCopy(Y)
	rows := make([][]nbCand, n)
	e2 := (eps / scale) * (eps / scale)
	ph, err := progress.Start(ctx, "ε-neighbours", n)
	if err != nil {
		return nil, err
	}
	if s.useTree(p) {
		tree, pts := buildKDTree(yd)
		parallel.For(n, 64, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if (i-lo)%64 == 0 && ph.Add(min(64, hi-i)) != nil {
					return
				}
				keep := kdtree.NewDistKeeper(e2)
				tree.NearestSet(keep, pts[i])
				for _, c := range keep.Heap {
					if c.Comparable == nil {
						continue
					}
					if j := c.Comparable.(kdPoint).i; j != i {
						rows[i] = append(rows[i], nbCand{c.Dist, j})
					}
				}
			}
		})
	} else {
		sq := linalg.RowSquaredNorms(yd)
		yr := yd.RawMatrix()
		all := blas64.General{Rows: n, Cols: p, Stride: yr.Stride, Data: yr.Data}
		g := make([]float64, knnBlockRows*n)
		for r0 := 0; r0 < n; r0 += knnBlockRows {
			r1 := min(n, r0+knnBlockRows)
			if ph.Add(r1-r0) != nil {
				break
			}
			q := blas64.General{Rows: r1 - r0, Cols: p, Stride: yr.Stride, Data: yr.Data[r0*yr.Stride:]}
			linalg.Gemm(blas.NoTrans, blas.Trans, 1, q, all, 0, blas64.General{Rows: r1 - r0, Cols: n, Stride: n, Data: g})
			for ii := 0; ii < r1-r0; ii++ {
				i := r0 + ii
				for j, gj := range g[ii*n : (ii+1)*n] {
					if d := sq[i] + sq[j] - 2*gj; j != i && d <= e2 {
						rows[i] = append(rows[i], nbCand{math.Max(d, 0), j})
					}
				}
			}
		}
	}
	if err := ph.Err(); err != nil {
		return nil, err
	}
	var ii, jj []int
	var vv []float64
	for i, r := range rows {
		for _, c := range r {
			ii, jj, vv = append(ii, i), append(jj, c.j), append(vv, scale*math.Sqrt(c.d))
		}
	}
	return linalg.NewCSR(n, ii, jj, vv), nil
}

// ConnectedComponents labels the connected components of the graph g
// taken as undirected (an edge stored in either direction joins its ends;
// see Undirected): label[i] ∈ [0, count), components numbered in order of
// their smallest point.
func ConnectedComponents(g *linalg.CSR) (label []int, count int) {
	g.Check()
	g = Undirected(g)
	n := g.N
	label = make([]int, n)
	for i := range label {
		label[i] = -1
	}
	stack := make([]int, 0, 64)
	for s := 0; s < n; s++ {
		if label[s] >= 0 {
			continue
		}
		label[s] = count
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, v := range g.Col[g.RowPtr[u]:g.RowPtr[u+1]] {
				if label[v] < 0 {
					label[v] = count
					stack = append(stack, v)
				}
			}
		}
		count++
	}
	return label, count
}

// DisconnectedError reports a neighbourhood graph with more than one
// connected component. It wraps ErrDisconnected.
type DisconnectedError struct {
	// Components lists the points of each component, largest first.
	Components [][]int
}

func (e *DisconnectedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v: %d components", ErrDisconnected, len(e.Components))
	for c, pts := range e.Components {
		if c == 6 {
			fmt.Fprintf(&b, "; …")
			break
		}
		fmt.Fprintf(&b, "; %d points", len(pts))
		if len(pts) <= 5 {
			fmt.Fprintf(&b, " %v", pts)
		} else {
			fmt.Fprintf(&b, " %v…", pts[:5])
		}
	}
	b.WriteString(" (increase the number of neighbours or eps, or embed each component separately)")
	return b.String()
}

// Unwrap returns ErrDisconnected.
func (e *DisconnectedError) Unwrap() error { return ErrDisconnected }

// CheckConnected returns nil if g is connected and otherwise a
// *DisconnectedError (wrapping ErrDisconnected) naming the components.
func CheckConnected(g *linalg.CSR) error {
	label, count := ConnectedComponents(g)
	if count <= 1 {
		return nil
	}
	comps := make([][]int, count)
	for i, l := range label {
		comps[l] = append(comps[l], i)
	}
	sort.SliceStable(comps, func(a, b int) bool { return len(comps[a]) > len(comps[b]) })
	return &DisconnectedError{Components: comps}
}
