package figures

import (
	"math"
	"testing"
)

// TestFigX8_3: every method scores on every data set where it runs, the
// scores are rates in [0, 1], and t-SNE and UMAP keep oil's neighbourhoods
// better than PCA.
func TestFigX8_3(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 17 methods to 5 data sets")
	}
	f := makeData(t, FigX8_3NeighbourComparison)
	if len(f.Panels) != 5 {
		t.Fatalf("%d panels, want 5", len(f.Panels))
	}
	checkGolden(t, f)
	scores, _ := NeighbourComparison()
	byKey := map[string]NeighbourScore{}
	for _, s := range scores {
		byKey[s.Data+"/"+s.Method] = s
		if s.Err != "" {
			t.Logf("%s on %s: %s", s.Method, s.Data, s.Err)
			continue
		}
		for _, v := range []float64{s.T, s.C, s.Intrusions, s.Extrusions} {
			if !(v >= 0 && v <= 1) {
				t.Errorf("%s on %s: score %v outside [0, 1]", s.Method, s.Data, v)
			}
		}
		t.Logf("%-32s %-26s T %.3f C %.3f MRRE %.3f %.3f errors %d  %v", s.Data, s.Method, s.T, s.C, s.Intrusions, s.Extrusions, s.NNErrors, s.Time)
	}
	oil := "oil (every 9th point)"
	for _, m := range []string{"t-SNE", "UMAP"} {
		if s := byKey[oil+"/"+m]; math.IsNaN(s.T) || s.T <= byKey[oil+"/PCA"].T {
			t.Errorf("%s on oil: T(10) %.4f, PCA %.4f", m, s.T, byKey[oil+"/PCA"].T)
		}
	}
}
