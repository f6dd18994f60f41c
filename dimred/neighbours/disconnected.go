package neighbours

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// DisconnectedPolicy says what a neighbourhood method does when its
// neighbourhood graph has more than one connected component. The spectral
// methods that need a connected graph (Isomap: geodesics between
// components are infinite; Laplacian eigenmaps, LLE: the bottom
// eigenspace has one null vector per component; MVU: the unfolding is
// unbounded) share it as their Disconnected field. The zero value is
// RefuseDisconnected.
type DisconnectedPolicy int

const (
	// RefuseDisconnected returns an error wrapping ErrDisconnected (a
	// *DisconnectedError naming the components). Nothing is dropped or
	// invented; the caller decides (raise k, embed each component).
	RefuseDisconnected DisconnectedPolicy = iota
	// LargestComponent embeds the points of the largest connected
	// component only (ties: the one holding the lowest index) and drops
	// the others. In a union-symmetrised kNN graph every neighbour of a
	// point lies in the point's component, so this is exactly the
	// method fitted to those rows of Y. The embedding then has fewer rows
	// than Y: the method's LatentTo returns one row per kept point, in
	// the order of Y, and its Kept method names the kept rows of Y.
	LargestComponent
	// ConnectComponents joins every pair of components by its shortest
	// edge — for components A and B the pair (a, b), a ∈ A, b ∈ B, of
	// least Euclidean distance ‖y_a − y_b‖, added with that length — and
	// embeds all n points. This is what scikit-learn's Isomap has done
	// since version 1.0 (sklearn.utils.graph._fix_connected_components):
	// c components gain c(c−1)/2 edges. Methods built on neighbour lists
	// (LLE) add each joining edge's ends to each other's lists.
	ConnectComponents
)

// String returns the policy's name.
func (p DisconnectedPolicy) String() string {
	switch p {
	case RefuseDisconnected:
		return "refuse"
	case LargestComponent:
		return "largest component"
	case ConnectComponents:
		return "connect components"
	}
	return fmt.Sprintf("DisconnectedPolicy(%d)", int(p))
}

// Valid panics unless p is one of the three policies.
func (p DisconnectedPolicy) Valid() {
	if p < RefuseDisconnected || p > ConnectComponents {
		panic(fmt.Sprintf("dimred: unknown DisconnectedPolicy %d", int(p)))
	}
}

// LargestComponentOf returns the points of the largest connected
// component of g (ascending; ties broken by the component holding the
// lowest index) and the number of components.
func LargestComponentOf(g *linalg.CSR) (points []int, count int) {
	label, count := ConnectedComponents(g)
	size := make([]int, count)
	for _, l := range label {
		size[l]++
	}
	best := 0
	for c := 1; c < count; c++ {
		if size[c] > size[best] {
			best = c
		}
	}
	points = make([]int, 0, size[best])
	for i, l := range label {
		if l == best {
			points = append(points, i)
		}
	}
	return points, count
}

// Edge is an undirected edge (I, J) of length Dist.
type Edge struct {
	I, J int
	Dist float64
}

// JoiningEdges returns, for every pair of connected components of g
// (components numbered as ConnectedComponents numbers them, pairs in the
// order (1,0), (2,0), (2,1), …), the shortest edge between them in the
// Euclidean distance of the rows of Y (n×p): I in the later component,
// J in the earlier; ties broken by the lower I, then the lower J. It
// returns nil for a connected graph. The cost is Σ_{a<b} |A||B|·p ≤ n²p/2
// flops. A NaN in Y gives undefined edges; check Y first.
func JoiningEdges(g *linalg.CSR, Y mat.Matrix) []Edge {
	label, count := ConnectedComponents(g)
	if count <= 1 {
		return nil
	}
	n, p := Y.Dims()
	if n != g.N {
		panic(mat.ErrShape)
	}
	yd, scale := scaledCopy(Y)
	comps := make([][]int, count)
	for i, l := range label {
		comps[l] = append(comps[l], i)
	}
	var out []Edge
	for a := 1; a < count; a++ {
		for b := 0; b < a; b++ {
			best := Edge{I: -1, Dist: math.Inf(1)}
			for _, i := range comps[a] {
				yi := yd.RawRowView(i)
				for _, j := range comps[b] {
					yj := yd.RawRowView(j)
					s := 0.0
					for c := 0; c < p; c++ {
						e := yi[c] - yj[c]
						s += e * e
					}
					if s < best.Dist || best.I < 0 {
						best = Edge{I: i, J: j, Dist: s}
					}
				}
			}
			best.Dist = scale * math.Sqrt(best.Dist)
			out = append(out, best)
		}
	}
	return out
}

// WithEdges returns g (symmetric) with the undirected edges added in both
// directions, weighted by their lengths; g is not modified.
func WithEdges(g *linalg.CSR, edges []Edge) *linalg.CSR {
	nnz := g.NNZ() + 2*len(edges)
	ii := make([]int, 0, nnz)
	jj := make([]int, 0, nnz)
	vv := make([]float64, 0, nnz)
	for i := 0; i < g.N; i++ {
		cols, vals := g.Row(i)
		for t, j := range cols {
			ii, jj, vv = append(ii, i), append(jj, j), append(vv, vals[t])
		}
	}
	for _, e := range edges {
		ii, jj, vv = append(ii, e.I, e.J), append(jj, e.J, e.I), append(vv, e.Dist, e.Dist)
	}
	return linalg.NewCSR(g.N, ii, jj, vv)
}

// ConnectGraph returns g made connected by JoiningEdges(g, Y) (g itself,
// unmodified, when it is connected) and the edges added.
func ConnectGraph(g *linalg.CSR, Y mat.Matrix) (*linalg.CSR, []Edge) {
	e := JoiningEdges(g, Y)
	if e == nil {
		return g, nil
	}
	return WithEdges(g, e), e
}
