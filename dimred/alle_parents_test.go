package dimred

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred/internal/benchutil"

	"gonum.org/v1/gonum/mat"
)

// sortedLater is AcyclicLLE's former parent search: every later point
// sorted by (squared distance, index), the first k kept.
func sortedLater(y []float64, Y *mat.Dense, later []int, k int) []int {
	n, _ := Y.Dims()
	cand := make([]int, 0, len(later))
	dist := make([]float64, n)
	for _, j := range later {
		cand = append(cand, j)
		dist[j] = sqDistRows(y, Y.RawRowView(j))
	}
	sort.Slice(cand, func(u, v int) bool {
		if dist[cand[u]] != dist[cand[v]] {
			return dist[cand[u]] < dist[cand[v]]
		}
		return cand[u] < cand[v]
	})
	if len(cand) > k {
		cand = cand[:k]
	}
	return cand
}

// TestALLENearestLaterMatchesSort checks the heap selection against the
// full sort it replaced, on continuous data and on data with many exact
// ties (integer grid points, duplicated rows), for every position of a
// random order and several k.
func TestALLENearestLaterMatchesSort(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 5))
	for _, kind := range []string{"gaussian", "grid", "duplicates"} {
		n, p := 300, 3
		Y := mat.NewDense(n, p, nil)
		for i := 0; i < n; i++ {
			for c := 0; c < p; c++ {
				switch kind {
				case "gaussian":
					Y.Set(i, c, rnd.NormFloat64())
				case "grid":
					Y.Set(i, c, float64(rnd.IntN(4)))
				case "duplicates":
					Y.Set(i, c, float64(i%7)+0.5*float64(c))
				}
			}
		}
		order := rnd.Perm(n)
		for _, k := range []int{1, 4, 10, 40} {
			for r := 0; r < n-1; r++ {
				y := Y.RawRowView(order[r])
				got := nearestLater(y, Y, order[r+1:], k)
				want := sortedLater(y, Y, order[r+1:], k)
				if !slices.Equal(got, want) {
					t.Fatalf("%s, k = %d, position %d: parents %v, the full sort gives %v", kind, k, r, got, want)
				}
			}
		}
	}
}

// TestALLEParentsUnchanged fits AcyclicLLE on tied data and checks every
// parent set against the full sort.
func TestALLEParentsUnchanged(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 1))
	n := 200
	Y := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		Y.Set(i, 0, float64(rnd.IntN(20))+0.01*rnd.Float64())
		Y.Set(i, 1, float64(rnd.IntN(20)))
	}
	a := &AcyclicLLE{Q: 2, K: 5, Reg: 1e-3, Order: rnd.Perm(n)}
	if err := a.Fit(Y); err != nil {
		t.Fatal(err)
	}
	Yc := mat.DenseCopyOf(Y)
	centreColumns(Yc)
	for r := 0; r < n-1; r++ {
		i := a.Order[r]
		got, _ := a.ParentsOf(i)
		if want := sortedLater(Yc.RawRowView(i), Yc, a.Order[r+1:], 5); !slices.Equal(got, want) {
			t.Fatalf("point %d: parents %v, the full sort gives %v", i, got, want)
		}
	}
}

// BenchmarkALLEParents10000 fits AcyclicLLE (nearest-later parents) on
// n = 10 000 swiss-roll points, k = 6: the parent search was a full sort
// per point (44 s).
func BenchmarkALLEParents10000(b *testing.B) {
	Y := swissRollBench(10000)
	defer benchutil.CPUMetric(b)()
	for range b.N {
		a := &AcyclicLLE{Q: 2}
		if err := a.Fit(Y); err != nil {
			b.Fatal(err)
		}
	}
}

func swissRollBench(n int) *mat.Dense {
	return datasets.SwissRoll(n, rand.NewPCG(1, 13)).Y
}
