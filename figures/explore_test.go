package figures

import (
	"bytes"
	"os"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user + system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestExplorers computes every state of the four notebook-09 explorers and
// checks that each state draws, that the frames differ from state to state
// (a slider that redraws the same picture teaches nothing) and that a
// redraw of a computed state (draw + PNG) takes well under a second of
// CPU time (the process's user + system time, which the machine's load
// does not inflate as it does the wall time; both are logged).
//
// The states go through the on-disk result cache (Cached), as in the
// notebook: a state this code version computed before is read, one not yet
// computed is computed and stored — for notebook 09 and the live-widget
// test that scripts/test runs after go test. In CI scripts/test points
// DIMRED_NBCACHE at an empty folder, so there every state is computed.
func TestExplorers(t *testing.T) {
	if testing.Short() {
		t.Skip("fits every slider position of four models; not in -short")
	}
	if os.Getenv("DIMRED_DATA") == "" && os.Getenv("DIMRED_REQUIRE_DATA") != "1" {
		t.Skip("needs the oil data and the six: set DIMRED_DATA")
	}
	for _, mk := range []func() (*Explorer, error){ExploreNeighbours, ExploreKernelWidth, ExploreGTM, ExplorePPCAMissing} {
		e, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		t.Run(e.Name, func(t *testing.T) {
			t0 := time.Now()
			if err := e.Precompute(nil); err != nil {
				t.Fatal(err)
			}
			states := e.States()
			t.Logf("%s: %d states computed in %.1f s", e.Name, len(states), time.Since(t0).Seconds())
			var prev []byte
			var worst, total, worstWall, totalWall time.Duration
			for _, s := range states {
				c1, t1 := cpuTime(), time.Now()
				_, png, err := e.Frame(s)
				if err != nil {
					t.Fatalf("%s: %v", e.Describe(s), err)
				}
				d, w := cpuTime()-c1, time.Since(t1)
				total, totalWall = total+d, totalWall+w
				worst, worstWall = max(worst, d), max(worstWall, w)
				if bytes.Equal(png, prev) {
					t.Errorf("%s draws the same PNG as the state before", e.Describe(s))
				}
				prev = png
			}
			t.Logf("%s: redraw (draw + PNG) CPU mean %.0f ms, worst %.0f ms; wall mean %.0f ms, worst %.0f ms", e.Name,
				total.Seconds()*1000/float64(len(states)), worst.Seconds()*1000,
				totalWall.Seconds()*1000/float64(len(states)), worstWall.Seconds()*1000)
			if worst > time.Second {
				t.Errorf("worst redraw took %v of CPU time, want well under a second", worst)
			}
		})
	}
}
