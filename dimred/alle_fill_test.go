package dimred

import (
	"reflect"
	"testing"

	"github.com/dimredbook/book/datasets"
	"gonum.org/v1/gonum/mat"
)

// TestCholeskyFillParents: on a 5-cycle with a chord, minimum-degree
// elimination and its fill worked by hand. Graph 0–1–2–3–4–0 plus 1–3:
// degrees 2, 3, 2, 3, 2. Eliminate 0 (deg 2, lowest index): parents {1, 4},
// fill 1–4. Now 1: {2,3,4} (3), 2: {1,3} (2), 3: {1,2,4} (3), 4: {1,3} (2).
// Eliminate 2: parents {1, 3} (already joined). Then 1: {3,4}, 3: {1,4},
// 4: {1,3}, all degree 2: eliminate 1: parents {3, 4}; then 3: {4};
// then 4: {}.
func TestCholeskyFillParents(t *testing.T) {
	adj := [][]int{{1, 4}, {0, 2, 3}, {1, 3}, {2, 4, 1}, {3, 0}}
	order, parents := choleskyFillParents(adj)
	if want := []int{0, 2, 1, 3, 4}; !reflect.DeepEqual(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	want := [][]int{{1, 4}, {3, 4}, {1, 3}, {4}, {}}
	for v := range want {
		if len(parents[v]) != len(want[v]) || (len(want[v]) > 0 && !reflect.DeepEqual(parents[v], want[v])) {
			t.Errorf("parents of %d = %v, want %v", v, parents[v], want[v])
		}
	}
}

// TestALLECholeskyFill: on the stick man (k = 6, the paper's demo) the
// reference construction gives every point's parents from later in its
// order, a valid fit, and a different model from the nearest-later one
// (the paper's Fig 7 ordering "Isomap > ALLE" rests on it; notebook 05).
func TestALLECholeskyFill(t *testing.T) {
	ds, err := datasets.Stick()
	if datasets.Skippable(err) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	a := &AcyclicLLE{K: 6, Q: 2, Parents: ALLECholeskyFill}
	if err := a.Fit(ds.Y); err != nil {
		t.Fatal(err)
	}
	order := a.FittedOrder()
	pos := make([]int, len(order))
	for r, i := range order {
		pos[i] = r
	}
	more := 0
	for i := range order {
		ps, w := a.ParentsOf(i)
		sum := 0.0
		for t2, j := range ps {
			if pos[j] <= pos[i] {
				t.Fatalf("point %d (position %d) has parent %d at position %d", i, pos[i], j, pos[j])
			}
			sum += w[t2]
		}
		if len(ps) > 0 && (sum < 1-1e-9 || sum > 1+1e-9) {
			t.Errorf("point %d: weights sum to %v", i, sum)
		}
		if len(ps) > 6 {
			more++
		}
	}
	if more == 0 {
		t.Error("no point has more than k parents: the fill is missing")
	}
	b := &AcyclicLLE{K: 6, Q: 2}
	if err := b.Fit(ds.Y); err != nil {
		t.Fatal(err)
	}
	var X1, X2 mat.Dense
	a.LatentTo(&X1)
	b.LatentTo(&X2)
	if mat.EqualApprox(&X1, &X2, 1e-6) || a.LogLikelihood() == b.LogLikelihood() {
		t.Error("the two constructions gave the same model")
	}
	t.Logf("stick, k = 6: pseudo-log-likelihood nearest-later %.1f, Cholesky fill %.1f; %d points with more than 6 parents", b.LogLikelihood(), a.LogLikelihood(), more)
}
