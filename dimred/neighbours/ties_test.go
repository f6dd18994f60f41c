package neighbours

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// KNearest's documented rule — neighbours ranked by the squared distance,
// exact ties broken by lower index — holds on the BLAS (brute-force) path
// too, where the norm expansion ‖y_i‖² + ‖y_j‖² − 2y_iᵀy_j rounds. The
// points are an integer grid shifted by a per-column offset z_c ∈ [1024,
// 2000) with a full 53-bit mantissa: y_ic = z_c + a_ic is exact, so every
// difference and squared distance is an exact integer and ties are
// everywhere, while the expansion rounds at ~10⁻⁹ (p = 8 or 10 >
// DefaultKDTreeMaxDim, so the BLAS path runs). Before the direct recheck
// that rounding, not the index, decided the ties. The two searches must
// also agree exactly.
func TestKNearestExactTiesBrute(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 8))
	for _, tc := range []struct {
		n, p, k int
	}{{300, 8, 7}, {257, 10, 12}, {200, 8, 5}} {
		z := make([]float64, tc.p)
		for c := range z {
			z[c] = 1024 + 976*rnd.Float64()
		}
		Y := mat.NewDense(tc.n, tc.p, nil)
		for i := 0; i < tc.n; i++ {
			for c := 0; c < tc.p; c++ {
				Y.Set(i, c, z[c]+float64(rnd.IntN(4)))
			}
		}
		brute, err := Search{KDTreeMaxDim: -1}.KNearest(Y, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := Search{KDTreeMaxDim: tc.p}.KNearest(Y, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < tc.n; i++ {
			var all []nbCand
			for j := 0; j < tc.n; j++ {
				if j == i {
					continue
				}
				d := 0 // exact: integer differences
				for c := 0; c < tc.p; c++ {
					e := int(Y.At(i, c) - Y.At(j, c))
					d += e * e
				}
				all = append(all, nbCand{float64(d), j})
			}
			sort.Slice(all, func(a, b int) bool { return all[a].less(all[b]) })
			bi, bd := brute.Of(i)
			ti, _ := tree.Of(i)
			for m := 0; m < tc.k; m++ {
				if bi[m] != all[m].j || bd[m] != math.Sqrt(all[m].d) {
					t.Fatalf("n=%d p=%d k=%d, point %d: brute force gives %v, want neighbour %d = %d at squared distance %g (got %g)",
						tc.n, tc.p, tc.k, i, bi, m, all[m].j, all[m].d, bd[m]*bd[m])
				}
				if ti[m] != bi[m] {
					t.Fatalf("point %d: kd-tree %v, brute force %v", i, ti, bi)
				}
			}
		}
	}
}
