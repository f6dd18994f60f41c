package dimred_test

import (
	"math"
	"testing"
	"time"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"

	"gonum.org/v1/gonum/mat"
)

// MVU on the spectral paper's two data sets with its settings (robot WiFi
// 215×30, k = 7, Fig. 5; stick man 55×102, k = 6, Fig. 3): the programme
// converges to the default tolerance, and on the robot data the embedding
// is compared with the robot's true path by Procrustes (rotation,
// reflection, scale).
func TestMVUPaperData(t *testing.T) {
	if testing.Short() {
		t.Skip("robot WiFi MVU: a 215-point SDP with ~1000 constraints (seconds)")
	}
	for _, c := range []struct {
		name string
		load func() (*datasets.Dataset, error)
		k    int
	}{
		{"robot", datasets.RobotWireless, 7},
		{"stick", datasets.Stick, 6},
	} {
		d, err := c.load()
		if datasets.Skippable(err) {
			t.Skip(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		m := &dimred.MVU{Q: 2, K: c.k}
		start, cpu0 := time.Now(), dimred.MVUCPUTime()
		if err := m.Fit(d.Y); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		el, cpu := time.Since(start), dimred.MVUCPUTime()-cpu0
		r := m.SDPReport()
		vals := m.EigenvaluesTo(nil)
		var tr float64
		for _, v := range vals {
			tr += v
		}
		t.Logf("%s: n = %d, k = %d, m = %d constraints, %d iterations, gap %.2g, primal %.2g, dual %.2g, max violation %.2g, top-2 share %.3f, %v wall, %v CPU",
			c.name, d.N(), c.k, r.Constraints, r.Iter, r.Gap, r.PrimalInfeas, r.DualInfeas, r.MaxViolation, (vals[0]+vals[1])/tr, el.Round(time.Millisecond), cpu.Round(time.Millisecond))
		if r.Gap > 1e-7 || r.PrimalInfeas > 1e-7 || r.DualInfeas > 1e-7 {
			t.Errorf("%s: report %+v beyond Tol 1e-7", c.name, r)
		}
		if d.T != nil {
			var X mat.Dense
			m.LatentTo(&X)
			pro, err := dimred.Procrustes(&X, d.T, &dimred.ProcrustesOptions{Scale: true})
			if err != nil {
				t.Fatal(err)
			}
			// The path's own RMS distance from its centroid, for scale.
			var spread float64
			for j := 0; j < 2; j++ {
				col := mat.Col(nil, j, d.T)
				var mu float64
				for _, v := range col {
					mu += v
				}
				mu /= float64(len(col))
				for _, v := range col {
					spread += (v - mu) * (v - mu)
				}
			}
			spread = math.Sqrt(spread / float64(d.N()))
			t.Logf("%s: Procrustes RMS against the true path %.3f (path spread %.3f)", c.name, pro.RMS, spread)
			if pro.RMS > 0.5*spread {
				t.Errorf("%s: Procrustes RMS %.3f is more than half the path's spread %.3f", c.name, pro.RMS, spread)
			}
		}
	}
}
