package datasets

import (
	"math"
	"slices"
	"testing"

	"github.com/dimredbook/book/dimred/highdim"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// distanceVariance is the caption statistic of the book's interpoint
// histograms: the sample variance of ‖z_i − z_j‖²/p after standardising
// the columns (catalog book-ch1-2.md §1.1).
func distanceVariance(t *testing.T, Y mat.Matrix) float64 {
	t.Helper()
	v, err := highdim.NormalisedInterpointDistances(Y)
	if err != nil {
		t.Fatal(err)
	}
	return stat.Variance(v, nil)
}

// The book's three empirical variances, to the printed digits, and the
// catalog's six-digit values.
func TestBookVariances(t *testing.T) {
	for _, tc := range []struct {
		name       string
		load       func() (*Dataset, error)
		book       float64 // printed to 3 significant figures
		tol        float64 // half a unit of the last printed digit
		catalog    float64 // catalog book-ch1-2.md §1.3
		catalogTol float64
	}{
		{"oil (Fig 1.10)", func() (*Dataset, error) { return Oil("train") }, 1.98, 0.005, 1.978941, 5e-7},
		{"stick (Fig 1.12)", Stick, 1.09, 0.005, 1.093243, 5e-7},
		{"spellman (Fig 1.14)", Spellman, 0.694, 0.0005, 0.693680, 5e-7},
		{"spellman gene means (catalog)", SpellmanGeneMeans, math.NaN(), 0, 0.692803, 5e-7},
	} {
		ds, err := tc.load()
		need(t, err)
		got := distanceVariance(t, ds.Y)
		if !math.IsNaN(tc.book) && math.Abs(got-tc.book) > tc.tol {
			t.Errorf("%s: variance %.6f, book %v", tc.name, got, tc.book)
		}
		if math.Abs(got-tc.catalog) > tc.catalogTol {
			t.Errorf("%s: variance %.6f, catalog %.6f", tc.name, got, tc.catalog)
		}
		t.Logf("%s: variance of normalised squared distances %.6f (book %v)", tc.name, got, tc.book)
	}
}

func TestStick(t *testing.T) {
	ds, err := Stick()
	need(t, err)
	if r, c := ds.Y.Dims(); r != 55 || c != 102 {
		t.Fatalf("Stick: %d×%d, want 55×102", r, c)
	}
	if len(ds.Markers) != 34 || len(ds.ColNames) != 102 || len(ds.Frames) != 55 || ds.Frames[54] != 216 {
		t.Errorf("Stick: %d markers, %d col names, frames %v", len(ds.Markers), len(ds.ColNames), ds.Frames)
	}
	for _, gone := range []string{"CLAV", "LTOE", "RBAC", "RBWT", "RWRA", "STRN", "T10"} {
		if slices.Contains(ds.Markers, gone) {
			t.Errorf("marker %s should have been dropped", gone)
		}
	}
	if len(ds.Edges) != 20 {
		t.Errorf("%d skeleton edges, want 20 (22 in connections.txt, 2 to STRN)", len(ds.Edges))
	}
	for _, e := range ds.Edges {
		if e[0] < 0 || e[0] >= 34 || e[1] < 0 || e[1] >= 34 || e[0] == e[1] {
			t.Errorf("bad edge %v", e)
		}
	}
	// Per-frame centring: every frame's x, y and z blocks have mean 0.
	for i := range 55 {
		for b := range 3 {
			s := 0.0
			for k := range 34 {
				s += ds.Y.At(i, 34*b+k)
			}
			if math.Abs(s) > 1e-9 {
				t.Fatalf("frame %d block %d sums to %v", i, b, s)
			}
		}
	}
}

func TestRobotWireless(t *testing.T) {
	tr, err := RobotWireless()
	need(t, err)
	te, err := RobotWirelessTest()
	need(t, err)
	if r, c := tr.Y.Dims(); r != 215 || c != 30 {
		t.Errorf("train %d×%d, want 215×30", r, c)
	}
	if r, c := te.Y.Dims(); r != 179 || c != 30 {
		t.Errorf("test %d×%d, want 179×30 (394 − 215)", r, c)
	}
	if r, c := tr.T.Dims(); r != 215 || c != 2 {
		t.Errorf("T %d×%d", r, c)
	}
	if !slices.IsSorted(tr.ColNames) || len(tr.ColNames) != 30 || !slices.Equal(tr.ColNames, te.ColNames) {
		t.Errorf("MAC columns %v", tr.ColNames)
	}
	// The fill value −92 dBm maps to (−92+85)/15 = −7/15, the smallest value.
	fill := -7.0 / 15
	if m := mat.Min(tr.Y); math.Abs(m-fill) > 1e-12 {
		t.Errorf("min %v, want the fill %v", m, fill)
	}
	// uw-floor.txt line 1: 1135214648.218 00:0f:04:02:07:f0 23.40 5.55 −62.
	j := slices.Index(tr.ColNames, "00:0f:04:02:07:f0")
	if j < 0 || math.Abs(tr.Y.At(0, j)-(-62.0+85)/15) > 1e-12 || tr.T.At(0, 0) != 23.40 || tr.T.At(0, 1) != 5.55 {
		t.Errorf("first observation: column %d, value %v, position %v,%v", j, tr.Y.At(0, j), tr.T.At(0, 0), tr.T.At(0, 1))
	}
	t.Logf("robot WiFi: variance of normalised squared distances %.4f (p = 30, predicted %.4f)", distanceVariance(t, tr.Y), 8.0/30)
}

func TestSpellman(t *testing.T) {
	ds, err := Spellman()
	need(t, err)
	if r, c := ds.Y.Dims(); r != 77 || c != 6178 {
		t.Fatalf("Spellman %d×%d, want 77×6178", r, c)
	}
	if got := ds.ClassCounts(); !slices.Equal(got, []int{4, 18, 24, 17, 14}) {
		t.Errorf("group sizes %v, want 4/18/24/17/14", got)
	}
	if !slices.Equal(ds.LabelNames, []string{"cln3/clb2", "alpha", "cdc15", "cdc28", "elu"}) {
		t.Errorf("groups %v", ds.LabelNames)
	}
	if len(ds.RowNames) != 77 || ds.RowNames[0] != "cln3-1" || len(ds.ColNames) != 6178 || ds.ColNames[0] != "YAL001C" {
		t.Errorf("names: rows %v…, cols %v…", ds.RowNames[:2], ds.ColNames[:2])
	}
	zeros := 0
	for i := range 77 {
		for j := range 6178 {
			if ds.Y.At(i, j) == 0 {
				zeros++
			}
		}
	}
	// README: 5.9% missing (plus genuine zeros).
	if frac := float64(zeros) / (77 * 6178); frac < 0.059 || frac > 0.08 {
		t.Errorf("zero fraction %.3f", frac)
	}
	// combined.txt line 2: YAL001C, cln3-1 = 0.15, cln3-2 missing.
	if ds.Y.At(0, 0) != 0.15 || ds.Y.At(1, 0) != 0 {
		t.Errorf("YAL001C: %v %v", ds.Y.At(0, 0), ds.Y.At(1, 0))
	}
}

func TestUSPS(t *testing.T) {
	for _, tc := range []struct {
		split  string
		n      int
		counts []int // zip.info.txt
	}{
		{"train", 7291, []int{1194, 1005, 731, 658, 652, 556, 664, 645, 542, 644}},
		{"test", 2007, []int{359, 264, 198, 166, 200, 160, 170, 147, 166, 177}},
	} {
		ds, err := USPS(tc.split)
		need(t, err)
		if r, c := ds.Y.Dims(); r != tc.n || c != 256 {
			t.Errorf("USPS(%s) %d×%d", tc.split, r, c)
		}
		if got := ds.ClassCounts(); !slices.Equal(got, tc.counts) {
			t.Errorf("USPS(%s) counts %v, want %v", tc.split, got, tc.counts)
		}
		if mat.Min(ds.Y) < -1 || mat.Max(ds.Y) > 1 {
			t.Errorf("USPS(%s) values outside [−1, 1]", tc.split)
		}
	}
	if _, err := USPS("validation"); err == nil {
		t.Error("USPS(validation): no error")
	}
}

func TestSpellmanWithMissing(t *testing.T) {
	ds, err := SpellmanWithMissing()
	need(t, err)
	z, err := Spellman()
	need(t, err)
	nan := 0
	for i := range 77 {
		for j := range 6178 {
			v := ds.Y.At(i, j)
			if math.IsNaN(v) {
				nan++
				if z.Y.At(i, j) != 0 {
					t.Fatalf("missing [%d,%d] is %v in Spellman()", i, j, z.Y.At(i, j))
				}
			} else if v != z.Y.At(i, j) {
				t.Fatalf("[%d,%d] %v vs %v", i, j, v, z.Y.At(i, j))
			}
		}
	}
	// README: 5.9% missing.
	if frac := float64(nan) / (77 * 6178); math.Abs(frac-0.059) > 0.0005 {
		t.Errorf("missing fraction %.4f, README 5.9%%", frac)
	}
	t.Logf("Spellman: %d missing values (%.2f%%)", nan, 100*float64(nan)/(77*6178))
}
