package neighbours

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/dimredbook/book/dimred/internal/vec"
	"gonum.org/v1/gonum/mat"
)

// knnPath runs the brute-force search on the fused kernel (fused) or on
// GemmNT's blocks with their scans, with GOMAXPROCS procs.
func knnPath(t *testing.T, Y mat.Matrix, k int, fused bool, procs int) *Neighbours {
	t.Helper()
	defer func(u bool, p int) { useFusedKNN = u; runtime.GOMAXPROCS(p) }(useFusedKNN, runtime.GOMAXPROCS(procs))
	useFusedKNN = fused
	nb, err := Search{KDTreeMaxDim: -1}.KNearest(Y, k)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// sameNeighbours reports the first difference between two searches'
// lists, indices and distance bits.
func sameNeighbours(a, b *Neighbours) error {
	for t := range a.Index {
		if a.Index[t] != b.Index[t] || math.Float64bits(a.Dist[t]) != math.Float64bits(b.Dist[t]) {
			i := t / a.K
			ai, ad := a.Of(i)
			bi, bd := b.Of(i)
			return fmt.Errorf("point %d: %v %v, want %v %v", i, ai, ad, bi, bd)
		}
	}
	return nil
}

// fusedData are the awkward inputs of the fused search's tests: Gaussian
// and clustered points; an integer grid on a 53-bit offset (exact ties
// everywhere, the expansion rounding at ~10⁻⁹); rows repeated up to four
// times (duplicates at distance zero); points far from the origin (the
// expansion cancels: thousands of candidates within its slack); and data
// of extreme scale (rescaled by a power of two).
func fusedData(kind string, n, p int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 11))
	Y := mat.NewDense(n, p, nil)
	z := make([]float64, p)
	for c := range z {
		z[c] = 1024 + 976*rnd.Float64()
	}
	centres := make([]float64, 7*p)
	for i := range centres {
		centres[i] = 4 * rnd.NormFloat64()
	}
	for i := 0; i < n; i++ {
		for c := 0; c < p; c++ {
			var v float64
			switch kind {
			case "gauss":
				v = rnd.NormFloat64()
			case "clusters":
				v = centres[(i%7)*p+c] + rnd.NormFloat64()
			case "ties":
				v = z[c] + float64(rnd.IntN(3))
			case "dups":
				if i%5 > 0 && i >= 5 {
					v = Y.At(i-i%5, c)
				} else {
					v = rnd.NormFloat64()
				}
			case "far":
				v = 1e7 + rnd.NormFloat64()
			case "huge":
				v = 1e300 * rnd.NormFloat64()
			case "tiny":
				v = 1e-300 * rnd.NormFloat64()
			}
			Y.Set(i, c, v)
		}
	}
	return Y
}

// TestKNNFusedMatchesGemm: the fused search (vec.DistStrips, private
// lists merged per block) returns knnBruteGemm's neighbours and distances
// bit for bit, on sizes around its strips (14, 16), blocks (224) and
// chunks, on 1 to 3 cores. Without AVX2 the fused search runs on the
// plain-Go kernel (the vector kernels give its bits: TestDistStripsKernel).
func TestKNNFusedMatchesGemm(t *testing.T) {
	type tc struct {
		kind    string
		n, p, k int
	}
	var cases []tc
	for _, kind := range []string{"gauss", "clusters", "ties", "dups", "far", "huge", "tiny"} {
		cases = append(cases, tc{kind, 225, 9, 6}, tc{kind, 461, 50, 15})
	}
	cases = append(cases,
		tc{"gauss", 2, 7, 1}, tc{"gauss", 15, 3, 14}, tc{"gauss", 17, 1, 16}, tc{"ties", 30, 2, 29},
		tc{"gauss", 224, 16, 10}, tc{"clusters", 448, 13, 3}, tc{"ties", 449, 8, 12},
		tc{"gauss", 300, 784, 7}, tc{"clusters", 1500, 97, 15}, tc{"dups", 700, 20, 30},
		tc{"clusters", 900, 12, 40}, tc{"ties", 500, 8, 45}, tc{"far", 600, 30, 70},
	)
	if testing.Short() && !vec.HasDistKernel() {
		cases = cases[:6]
	}
	for _, c := range cases {
		Y := fusedData(c.kind, c.n, c.p, uint64(c.n*c.p))
		want := knnPath(t, Y, c.k, false, 1)
		for _, procs := range []int{1, 2, 3} {
			got := knnPath(t, Y, c.k, true, procs)
			if err := sameNeighbours(got, want); err != nil {
				t.Fatalf("%s n=%d p=%d k=%d on %d cores: fused search differs: %v", c.kind, c.n, c.p, c.k, procs, err)
			}
		}
	}
}

// TestKNNFusedNonFinite: a NaN or ±Inf in Y is ErrNaN on both brute-force
// paths, as KNearest documents (checked before any distance is formed).
func TestKNNFusedNonFinite(t *testing.T) {
	defer func(u bool) { useFusedKNN = u }(useFusedKNN)
	for _, fused := range []bool{false, true} {
		useFusedKNN = fused
		for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			Y := fusedData("gauss", 40, 9, 1)
			Y.Set(17, 4, v)
			if _, err := (Search{KDTreeMaxDim: -1}).KNearest(Y, 5); !errors.Is(err, ErrNaN) {
				t.Errorf("fused=%v, Y containing %v: err = %v, want ErrNaN", fused, v, err)
			}
		}
	}
}
