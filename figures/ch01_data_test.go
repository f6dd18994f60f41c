package figures

import (
	"math"
	"testing"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/datasets/dstest"
)

// makeData draws a data figure, skipping (or failing under
// DIMRED_REQUIRE_DATA=1) when its data are not available.
func makeData(t *testing.T, mk func() (*Figure, error)) *Figure {
	t.Helper()
	f, err := drawOnce(mk)
	dstest.Check(t, err)
	return f
}

func TestFig1_9OilSchematic(t *testing.T) {
	f := makeData(t, Fig1_9OilFlowSchematic)
	if f.Data != "schematic" || len(f.Panels) != 4 || f.Resolve() != Redrawn {
		t.Errorf("1.9: data %q, %d panels, status %s", f.Data, len(f.Panels), f.Resolve())
	}
	checkGolden(t, f)
}

// The book's captions of Figs 1.10, 1.12 and 1.14: variance of the normalised
// squared distances and the predicted 8/p, to the printed digits.
func TestChapter1DataHistograms(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the real data sets")
	}
	for _, tc := range []struct {
		id         string
		mk         func() (*Figure, error)
		book, pred float64
	}{
		{"1.10", Fig1_10OilDistances, 1.98, 0.667},         // book Fig 1.10 caption
		{"1.12", Fig1_12StickDistances, 1.09, 0.0784},      // book Fig 1.12 caption
		{"1.14", Fig1_14SpellmanDistances, 0.694, 0.00129}, // book Fig 1.14 caption
	} {
		f := makeData(t, tc.mk)
		if f.ID != tc.id || len(f.Numbers) != 2 {
			t.Fatalf("%s: id %s, %d numbers", tc.id, f.ID, len(f.Numbers))
		}
		if f.Numbers[0].Book != tc.book || f.Numbers[1].Book != tc.pred {
			t.Errorf("%s: book values %v, %v", tc.id, f.Numbers[0].Book, f.Numbers[1].Book)
		}
		for _, n := range f.Numbers {
			if !n.Agrees() {
				t.Errorf("%s %s: ours %.6g, book %v (tol %v)", tc.id, n.Name, n.Ours, n.Book, n.Tol)
			}
		}
		if f.Resolve() != Reproduced {
			t.Errorf("%s: status %s", tc.id, f.Resolve())
		}
		t.Logf("Fig %s: variance %.6f (book %v), predicted %.6g (book %v)", tc.id, f.Numbers[0].Ours, tc.book, f.Numbers[1].Ours, tc.pred)
		checkGolden(t, f)
	}
}

func TestFig1_11StickMan(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the real data")
	}
	f := makeData(t, Fig1_11StickMan)
	if len(f.Panels) != 3 || f.Numbers[0].Ours != 55 || f.Numbers[1].Ours != 102 {
		t.Errorf("1.11: %d panels, numbers %+v", len(f.Panels), f.Numbers)
	}
	checkGolden(t, f)
}

// The skeleton must join every marker the preprocessing keeps into one
// body: the review of the first drawing found the head floating free and
// arm markers unconnected.
func TestStickSkeletonConnected(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the real data")
	}
	ds, err := datasets.Stick()
	dstest.Check(t, err)
	k := len(ds.Markers)
	parent := make([]int, k)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for _, e := range stickSkeleton(ds.Markers) {
		parent[find(e[0])] = find(e[1])
	}
	for m := range k {
		if find(m) != find(0) {
			t.Errorf("marker %s is not joined to %s", ds.Markers[m], ds.Markers[0])
		}
	}
}

func TestFig1_13Spellman(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the real data")
	}
	f := makeData(t, Fig1_13SpellmanData)
	got := map[string]float64{}
	for _, n := range f.Numbers {
		got[n.Name] = n.Ours
	}
	// the data set's description: 77 arrays, 6178 genes, 5.9% missing.
	if got["arrays n"] != 77 || got["genes p"] != 6178 || math.Abs(got["missing values (%)"]-5.9) > 0.05 {
		t.Errorf("1.13 numbers %v", got)
	}
	checkGolden(t, f)
}

func TestFig1_15GridVowelsNotReproducible(t *testing.T) {
	// The golden image is the theory-only drawing, the same on every
	// machine; the stand-in panel is checked in TestFig1_15StandIn.
	f, err := fig1_15(nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Resolve() != NotReproducible || f.Why == "" {
		t.Errorf("1.15: status %s, why %q", f.Resolve(), f.Why)
	}
	// book Fig 1.15 caption: predicted 0.000323 = 8/24750.
	pred := f.Numbers[0]
	if !pred.Agrees() || math.Abs(pred.Ours-8.0/24750) > 1e-15 {
		t.Errorf("predicted %v vs book %v", pred.Ours, pred.Book)
	}
	checkGolden(t, f)
}

// The stand-in: real digits spread far more than independent features
// predict, as the book says of its real data sets (§1.9).
func TestFig1_15StandIn(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the real data")
	}
	f := makeData(t, Fig1_15GridVowelDistances)
	if len(f.Panels) != 2 || len(f.Numbers) != 3 || f.Resolve() != NotReproducible {
		t.Fatalf("1.15: %d panels, %d numbers, status %s", len(f.Panels), len(f.Numbers), f.Resolve())
	}
	v, pred := f.Numbers[1].Ours, f.Numbers[2].Ours
	if math.Abs(pred-8.0/256) > 1e-15 || v < 3*pred {
		t.Errorf("USPS stand-in: variance %v, predicted %v", v, pred)
	}
	t.Logf("USPS stand-in: variance %.4f vs predicted %.4f", v, pred)
}

func TestFigX1_1RobotWiFi(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the real data")
	}
	f := makeData(t, FigX1_1RobotWiFiDistances)
	v, pred := f.Numbers[0].Ours, f.Numbers[1].Ours
	// Like the book's real data sets, far more spread than independent
	// features predict (8/30).
	if math.Abs(pred-8.0/30) > 1e-12 || v < 3*pred {
		t.Errorf("X1.1: variance %v, predicted %v", v, pred)
	}
	t.Logf("robot WiFi: variance %.4f vs predicted %.4f", v, pred)
	checkGolden(t, f)
}
