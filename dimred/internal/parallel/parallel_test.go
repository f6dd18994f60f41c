package parallel

import (
	"sync/atomic"
	"testing"
)

// Every helper visits each index exactly once and re-raises a worker's
// panic in the caller.
func TestParallelHelpers(t *testing.T) {
	for _, n := range []int{0, 1, 7, 300, 5000} {
		cover := func(name string, run func(mark func(i int))) {
			seen := make([]int32, n)
			run(func(i int) { atomic.AddInt32(&seen[i], 1) })
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("%s n=%d: index %d visited %d times", name, n, i, c)
				}
			}
		}
		loop := func(mark func(int)) func(lo, hi int) {
			return func(lo, hi int) {
				for i := lo; i < hi; i++ {
					mark(i)
				}
			}
		}
		cover("For", func(mark func(int)) { For(n, 16, loop(mark)) })
		cover("ForWork", func(mark func(int)) { ForWork(n, 1<<20, loop(mark)) })
		cover("TriRows", func(mark func(int)) { TriRows(n, mark) })
		cover("RunChunks", func(mark func(int)) {
			RunChunks(ChunkBounds(n, 16), func(_, lo, hi int) { loop(mark)(lo, hi) })
		})
		cover("TriBounds", func(mark func(int)) {
			w := UpperTriWorkers(n)
			Do(w, func(t int) { loop(mark)(TriBounds(n, w, t), TriBounds(n, w, t+1)) })
		})
	}
	for name, run := range map[string]func(){
		"For":     func() { For(5000, 1, func(lo, hi int) { panic("worker says no") }) },
		"TriRows": func() { TriRows(5000, func(i int) { panic("worker says no") }) },
		"Do":      func() { Do(4, func(t int) { panic("worker says no") }) },
	} {
		func() {
			defer func() {
				if r := recover(); r != "worker says no" {
					t.Errorf("%s: recovered %v, want the worker's panic", name, r)
				}
			}()
			run()
		}()
	}
}
