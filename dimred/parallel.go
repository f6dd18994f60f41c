package dimred

import (
	"math"
	"sync"
)

// parallelDo runs f(0), …, f(w−1) concurrently and waits for all of them;
// w ≤ 1 runs f(0) on the calling goroutine. A panic in a worker (a user
// kernel's Eval, say) is carried back and re-raised in the caller, where it
// can be recovered; if several workers panic, the first one caught wins.
func parallelDo(w int, f func(t int)) {
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

// triBounds returns the first row of worker t's share when the rows of an
// n×n upper triangle are split into w contiguous parts with equal numbers
// of entries (n for t ≥ w).
func triBounds(n, w, t int) int {
	if t >= w {
		return n
	}
	return int(float64(n) * (1 - math.Sqrt(1-float64(t)/float64(w))))
}
