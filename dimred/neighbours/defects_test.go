package neighbours

import (
	"errors"
	"math"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// Points at scale 1e200 (or 1e-200) have representable distances
// (≈ 1e200·‖u − v‖) although their squares overflow (underflow). Both
// search paths and the ε-graph must return the scaled distances of the
// unit-scale points, not +Inf (0).
func TestKNearestExtremeScale(t *testing.T) {
	U := testutil.GaussianData(80, 3, 4)
	ref, err := Search{KDTreeMaxDim: -1}.KNearest(U, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, scale := range []float64{1e200, 1e-200} {
		var Y mat.Dense
		Y.Scale(scale, U)
		for _, kdMax := range []int{-1, 100} {
			nb, err := Search{KDTreeMaxDim: kdMax}.KNearest(&Y, 5)
			if err != nil {
				t.Fatalf("scale %g kdMax %d: %v", scale, kdMax, err)
			}
			for t2, d := range nb.Dist {
				want := scale * ref.Dist[t2]
				if nb.Index[t2] != ref.Index[t2] || math.Abs(d-want) > 1e-12*want {
					t.Fatalf("scale %g kdMax %d entry %d: neighbour %d at %v, want %d at %v",
						scale, kdMax, t2, nb.Index[t2], d, ref.Index[t2], want)
				}
			}
			g, err := Search{KDTreeMaxDim: kdMax}.EpsilonGraph(&Y, 0.5*scale)
			if err != nil {
				t.Fatal(err)
			}
			e, _ := Search{KDTreeMaxDim: kdMax}.EpsilonGraph(U, 0.5)
			if g.NNZ() != e.NNZ() {
				t.Fatalf("scale %g: ε-graph has %d edges, unit scale %d", scale, g.NNZ(), e.NNZ())
			}
			for i, v := range g.Val {
				if want := scale * e.Val[i]; math.Abs(v-want) > 1e-12*want {
					t.Fatalf("scale %g: ε-graph weight %v, want %v", scale, v, want)
				}
			}
			if scale > 1 {
				geo, err := GeodesicDistances(nb.Graph(Union))
				if err != nil && !errors.Is(err, ErrDisconnected) {
					t.Fatal(err)
				}
				if v := geo.At(0, 1); math.IsInf(v, 0) && err == nil {
					t.Fatalf("geodesic distance %v at scale %g", v, scale)
				}
			}
		}
	}
	// A distance beyond the float64 range is an error, not +Inf.
	Y := mat.NewDense(2, 1, []float64{-1.5e308, 1.5e308})
	if _, err := KNearest(Y, 1); !errors.Is(err, ErrOverflow) {
		t.Fatalf("distance 3e308: err = %v, want ErrOverflow", err)
	}
}

// A graph stored in one direction only (i → j) is walked as undirected,
// like SciPy's shortest_path(directed=False): distances and component count
// equal those of the symmetrised graph; where both directions are stored
// with different weights the smaller counts.
func TestGeodesicDirectedGraph(t *testing.T) {
	// Path 0 – 1 – 2 – 3 stored as 0→1, 2→1 (weight 2; 1→2 stored as 5),
	// 3→2.
	g := linalg.NewCSR(4, []int{0, 2, 1, 3}, []int{1, 1, 2, 2}, []float64{1, 2, 5, 3})
	D, err := GeodesicDistances(g)
	if err != nil {
		t.Fatalf("directed path graph: %v", err)
	}
	want := [][]float64{{0, 1, 3, 6}, {1, 0, 2, 5}, {3, 2, 0, 3}, {6, 5, 3, 0}}
	for i := range want {
		for j, w := range want[i] {
			if D.At(i, j) != w {
				t.Fatalf("D(%d,%d) = %v, want %v", i, j, D.At(i, j), w)
			}
		}
	}
	if _, count := ConnectedComponents(g); count != 1 {
		t.Fatalf("ConnectedComponents of the directed path: %d, want 1", count)
	}
}

// Data properties are errors, not panics.
func TestGraphDataErrors(t *testing.T) {
	neg := linalg.NewCSR(2, []int{0, 1}, []int{1, 0}, []float64{-1, -1})
	if _, err := GeodesicDistances(neg); !errors.Is(err, ErrNotDistance) {
		t.Errorf("negative weight: err = %v, want ErrNotDistance", err)
	}
	nan := linalg.NewCSR(2, []int{0, 1}, []int{1, 0}, []float64{math.NaN(), math.NaN()})
	if _, err := GeodesicDistances(nan); !errors.Is(err, ErrNaN) {
		t.Errorf("NaN weight: err = %v, want ErrNaN", err)
	}
	iso := linalg.NewCSR(3, []int{0, 1}, []int{1, 0}, []float64{1, 1}) // point 2 isolated
	if _, err := NormalisedLaplacian(iso); !errors.Is(err, ErrDisconnected) {
		t.Errorf("zero degree: err = %v, want ErrDisconnected", err)
	}
	for _, g := range []*linalg.CSR{linalg.NewCSR(0, nil, nil, nil), {}} {
		if _, err := GeodesicDistances(g); !errors.Is(err, ErrTooFewPoints) {
			t.Errorf("0 points: err = %v, want ErrTooFewPoints", err)
		}
		if g.NNZ() != 0 || Laplacian(g).N != 0 {
			t.Errorf("0 points: NNZ %d", g.NNZ())
		}
		if _, c := ConnectedComponents(g); c != 0 {
			t.Errorf("0 points: %d components", c)
		}
	}
}
