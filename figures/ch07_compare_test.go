package figures

import (
	"errors"
	"strings"
	"testing"

	"github.com/dimredbook/book/datasets"
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
