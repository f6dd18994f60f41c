package dimred_test

import (
	"slices"
	"sort"
	"testing"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred/neighbours"
)

// The robot WiFi data (215×30, (s + 85)/15) have distances equal in exact
// arithmetic at the 7th neighbour (row 5: points 4 and 8, both 26/225 in
// exact arithmetic). KNearest ranks by the directly computed squared
// distance Σ_c (y_ic − y_jc)², ties broken by lower index: every row's 7
// nearest neighbours equal that definition. The BLAS path's norm
// expansion used to decide (row 5 kept point 8 over point 4, which is
// nearer by the direct sum and has the lower index).
func TestKNearestRobotDefinition(t *testing.T) {
	d, err := datasets.RobotWireless()
	if datasets.Skippable(err) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	const k = 7
	n, p := d.Y.Dims()
	nb, err := neighbours.KNearest(d.Y, k)
	if err != nil {
		t.Fatal(err)
	}
	type cand struct {
		d float64
		j int
	}
	for i := 0; i < n; i++ {
		var all []cand
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			s := 0.0
			for c := 0; c < p; c++ {
				e := d.Y.At(i, c) - d.Y.At(j, c)
				s += e * e
			}
			all = append(all, cand{s, j})
		}
		sort.Slice(all, func(a, b int) bool {
			return all[a].d < all[b].d || all[a].d == all[b].d && all[a].j < all[b].j
		})
		want := make([]int, k)
		for m := range want {
			want[m] = all[m].j
		}
		if got, _ := nb.Of(i); !slices.Equal(got, want) {
			t.Errorf("row %d: neighbours %v, want %v", i, got, want)
		}
	}
	if got, _ := nb.Of(5); !slices.Contains(got, 4) || slices.Contains(got, 8) {
		t.Errorf("row 5: neighbours %v, want point 4 (26/225 in exact arithmetic like point 8, nearer by the direct sum, lower index)", got)
	}
}
