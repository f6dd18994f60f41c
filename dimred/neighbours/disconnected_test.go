package neighbours

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestJoiningEdges: three components on a line, {0, 1}, {2, 3} and
// {4, 5} (k = 1 mutual pairs); every pair of components is joined by its
// closest pair of points, with that length, as scikit-learn's
// _fix_connected_components does.
func TestJoiningEdges(t *testing.T) {
	Y := mat.NewDense(6, 1, []float64{0, 1, 10, 11, 30, 31.5})
	g, err := KNNGraph(Y, 1, Union)
	if err != nil {
		t.Fatal(err)
	}
	if _, c := ConnectedComponents(g); c != 3 {
		t.Fatalf("%d components, want 3", c)
	}
	got := JoiningEdges(g, Y)
	want := []Edge{{2, 1, 9}, {4, 1, 29}, {4, 3, 19}}
	if len(got) != len(want) {
		t.Fatalf("edges %v, want %v", got, want)
	}
	for i := range want {
		if got[i].I != want[i].I || got[i].J != want[i].J || math.Abs(got[i].Dist-want[i].Dist) > 1e-12 {
			t.Errorf("edge %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	cg, added := ConnectGraph(g, Y)
	if len(added) != 3 {
		t.Errorf("%d edges added, want 3", len(added))
	}
	if _, c := ConnectedComponents(cg); c != 1 {
		t.Errorf("connected graph has %d components", c)
	}
	if !cg.IsSymmetric(0) || cg.At(3, 4) != 19 {
		t.Errorf("joining edge (3, 4) = %g, want 19 in both directions", cg.At(3, 4))
	}
	if g.At(3, 4) != 0 {
		t.Error("ConnectGraph modified its input")
	}
	pts, c := LargestComponentOf(g)
	if c != 3 || len(pts) != 2 || pts[0] != 0 {
		t.Errorf("LargestComponentOf = %v, %d; want the first of the equal components, [0 1], 3", pts, c)
	}
	if JoiningEdges(cg, Y) != nil {
		t.Error("JoiningEdges of a connected graph is not nil")
	}
}
