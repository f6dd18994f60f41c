package figures

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// The neighbour explorer's slider reaches the first short circuit of its
// swiss roll and the k just before it, and notebook 09's §1 states the
// graph numbers the slider shows: the last k without a short circuit, the
// first k with one and how many links it has, and the count at the largest
// k. Found by review: the slider went from 12 to 14, skipping the first
// short circuit at k = 13, and the prose said it appeared at k = 14.
func TestExploreNeighboursShortCircuits(t *testing.T) {
	ds, pos := exploreSwissRoll()
	maxK := exploreNeighbourKs[len(exploreNeighbourKs)-1]
	first, firstLinks, lastLinks := 0, 0, 0
	for k := 1; k <= maxK; k++ {
		j, err := shortCircuits(ds.Y, pos, k)
		if err != nil {
			t.Fatal(err)
		}
		if first == 0 && len(j) > 0 {
			first, firstLinks = k, len(j)
		}
		lastLinks = len(j)
	}
	if first == 0 {
		t.Fatalf("no short circuit up to k = %d", maxK)
	}
	t.Logf("first short circuit at k = %d (%d link(s)); %d at k = %d", first, firstLinks, lastLinks, maxK)
	for _, k := range []int{first - 1, first} {
		if !slices.Contains(exploreNeighbourKs, k) {
			t.Errorf("the slider %v skips k = %d (first short circuit at %d)", exploreNeighbourKs, k, first)
		}
	}
	b, err := os.ReadFile(filepath.Join("..", "notebooks", "src", "09-explore", "10-explore.nb"))
	if err != nil {
		t.Fatal(err)
	}
	prose := string(b)
	links := map[int]string{1: "a single link", 2: "two links", 3: "three links"}[firstLinks]
	for _, want := range []string{
		fmt.Sprintf("From k = 5 to %d there is no short circuit", first-1),
		fmt.Sprintf("At k = %d the first short circuit appears, %s", first, links),
		fmt.Sprintf("by k = %d there are %d of them", maxK, lastLinks),
	} {
		if links == "" || !strings.Contains(prose, want) {
			t.Errorf("notebook 09 §1 does not say %q", want)
		}
	}
}
