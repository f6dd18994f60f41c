package figures

import (
	"bytes"
	"os"
	"testing"
	"time"
)

// TestExplorers computes every state of the four notebook-09 explorers and
// checks that each state draws, that the frames differ from state to state
// (a slider that redraws the same picture teaches nothing) and that a
// redraw of a computed state (draw + PNG) is well under a second.
func TestExplorers(t *testing.T) {
	if testing.Short() {
		t.Skip("fits every slider position of four models; not in -short")
	}
	if os.Getenv("DIMRED_DATA") == "" && os.Getenv("DIMRED_REQUIRE_DATA") != "1" {
		t.Skip("needs the oil data and the six: set DIMRED_DATA")
	}
	t.Setenv(CacheEnv, t.TempDir())
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
			var worst, total time.Duration
			for _, s := range states {
				t1 := time.Now()
				_, png, err := e.Frame(s)
				if err != nil {
					t.Fatalf("%s: %v", e.Describe(s), err)
				}
				d := time.Since(t1)
				total += d
				worst = max(worst, d)
				if bytes.Equal(png, prev) {
					t.Errorf("%s draws the same PNG as the state before", e.Describe(s))
				}
				prev = png
			}
			t.Logf("%s: redraw (draw + PNG) mean %.0f ms, worst %.0f ms", e.Name,
				total.Seconds()*1000/float64(len(states)), worst.Seconds()*1000)
			if worst > time.Second {
				t.Errorf("worst redraw %v, want well under a second", worst)
			}
		})
	}
}
