package neighbours

import (
	"math"

	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/mat"
)

// kdLeaf is the largest number of points in a kd-tree leaf.
const kdLeaf = 12

// kdTree is a kd-tree over the rows of Y for the all-points k-nearest
// search: the points are stored contiguously in tree order (a copy of Y
// with rows permuted), each node splits its range at the median of the
// coordinate of largest spread, and leaves hold at most kdLeaf points. It
// does the work of gonum's spatial/kdtree without its interface values and
// allocations per comparison, which dominate at low dimension.
type kdTree struct {
	p     int
	pts   []float64 // n×p, rows in tree order
	idx   []int     // idx[r] is the row of Y stored at position r
	nodes []kdNode
}

type kdNode struct {
	lo, hi      int // the node's positions [lo, hi)
	dim         int
	split       float64
	left, right int32 // children; -1 for a leaf
}

func newKDTree(yd *mat.Dense) *kdTree {
	n, p := yd.Dims()
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	t := &kdTree{p: p}
	raw := yd.RawMatrix()
	coord := func(i, d int) float64 { return raw.Data[i*raw.Stride+d] }
	var build func(lo, hi int) int32
	build = func(lo, hi int) int32 {
		id := int32(len(t.nodes))
		t.nodes = append(t.nodes, kdNode{lo: lo, hi: hi, left: -1, right: -1})
		if hi-lo <= kdLeaf {
			return id
		}
		// Dimension of largest spread.
		best, dim := -1.0, 0
		for d := 0; d < p; d++ {
			mn, mx := math.Inf(1), math.Inf(-1)
			for _, i := range perm[lo:hi] {
				v := coord(i, d)
				mn, mx = math.Min(mn, v), math.Max(mx, v)
			}
			if mx-mn > best {
				best, dim = mx-mn, d
			}
		}
		if best <= 0 {
			return id // all points equal: one leaf
		}
		mid := (lo + hi) / 2
		selectNth(perm[lo:hi], mid-lo, func(i int) float64 { return coord(i, dim) })
		split := coord(perm[mid], dim)
		l := build(lo, mid)
		r := build(mid, hi)
		nd := &t.nodes[id]
		nd.dim, nd.split, nd.left, nd.right = dim, split, l, r
		return id
	}
	build(0, n)
	t.pts = make([]float64, n*p)
	for r, i := range perm {
		copy(t.pts[r*p:(r+1)*p], raw.Data[i*raw.Stride:i*raw.Stride+p])
	}
	t.idx = perm
	return t
}

// selectNth reorders a so that a[m] has the key it would have in sorted
// order, smaller-or-equal keys before it and larger-or-equal after
// (Hoare's quickselect with median-of-three pivots).
func selectNth(a []int, m int, key func(int) float64) {
	lo, hi := 0, len(a)-1
	for hi > lo {
		mid := lo + (hi-lo)/2
		if key(a[mid]) < key(a[lo]) {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if key(a[hi]) < key(a[lo]) {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if key(a[hi]) < key(a[mid]) {
			a[hi], a[mid] = a[mid], a[hi]
		}
		pv := key(a[mid])
		i, j := lo, hi
		for i <= j {
			for key(a[i]) < pv {
				i++
			}
			for key(a[j]) > pv {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case m <= j:
			hi = j
		case m >= i:
			lo = i
		default:
			return
		}
	}
}

// knnSearch is one query's state: the k best candidates so far, sorted by
// (squared distance, index).
type knnSearch struct {
	t    *kdTree
	q    []float64
	self int
	k    int
	best []nbCand
}

func (s *knnSearch) worst() float64 {
	if len(s.best) < s.k {
		return math.Inf(1)
	}
	return s.best[s.k-1].d
}

func (s *knnSearch) visit(id int32) {
	nd := &s.t.nodes[id]
	if nd.left < 0 {
		p := s.t.p
		for r := nd.lo; r < nd.hi; r++ {
			j := s.t.idx[r]
			if j == s.self {
				continue
			}
			x := s.t.pts[r*p : (r+1)*p]
			d := 0.0
			for c, v := range s.q {
				e := v - x[c]
				d += e * e
			}
			if len(s.best) == s.k && d > s.best[s.k-1].d {
				continue
			}
			c := nbCand{d, j}
			if len(s.best) == s.k {
				if !c.less(s.best[s.k-1]) {
					continue
				}
				s.best[s.k-1] = c
			} else {
				s.best = append(s.best, c)
			}
			for m := len(s.best) - 1; m > 0 && s.best[m].less(s.best[m-1]); m-- {
				s.best[m], s.best[m-1] = s.best[m-1], s.best[m]
			}
		}
		return
	}
	diff := s.q[nd.dim] - nd.split
	near, far := nd.left, nd.right
	if diff > 0 {
		near, far = far, near
	}
	s.visit(near)
	// ≤, not <: a point on the far side at exactly the k-th distance may
	// win the tie by its index.
	if diff*diff <= s.worst() {
		s.visit(far)
	}
}

// knnKDTree fills nb with every point's k nearest neighbours, ties in
// distance broken by index as by brute force, querying in tree order (so
// consecutive queries touch the same leaves) on all cores.
func knnKDTree(ph *progress.Phase, yd *mat.Dense, k int, nb *Neighbours) {
	n, p := yd.Dims()
	t := newKDTree(yd)
	parallel.For(n, 256, func(lo, hi int) {
		s := knnSearch{t: t, k: k, best: make([]nbCand, 0, k)}
		for r := lo; r < hi; r++ {
			// Check and report every 64 queries (a few µs each).
			if (r-lo)%64 == 0 && ph.Add(min(64, hi-r)) != nil {
				return
			}
			i := t.idx[r]
			s.q, s.self, s.best = t.pts[r*p:(r+1)*p], i, s.best[:0]
			s.visit(0)
			for m, c := range s.best {
				nb.Index[i*k+m] = c.j
				nb.Dist[i*k+m] = math.Sqrt(c.d)
			}
		}
	})
}
