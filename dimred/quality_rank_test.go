package dimred

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// trustworthinessBySorting is the definition computed the slow way: full
// sorts of every row in both spaces, ties to the lower index.
func trustworthinessBySorting(Y, X *mat.Dense, k int) float64 {
	n, _ := Y.Dims()
	dist := func(A *mat.Dense, i, j int) float64 {
		var s float64
		for c, v := range A.RawRowView(i) {
			t := v - A.At(j, c)
			s += t * t
		}
		return s
	}
	order := func(A *mat.Dense, i int) []int {
		idx := []int{}
		for j := 0; j < n; j++ {
			if j != i {
				idx = append(idx, j)
			}
		}
		sort.SliceStable(idx, func(a, b int) bool { return dist(A, i, idx[a]) < dist(A, i, idx[b]) })
		return idx
	}
	sum := 0.0
	for i := 0; i < n; i++ {
		rank := make([]int, n)
		for r, j := range order(Y, i) {
			rank[j] = r + 1
		}
		for _, j := range order(X, i)[:k] {
			if rank[j] > k {
				sum += float64(rank[j] - k)
			}
		}
	}
	nf, kf := float64(n), float64(k)
	return 1 - 2/(nf*kf*(2*nf-3*kf-1))*sum
}

// TestTrustworthinessMatchesSorting checks the selection-and-counting
// implementation against full sorts, on integer grid data full of exact
// distance ties (p = 3, direct distances) and on continuous data with
// p = 40 (distances from matrix products).
func TestTrustworthinessMatchesSorting(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		n, p, k int
		grid    bool
	}{{150, 3, 5, true}, {200, 40, 7, false}, {130, 2, 20, true}} {
		Y := mat.NewDense(tc.n, tc.p, nil)
		for i := range Y.RawMatrix().Data {
			if tc.grid {
				Y.RawMatrix().Data[i] = float64(rnd.IntN(4))
			} else {
				Y.RawMatrix().Data[i] = rnd.NormFloat64()
			}
		}
		X := mat.NewDense(tc.n, 2, nil)
		for i := 0; i < tc.n; i++ {
			X.Set(i, 0, Y.At(i, 0)+float64(rnd.IntN(2)))
			X.Set(i, 1, Y.At(i, 1))
		}
		for _, dir := range []string{"T", "C"} {
			var got, want float64
			var err error
			if dir == "T" {
				got, err = Trustworthiness(Y, X, tc.k)
				want = trustworthinessBySorting(Y, X, tc.k)
			} else {
				got, err = Continuity(Y, X, tc.k)
				want = trustworthinessBySorting(X, Y, tc.k)
			}
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-want) > 1e-12 {
				t.Errorf("n=%d p=%d k=%d %s: got %.15g, by sorting %.15g", tc.n, tc.p, tc.k, dir, got, want)
			}
		}
	}
}
