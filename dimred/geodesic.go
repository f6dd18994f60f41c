package dimred

import (
	"math"
	"runtime"
	"strconv"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
)

// GeodesicDistances returns the n×n matrix of shortest-path lengths through
// the neighbourhood graph g (edge weights = stored values, which must be
// non-negative; the graph must be symmetric), the geodesic distances of
// Isomap (book Ch. 5). It runs a distances-only Dijkstra (binary heap,
// O(E log n)) from every source, sources shared dynamically among
// GOMAXPROCS goroutines, and stores nothing but the result: 8n² bytes
// (0.8 GB at n = 10000), where gonum's path.AllShortest keeps about four
// times that.
//
// If g is disconnected the unreachable pairs are +Inf and the error is a
// *DisconnectedError (wrapping ErrDisconnected) naming the components; the
// matrix is still returned. A negative or NaN weight panics.
func GeodesicDistances(g *CSR) (*mat.SymDense, error) {
	n := g.N
	for t, v := range g.Val {
		if !(v >= 0) {
			panic("dimred: GeodesicDistances: negative or NaN edge weight at entry " + strconv.Itoa(t))
		}
	}
	D := mat.NewSymDense(n, nil)
	raw := D.RawSymmetric()
	var next atomic.Int64
	parallelFor(maxProcsFor(n), 1, func(lo, hi int) {
		for w := lo; w < hi; w++ {
			dj := newDijkstra(n)
			for {
				s := int(next.Add(1) - 1)
				if s >= n {
					break
				}
				// Row s of the backing array; SymDense reads only j ≥ s,
				// and no other goroutine writes this row.
				dj.run(g, s, raw.Data[s*raw.Stride:s*raw.Stride+n])
			}
		}
	})
	return D, CheckConnected(g)
}

func maxProcsFor(n int) int { return max(1, min(n, runtime.GOMAXPROCS(0))) }

// dijkstra is the per-worker state: a binary min-heap of (distance, vertex)
// with lazy deletion.
type dijkstra struct {
	heapD []float64
	heapV []int32
	done  []bool
}

func newDijkstra(n int) *dijkstra {
	return &dijkstra{done: make([]bool, n)}
}

func (d *dijkstra) run(g *CSR, s int, dist []float64) {
	for i := range dist {
		dist[i] = math.Inf(1)
		d.done[i] = false
	}
	d.heapD, d.heapV = d.heapD[:0], d.heapV[:0]
	dist[s] = 0
	d.push(0, int32(s))
	for len(d.heapD) > 0 {
		du, u := d.pop()
		if d.done[u] {
			continue
		}
		d.done[u] = true
		lo, hi := g.RowPtr[u], g.RowPtr[u+1]
		for t := lo; t < hi; t++ {
			v := g.Col[t]
			if nd := du + g.Val[t]; nd < dist[v] {
				dist[v] = nd
				d.push(nd, int32(v))
			}
		}
	}
}

func (d *dijkstra) push(x float64, v int32) {
	d.heapD = append(d.heapD, x)
	d.heapV = append(d.heapV, v)
	i := len(d.heapD) - 1
	for i > 0 {
		p := (i - 1) / 2
		if d.heapD[p] <= x {
			break
		}
		d.heapD[i], d.heapV[i] = d.heapD[p], d.heapV[p]
		i = p
	}
	d.heapD[i], d.heapV[i] = x, v
}

func (d *dijkstra) pop() (float64, int32) {
	x, v := d.heapD[0], d.heapV[0]
	last := len(d.heapD) - 1
	lx, lv := d.heapD[last], d.heapV[last]
	d.heapD, d.heapV = d.heapD[:last], d.heapV[:last]
	if last == 0 {
		return x, v
	}
	i := 0
	for {
		c := 2*i + 1
		if c >= last {
			break
		}
		if c+1 < last && d.heapD[c+1] < d.heapD[c] {
			c++
		}
		if d.heapD[c] >= lx {
			break
		}
		d.heapD[i], d.heapV[i] = d.heapD[c], d.heapV[c]
		i = c
	}
	d.heapD[i], d.heapV[i] = lx, lv
	return x, v
}
