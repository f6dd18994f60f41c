package dimred

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/dimredbook/book/datasets"
)

func cpuNow2() time.Duration {
	var r syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

func TestXLadder(t *testing.T) {
	for _, n := range []int{200, 300, 500, 900, 990, 1000, 1100, 2000} {
		Y := datasets.SwissRoll(n, rand.NewPCG(1, 13)).Y
		best := time.Hour
		for r := 0; r < 3; r++ {
			c0 := cpuNow2()
			m := &LLE{Q: 2, K: 10}
			if err := m.Fit(Y); err != nil {
				t.Fatal(err)
			}
			best = min(best, cpuNow2()-c0)
		}
		fmt.Printf("LLE n=%d cpu %v\n", n, best)
	}
}
