package dimred

// quadTree is the Barnes–Hut space partition of a 2-D embedding (van der
// Maaten 2014, "Accelerating t-SNE using tree-based algorithms", §4.2): each
// cell stores the number of points in it and their centre of mass, so the
// repulsion of a far cell on a point is computed as that of one heavy point.
//
// It is built by splitting an index array in place, cell by cell in a fixed
// order, so the tree — and every sum taken over it — is the same whatever
// the number of threads that later read it.
//
// The nodes are stored flat in depth-first preorder (a cell, then its
// quadrants SW, SE, NW, NE in turn), each with the index just past its
// subtree (next): a traversal walks the array forwards — into a cell by
// i+1, past it by next — with no stack and no pointer chasing, and visits
// the cells in the same order as a recursive descent.
type quadTree struct {
	nodes []qtNode
	perm  []int32 // point indices; a leaf holds perm[lo:hi]
	y     []float64
}

type qtNode struct {
	cx, cy float64 // centre of mass
	x0, y0 float64 // lower-left corner of the cell
	size   float64 // side of the (square) cell
	count  int32
	lo, hi int32 // the cell's points in perm
	next   int32 // the first node after this cell's subtree
	leaf   bool
}

// leafSize is the largest number of points a cell keeps without splitting;
// small leaves are summed exactly.
const leafSize = 4

// newQuadTree builds the tree of the n points of y (n×2, row-major).
func newQuadTree(y []float64, n int) *quadTree {
	t := &quadTree{y: y, perm: make([]int32, n), nodes: make([]qtNode, 0, 2*n/leafSize+8)}
	minX, minY, maxX, maxY := y[0], y[1], y[0], y[1]
	for i := 0; i < n; i++ {
		t.perm[i] = int32(i)
		minX, maxX = min(minX, y[2*i]), max(maxX, y[2*i])
		minY, maxY = min(minY, y[2*i+1]), max(maxY, y[2*i+1])
	}
	size := max(maxX-minX, maxY-minY)
	size = size*(1+1e-9) + 1e-300
	t.build(0, int32(n), minX, minY, size, 0)
	return t
}

// build makes the node of perm[lo:hi] in the cell with lower-left corner
// (x0, y0) and side size, and returns its index.
func (t *quadTree) build(lo, hi int32, x0, y0, size float64, depth int) int32 {
	id := int32(len(t.nodes))
	t.nodes = append(t.nodes, qtNode{x0: x0, y0: y0, size: size, count: hi - lo, lo: lo, hi: hi})
	var sx, sy float64
	for _, p := range t.perm[lo:hi] {
		sx += t.y[2*p]
		sy += t.y[2*p+1]
	}
	c := float64(hi - lo)
	t.nodes[id].cx, t.nodes[id].cy = sx/c, sy/c
	// Coincident points cannot be separated: stop at a depth where the cell
	// is below the resolution of the coordinates.
	if hi-lo <= leafSize || depth >= 60 {
		t.nodes[id].leaf = true
		t.nodes[id].next = id + 1
		return id
	}
	h := size / 2
	mx, my := x0+h, y0+h
	// Partition perm[lo:hi] into the quadrants SW, SE, NW, NE (stable order
	// is not needed: the sums below run over cells, and each cell's points
	// are fixed by the geometry, their order by this deterministic swap).
	quad := func(p int32) int {
		q := 0
		if t.y[2*p] >= mx {
			q |= 1
		}
		if t.y[2*p+1] >= my {
			q |= 2
		}
		return q
	}
	var bounds [5]int32
	bounds[0] = lo
	cur := lo
	for q := 0; q < 4; q++ {
		for i := cur; i < hi; i++ {
			if quad(t.perm[i]) == q {
				t.perm[i], t.perm[cur] = t.perm[cur], t.perm[i]
				cur++
			}
		}
		bounds[q+1] = cur
	}
	for q := 0; q < 4; q++ {
		if bounds[q+1] > bounds[q] {
			qx, qy := x0, y0
			if q&1 != 0 {
				qx = mx
			}
			if q&2 != 0 {
				qy = my
			}
			t.build(bounds[q], bounds[q+1], qx, qy, h, depth+1)
		}
	}
	t.nodes[id].next = int32(len(t.nodes))
	return id
}

// repulsion returns, for point i at (xi, yi), the sums over the other
// points j of the Student-t kernel q̃_ij = 1/(1 + ‖y_i − y_j‖²):
//
//	z = Σ_j q̃_ij,   (fx, fy) = Σ_j q̃_ij² (y_i − y_j),
//
// with cells whose side s and distance d satisfy s/d < θ replaced by their
// centre of mass (theta2 = θ²).
func (t *quadTree) repulsion(i int, theta2 float64) (z, fx, fy float64) {
	xi, yi := t.y[2*i], t.y[2*i+1]
	nodes := t.nodes
	for id := int32(0); id < int32(len(nodes)); {
		nd := &nodes[id]
		if nd.leaf {
			for _, p := range t.perm[nd.lo:nd.hi] {
				if int(p) == i {
					continue
				}
				dx, dy := xi-t.y[2*p], yi-t.y[2*p+1]
				q := 1 / (1 + dx*dx + dy*dy)
				z += q
				q *= q
				fx += q * dx
				fy += q * dy
			}
			id = nd.next
			continue
		}
		dx, dy := xi-nd.cx, yi-nd.cy
		d2 := dx*dx + dy*dy
		// A cell containing the point itself is never summarised (it could
		// be, for θ > 1/√2, from a corner of the cell).
		inside := xi >= nd.x0 && xi < nd.x0+nd.size && yi >= nd.y0 && yi < nd.y0+nd.size
		if !inside && nd.size*nd.size < theta2*d2 {
			q := 1 / (1 + d2)
			c := float64(nd.count)
			z += c * q
			q *= c * q
			fx += q * dx
			fy += q * dy
			id = nd.next
			continue
		}
		id++ // into the cell: its first quadrant follows it
	}
	return z, fx, fy
}
