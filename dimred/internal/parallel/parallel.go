// Package parallel is the goroutine fan-out of dimred's embarrassingly
// parallel loops. Every helper waits for its workers and re-raises a
// worker's panic in the caller (see Do).
package parallel

import (
	"math"
	"runtime"
	"sync"
)

// Grain is the package's one goroutine grain: a job of fewer than Grain
// units of work (floating-point operations, or matrix entries touched) runs
// on the calling goroutine, because starting and joining goroutines would
// cost more than the work saves. Every split in dimred uses it.
const Grain = 1 << 15

// Do runs f(0), …, f(w−1) concurrently and waits for all of them;
// w ≤ 1 runs f(0) on the calling goroutine. A panic in a worker (a user
// kernel's Eval, say) is carried back and re-raised in the caller, where it
// can be recovered; if several workers panic, the first one caught wins.
func Do(w int, f func(t int)) {
	if w <= 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	var pv workerPanic
	for t := 0; t < w; t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer pv.catch()
			f(t)
		}()
	}
	wg.Wait()
	pv.rethrow()
}

// workerPanic carries a panic from a worker goroutine back to the
// goroutine that started it.
type workerPanic struct {
	mu  sync.Mutex
	val any
	set bool
}

func (p *workerPanic) catch() {
	if r := recover(); r != nil {
		p.mu.Lock()
		if !p.set {
			p.val, p.set = r, true
		}
		p.mu.Unlock()
	}
}

func (p *workerPanic) rethrow() {
	if p.set {
		panic(p.val)
	}
}

// TriBounds returns the first row of worker t's share when the rows of an
// n×n upper triangle are split into w contiguous parts with equal numbers
// of entries (n for t ≥ w).
func TriBounds(n, w, t int) int {
	if t >= w {
		return n
	}
	return int(float64(n) * (1 - math.Sqrt(1-float64(t)/float64(w))))
}

// ChunkBounds splits [0, n) into at most GOMAXPROCS contiguous chunks of at
// least minChunk items (one chunk if n < 2·minChunk), returning the
// boundaries: chunk t is [b[t], b[t+1]).
func ChunkBounds(n, minChunk int) []int {
	p := max(1, min(runtime.GOMAXPROCS(0), n/max(1, minChunk)))
	b := make([]int, p+1)
	for t := 0; t <= p; t++ {
		b[t] = t * n / p
	}
	return b
}

// RunChunks runs f(t, lo, hi) for each chunk of bounds (from ChunkBounds)
// concurrently and waits.
func RunChunks(bounds []int, f func(t, lo, hi int)) {
	Do(len(bounds)-1, func(t int) { f(t, bounds[t], bounds[t+1]) })
}

// For runs f(lo, hi) over [0, n) split into at most GOMAXPROCS
// contiguous chunks of at least minChunk items, and waits.
func For(n, minChunk int, f func(lo, hi int)) {
	RunChunks(ChunkBounds(n, minChunk), func(_, lo, hi int) { f(lo, hi) })
}

// ForWork is For(n, 1, f), one chunk per core, when the
// job (work ≈ flops) is at least Grain, and f(0, n) on the calling
// goroutine otherwise.
func ForWork(n, work int, f func(lo, hi int)) {
	if work < Grain {
		f(0, n)
		return
	}
	For(n, 1, f)
}

// TriRows runs f(i) for every row i of an n×n upper triangle, with
// rows dealt out so each core gets about the same number of entries (row i
// has n−i of them); triangles of fewer than Grain entries run on the
// calling goroutine.
func TriRows(n int, f func(i int)) {
	w := runtime.GOMAXPROCS(0)
	if w <= 1 || n*n/2 < Grain {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	Do(w, func(t int) {
		// Rows t, 2w−1−t, 2w+t, 4w−1−t, …: each pair of rows sums to
		// about the same length, balancing the triangle.
		for base := 0; base < n; base += 2 * w {
			if i := base + t; i < n {
				f(i)
			}
			if i := base + 2*w - 1 - t; i < n {
				f(i)
			}
		}
	})
}

// UpperTriWorkers is the number of goroutines a pass over an n×n upper
// triangle split by TriBounds uses: one per core, one when the triangle
// has fewer than Grain entries.
func UpperTriWorkers(n int) int {
	w := min(runtime.GOMAXPROCS(0), n)
	if n*n/2 < Grain {
		w = 1
	}
	return w
}
