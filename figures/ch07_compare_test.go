package figures

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dimredbook/book/datasets"
	"gonum.org/v1/gonum/mat"
)

// X7.1: every method scored on every data set; the GP-LVM on oil beats the
// book's best oil figure, GTM 30×30 with 11 nearest-neighbour errors (book
// Fig 6.10(c)). Runs every method (minutes): not in -short.
func TestX7_1Comparison(t *testing.T) {
	if testing.Short() {
		t.Skip("fits every method on four data sets")
	}
	f, err := FigX7_1Comparison()
	if err != nil {
		if datasets.Skippable(err) {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, n := range f.Numbers {
		got[n.Name] = n.Ours
	}
	scores, err := CompareScores()
	if err != nil {
		t.Fatal(err)
	}
	notRun := map[string]bool{}
	for _, s := range scores {
		switch {
		case errors.Is(s.Err, errNotRun):
			notRun[s.Data+"/"+s.Method] = true
		case s.X == nil:
			t.Errorf("%s on %s failed: %v", s.Method, s.Data, s.Err)
		}
		if s.X != nil && s.Data == "oil" && s.X.RawMatrix().Rows != 1000 {
			t.Errorf("%s on oil embeds %d points, want all 1000", s.Method, s.X.RawMatrix().Rows)
		}
	}
	// Every method embeds oil: LE, LLE and Isomap by joining the kNN
	// graph's components, MVU, MEU and DRILL through a subsample.
	if len(notRun) != 2 {
		t.Errorf("%d cells not run, want 2 (GTM, density network on the sixes): %v", len(notRun), notRun)
	}
	for _, d := range []string{"oil", "stick man", "robot WiFi", "rotated sixes"} {
		for _, m := range CompareMethods {
			if notRun[d+"/"+m.Name] {
				continue
			}
			key := d + "/" + m.Name + "/T(5)"
			v, ok := got[key]
			if !ok || !(v > 0.5 && v <= 1) {
				t.Errorf("%s = %v (present %v), want a trustworthiness in (0.5, 1]", key, v, ok)
			}
		}
	}
	// Acyclic LLE with the regulariser on oil no longer collapses: the
	// unregularised fit's 501 errors (chance ≈ 666) against far fewer.
	if raw, reg := got["oil/AcyclicLLE unregularised/1-NN errors"], got["oil/AcyclicLLE/1-NN errors"]; !(reg < raw/4) {
		t.Errorf("AcyclicLLE on oil: %v errors regularised, %v unregularised; want the regulariser to fix the collapse", reg, raw)
	}
	for _, m := range []string{"GPLVM", "GPLVM (back-constrained)"} {
		if v := got["oil/"+m+"/1-NN errors"]; !(v < 11) {
			t.Errorf("%s on oil: %v nearest-neighbour errors, want fewer than GTM 30×30's 11 (book Fig 6.10(c))", m, v)
		}
	}
	// PCA's count is fixed by the data (a closed-form embedding): a check
	// that the oil rows are the right data in the right order.
	if v := got["oil/PCA/1-NN errors"]; v != 162 {
		t.Errorf("PCA on oil: %v errors, want 162", v)
	}
	if !strings.Contains(f.Caption, "beyond the book") {
		t.Error("caption does not say the figure is beyond the book")
	}
}

// CompareRun fits two methods at once (compareWorkers): the scores must be
// those of the fits run one at a time, bit for bit, in table order. Every
// method but the density network (seconds) on the stick man (55 points).
func TestCompareRunConcurrentSameAsSerial(t *testing.T) {
	data, err := CompareDatasets()
	if err != nil {
		if datasets.Skippable(err) {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	var stick *CompareData
	for _, d := range data {
		if d.Name == "stick man" {
			stick = d
		}
	}
	var methods []CompareMethod
	for _, m := range CompareMethods {
		if m.Name != "DensityNetwork" {
			methods = append(methods, m)
		}
	}
	started := 0
	got := CompareRun(methods, []*CompareData{stick}, func(i, n int, _, _ string) {
		if i != started || n != len(methods) {
			t.Errorf("progress(%d, %d) after %d fits started, want (%d, %d)", i, n, started, started, len(methods))
		}
		started++
	})
	if len(got) != len(methods) || started != len(methods) {
		t.Fatalf("%d scores, %d progress calls, want %d", len(got), started, len(methods))
	}
	for i, m := range methods {
		want := compareOne(m, stick)
		g := got[i]
		if g.Method != m.Name || g.Data != stick.Name {
			t.Fatalf("score %d is %s on %s, want %s on %s", i, g.Method, g.Data, m.Name, stick.Name)
		}
		if (g.X == nil) != (want.X == nil) || g.X != nil && !mat.Equal(g.X, want.X) {
			t.Errorf("%s: concurrent embedding differs from the serial one", m.Name)
		}
		same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		if g.NNErrors != want.NNErrors || !same(g.T5, want.T5) || !same(g.T10, want.T10) || !same(g.C5, want.C5) ||
			!same(g.C10, want.C10) || !same(g.QNX10, want.QNX10) || !same(g.Score, want.Score) || !same(g.LogLikelihood, want.LogLikelihood) {
			t.Errorf("%s: concurrent scores %+v differ from serial %+v", m.Name, g, want)
		}
	}
}

// The comparison's last progress line is a persistent summary that
// scripts/nbcheck recognises as a progress display, and it says nothing
// that differs between a computed and a cached run.
func TestCompareSummaryIsProgressLine(t *testing.T) {
	s := compareSummary("comparison (computed once, then cached)", 15, []string{"oil"})
	if !IsProgressHTML(s) {
		t.Errorf("%q is not recognised as a progress line", s)
	}
	if want := "15 methods on oil"; !strings.Contains(s, want) {
		t.Errorf("%q does not say %q", s, want)
	}
}
