package neighbours

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestKDTreeMatchesDefinition compares the kd-tree search with the
// definition (all distances, sorted by distance then index) on integer
// grid points, where exact distance ties are everywhere, and on Gaussian
// points, for p = 1, 2, 3, 5.
func TestKDTreeMatchesDefinition(t *testing.T) {
	rnd := rand.New(rand.NewPCG(21, 22))
	for _, tc := range []struct {
		n, p, k int
		grid    bool
	}{{300, 2, 7, true}, {400, 3, 10, true}, {500, 3, 5, false}, {200, 1, 4, true}, {333, 5, 12, false}, {40, 2, 39, true}} {
		Y := mat.NewDense(tc.n, tc.p, nil)
		for i := range Y.RawMatrix().Data {
			if tc.grid {
				Y.RawMatrix().Data[i] = float64(rnd.IntN(6))
			} else {
				Y.RawMatrix().Data[i] = rnd.NormFloat64()
			}
		}
		nb := &Neighbours{N: tc.n, K: tc.k, Index: make([]int, tc.n*tc.k), Dist: make([]float64, tc.n*tc.k)}
		knnKDTree(nil, Y, tc.k, nb)
		for i := 0; i < tc.n; i++ {
			var all []nbCand
			for j := 0; j < tc.n; j++ {
				if j == i {
					continue
				}
				d := 0.0
				for c := 0; c < tc.p; c++ {
					e := Y.At(i, c) - Y.At(j, c)
					d += e * e
				}
				all = append(all, nbCand{d, j})
			}
			sort.Slice(all, func(a, b int) bool { return all[a].less(all[b]) })
			idx, dist := nb.Of(i)
			for m := 0; m < tc.k; m++ {
				if idx[m] != all[m].j || math.Abs(dist[m]-math.Sqrt(all[m].d)) > 1e-12 {
					t.Fatalf("n=%d p=%d k=%d grid=%v point %d, neighbour %d: got %d at %g, want %d at %g",
						tc.n, tc.p, tc.k, tc.grid, i, m, idx[m], dist[m], all[m].j, math.Sqrt(all[m].d))
				}
			}
		}
	}
}
