package neighbours

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync/atomic"

	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/mat"
)

// GeodesicDistances returns the n×n matrix of shortest-path lengths through
// the neighbourhood graph g (edge weights = stored values), the geodesic
// distances of Isomap (book Ch. 5). The graph is taken as undirected, as
// SciPy's shortest_path(directed=False) does: an edge stored in one
// direction only can be walked both ways, and where both directions are
// stored with different weights the smaller is used (see Undirected). It runs a distances-only Dijkstra, O(E log n) with
// an indexed 4-ary heap, from every source, sources shared dynamically
// among GOMAXPROCS goroutines, and stores nothing but the result: 8n² bytes
// (0.8 GB at n = 10000), where gonum's path.AllShortest keeps about four
// times that.
//
// If g is disconnected the unreachable pairs are +Inf and the error is a
// *DisconnectedError (wrapping ErrDisconnected) naming the components; the
// matrix is still returned. A NaN or +Inf weight is an error wrapping
// ErrNaN, a path length beyond the float64 range one wrapping ErrOverflow, a
// negative one an error wrapping ErrNotDistance, and a graph of no points
// one wrapping ErrTooFewPoints; then the matrix is nil.
func GeodesicDistances(g *linalg.CSR) (*mat.SymDense, error) {
	return GeodesicDistancesContext(context.Background(), g)
}

// GeodesicDistancesContext is GeodesicDistances under ctx: every worker
// checks ctx before each source (one Dijkstra, O(E log n)), so that a
// cancelled call returns within one Dijkstra per core with an error
// wrapping ctx.Err(); the sources solved are reported as the phase
// "geodesic distances" to ctx's progress.Reporter.
func GeodesicDistancesContext(ctx context.Context, g *linalg.CSR) (*mat.SymDense, error) {
	g.Check()
	n := g.N
	if n == 0 {
		return nil, fmt.Errorf("%w: GeodesicDistances of a graph with no points", ErrTooFewPoints)
	}
	if err := checkEdgeLengths(g); err != nil {
		return nil, err
	}
	g = Undirected(g)
	D := mat.NewSymDense(n, nil)
	raw := D.RawSymmetric()
	cg := newCompactGraph(g)
	ph, err := progress.Start(ctx, "geodesic distances", n)
	if err != nil {
		return nil, err
	}
	var next atomic.Int64
	// One Dijkstra per worker, each taking the next unsolved source.
	parallel.Do(maxProcsFor(n), func(int) {
		dj := newDijkstra(n)
		dist := make([]float64, n)
		for {
			s := int(next.Add(1) - 1)
			if s >= n || ph.Add(1) != nil {
				break
			}
			dj.run(cg, s, dist)
			// Row order[s] of the backing array; SymDense reads only
			// its upper part, and no other goroutine writes this row.
			o := int(cg.order[s])
			row := raw.Data[o*raw.Stride : o*raw.Stride+n]
			for t, d := range dist {
				row[cg.order[t]] = d
			}
		}
	})
	if err := ph.Err(); err != nil {
		return nil, err
	}
	if err := CheckConnected(g); err != nil {
		return D, err
	}
	// Connected with finite edges: an infinite entry is a path length
	// beyond the float64 range.
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if d := raw.Data[i*raw.Stride+j]; math.IsInf(d, 1) {
				return nil, fmt.Errorf("%w: geodesic distance %d–%d exceeds the float64 range (every edge length is finite; rescale the data)", ErrOverflow, i, j)
			}
		}
	}
	return D, nil
}

// checkEdgeLengths reports a NaN or +Inf weight (ErrNaN) or a negative one
// (ErrNotDistance): geodesics need non-negative finite edge lengths.
func checkEdgeLengths(g *linalg.CSR) error {
	for i := 0; i < g.N; i++ {
		cols, vals := g.Row(i)
		for t, v := range vals {
			switch {
			case math.IsNaN(v) || math.IsInf(v, 1):
				return fmt.Errorf("%w: edge %d–%d has weight %v", ErrNaN, i, cols[t], v)
			case v < 0:
				return fmt.Errorf("%w: edge %d–%d has negative weight %v; geodesic distances need non-negative edge lengths", ErrNotDistance, i, cols[t], v)
			}
		}
	}
	return nil
}

// GeodesicDistancesFrom returns the len(src)×n matrix of shortest-path
// lengths through g from the points src (landmark Isomap's geodesics to
// its landmarks), by the same Dijkstra as GeodesicDistances — one per
// source, sources shared among the cores — on the undirected graph of g.
// Unreachable points are +Inf and the error is then a *DisconnectedError
// (the matrix is still returned); a NaN, +Inf or negative weight is an
// error as for GeodesicDistances, with a nil matrix. A source outside
// [0, n) panics.
func GeodesicDistancesFrom(g *linalg.CSR, src []int) (*mat.Dense, error) {
	return GeodesicDistancesFromContext(context.Background(), g, src)
}

// GeodesicDistancesFromContext is GeodesicDistancesFrom under ctx (see
// GeodesicDistancesContext; the phase is "geodesic distances from
// landmarks").
func GeodesicDistancesFromContext(ctx context.Context, g *linalg.CSR, src []int) (*mat.Dense, error) {
	g.Check()
	n := g.N
	for _, s := range src {
		if s < 0 || s >= n {
			panic(fmt.Sprintf("dimred: GeodesicDistancesFrom source %d outside [0, %d)", s, n))
		}
	}
	if len(src) == 0 || n == 0 {
		return nil, fmt.Errorf("%w: GeodesicDistancesFrom with %d sources on %d points", ErrTooFewPoints, len(src), n)
	}
	if err := checkEdgeLengths(g); err != nil {
		return nil, err
	}
	g = Undirected(g)
	cg := newCompactGraph(g)
	compact := make([]int, n) // original point → compact label
	for c, o := range cg.order {
		compact[o] = c
	}
	out := mat.NewDense(len(src), n, nil)
	ph, err := progress.Start(ctx, "geodesic distances from landmarks", len(src))
	if err != nil {
		return nil, err
	}
	var next atomic.Int64
	parallel.Do(maxProcsFor(len(src)), func(int) {
		dj := newDijkstra(n)
		dist := make([]float64, n)
		for {
			a := int(next.Add(1) - 1)
			if a >= len(src) || ph.Add(1) != nil {
				break
			}
			dj.run(cg, compact[src[a]], dist)
			row := out.RawRowView(a)
			for t, d := range dist {
				row[cg.order[t]] = d
			}
		}
	})
	if err := ph.Err(); err != nil {
		return nil, err
	}
	if err := CheckConnected(g); err != nil {
		return out, err
	}
	return out, nil
}

// Undirected returns the undirected graph of g: i and j are joined when
// an edge is stored in either direction, with weight min(W_ij, W_ji) over
// the directions stored (SciPy's directed=False). A g whose stored pattern
// and weights are already symmetric is returned itself, not copied.
func Undirected(g *linalg.CSR) *linalg.CSR {
	if exactlySymmetric(g) {
		return g
	}
	type edge struct {
		i, j int
		w    float64
	}
	es := make([]edge, 0, 2*g.NNZ())
	for i := 0; i < g.N; i++ {
		cols, vals := g.Row(i)
		for t, j := range cols {
			es = append(es, edge{i, j, vals[t]}, edge{j, i, vals[t]})
		}
	}
	sort.Slice(es, func(a, b int) bool {
		return es[a].i < es[b].i || es[a].i == es[b].i && es[a].j < es[b].j
	})
	ii := make([]int, 0, len(es))
	jj := make([]int, 0, len(es))
	vv := make([]float64, 0, len(es))
	for t, e := range es {
		if t > 0 && es[t-1].i == e.i && es[t-1].j == e.j {
			vv[len(vv)-1] = math.Min(vv[len(vv)-1], e.w)
			continue
		}
		ii, jj, vv = append(ii, e.i), append(jj, e.j), append(vv, e.w)
	}
	return linalg.NewCSR(g.N, ii, jj, vv)
}

// exactlySymmetric reports whether every stored W_ij has a stored W_ji of
// the same value.
func exactlySymmetric(g *linalg.CSR) bool {
	for i := 0; i < g.N; i++ {
		cols, vals := g.Row(i)
		for t, j := range cols {
			jc, jv := g.Row(j)
			k := sort.SearchInts(jc, i)
			if k == len(jc) || jc[k] != i || jv[k] != vals[t] {
				return false
			}
		}
	}
	return true
}

// compactGraph is g relabelled in breadth-first order, so that neighbours
// have nearby labels and Dijkstra's accesses to the distance and heap-index
// arrays and to the adjacency lists stay in cache, with 32-bit indices.
type compactGraph struct {
	rowPtr []int32
	col    []int32
	val    []float64
	order  []int32 // new label → original point
}

func newCompactGraph(g *linalg.CSR) *compactGraph {
	n := g.N
	order := make([]int32, 0, n)
	label := make([]int32, n)
	for i := range label {
		label[i] = -1
	}
	for s := 0; s < n; s++ {
		if label[s] >= 0 {
			continue
		}
		label[s] = int32(len(order))
		order = append(order, int32(s))
		for h := len(order) - 1; h < len(order); h++ {
			u := order[h]
			for _, v := range g.Col[g.RowPtr[u]:g.RowPtr[u+1]] {
				if label[v] < 0 {
					label[v] = int32(len(order))
					order = append(order, int32(v))
				}
			}
		}
	}
	cg := &compactGraph{rowPtr: make([]int32, n+1), col: make([]int32, 0, g.NNZ()), val: make([]float64, 0, g.NNZ()), order: order}
	for i, u := range order {
		lo, hi := g.RowPtr[u], g.RowPtr[u+1]
		for t := lo; t < hi; t++ {
			cg.col = append(cg.col, label[g.Col[t]])
			cg.val = append(cg.val, g.Val[t])
		}
		cg.rowPtr[i+1] = int32(len(cg.col))
	}
	return cg
}

func maxProcsFor(n int) int { return max(1, min(n, runtime.GOMAXPROCS(0))) }

// dijkstra is the per-worker state: an indexed 4-ary min-heap of vertices
// keyed by their tentative distance, with decrease-key (no duplicate
// entries), so each vertex is pushed and popped once.
type dijkstra struct {
	heap []int32
	pos  []int32 // position in heap; −1 not queued; −2 settled
	dist []float64
}

func newDijkstra(n int) *dijkstra {
	return &dijkstra{heap: make([]int32, 0, n), pos: make([]int32, n)}
}

func (d *dijkstra) run(g *compactGraph, s int, dist []float64) {
	for i := range dist {
		dist[i] = math.Inf(1)
		d.pos[i] = -1
	}
	d.dist = dist
	d.heap = d.heap[:0]
	dist[s] = 0
	d.pos[s] = 0
	d.heap = append(d.heap, int32(s))
	rowPtr, col, val := g.rowPtr, g.col, g.val
	for len(d.heap) > 0 {
		u := d.popMin()
		du := dist[u]
		for t := rowPtr[u]; t < rowPtr[u+1]; t++ {
			v := col[t]
			pv := d.pos[v]
			if pv == -2 {
				continue
			}
			if nd := du + val[t]; nd < dist[v] {
				dist[v] = nd
				if pv < 0 {
					d.heap = append(d.heap, int32(v))
					pv = int32(len(d.heap) - 1)
				}
				d.up(int(pv))
			}
		}
	}
}

func (d *dijkstra) up(i int) {
	h, dist := d.heap, d.dist
	v := h[i]
	x := dist[v]
	for i > 0 {
		p := (i - 1) / 4
		if dist[h[p]] <= x {
			break
		}
		h[i] = h[p]
		d.pos[h[i]] = int32(i)
		i = p
	}
	h[i] = v
	d.pos[v] = int32(i)
}

func (d *dijkstra) popMin() int32 {
	h, dist := d.heap, d.dist
	top := h[0]
	d.pos[top] = -2
	last := len(h) - 1
	v := h[last]
	h = h[:last]
	d.heap = h
	if last == 0 {
		return top
	}
	x := dist[v]
	i := 0
	for {
		c := 4*i + 1
		if c >= last {
			break
		}
		best, bx := c, dist[h[c]]
		for e := c + 1; e < min(c+4, last); e++ {
			if y := dist[h[e]]; y < bx {
				best, bx = e, y
			}
		}
		if bx >= x {
			break
		}
		h[i] = h[best]
		d.pos[h[i]] = int32(i)
		i = best
	}
	h[i] = v
	d.pos[v] = int32(i)
	return top
}
