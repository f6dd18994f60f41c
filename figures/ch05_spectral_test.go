package figures

import (
	"math"
	"strings"
	"testing"

	"github.com/dimredbook/book/datasets/dstest"
)

// Chapter 5 spectral figures: every number finite, the paper's qualitative
// claim on the robot data (Fig 5 caption: "LE and LLE struggle to capture
// the loop structure") as an ordering of Procrustes errors against the
// true path, Isomap unrolling the swiss roll better than LE and LLE, and
// the golden drawings.
func TestCh5SpectralFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("chapter 5 spectral figures: swiss roll and rotated sixes embeddings")
	}
	if _, err := ch5Robot.get(nil); err != nil {
		dstest.Check(t, err)
	}
	get := func(f *Figure, prefix, method string) float64 {
		for _, n := range f.Numbers {
			if strings.HasPrefix(n.Name, prefix) && strings.Contains(n.Name, "("+method) {
				return n.Ours
			}
		}
		t.Fatalf("%s: no number %q for %s", f.ID, prefix, method)
		return 0
	}
	for _, c := range []struct {
		id   string
		make func() (*Figure, error)
	}{
		{"P3", FigP3StickSpectral}, {"P5", FigP5RobotSpectral},
		{"X5.1", FigX5_1SwissRoll}, {"X5.2", FigX5_2SixesCircle},
		{"X5.3", FigX5_3StickQuality}, {"X5.4", FigX5_4RobotQuality},
		{"X5.5", FigX5_5SwissRollQuality}, {"X5.6", FigX5_6SixesQuality},
	} {
		f, err := drawOnce(c.make) // drawn once per process, shared with TestAllRegisteredFiguresRender
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		for _, n := range f.Numbers {
			if math.IsNaN(n.Ours) || math.IsInf(n.Ours, 0) {
				t.Errorf("%s: %s = %v", c.id, n.Name, n.Ours)
			}
			t.Logf("%s: %s = %.4f", c.id, n.Name, n.Ours)
		}
		switch c.id {
		case "P3":
			checkTimeKey(t, f)
		case "P5":
			checkTimeKey(t, f)
			const pre = "Procrustes"
			iso := get(f, pre, "Isomap")
			if le, lle := get(f, pre, "Laplacian"), get(f, pre, "LLE"); !(iso < le && iso < lle) {
				t.Errorf("robot: Isomap Procrustes error %.3f not below LE %.3f and LLE %.3f", iso, le, lle)
			}
			// The LLE panel is centred although M's null space is
			// two-dimensional (Roweis & Saul: Σᵢ xᵢ = 0).
			if c := get(f, "LLE: |mean|/sd of x₁", "constant"); !(c <= 1e-8) {
				t.Errorf("robot LLE: |mean|/sd of x₁ = %.3g, want ≤ 1e-8", c)
			}
		case "X5.2":
			// Every method has a panel (no "not run" placeholder).
			d, _ := ch5Sixes.get(nil)
			for i, X := range d.X {
				if X == nil {
					t.Errorf("X5.2: %s not run: %s", ch5Methods[i].Name, d.NotRun[i])
				}
			}
		case "X5.1":
			d, _ := ch5Swiss.get(nil)
			for i, X := range d.X {
				if X == nil {
					t.Errorf("X5.1: %s not run: %s", ch5Methods[i].Name, d.NotRun[i])
				}
			}
			const pre = "Procrustes"
			iso := get(f, pre, "Isomap")
			if iso > 0.2 {
				t.Errorf("swiss roll: Isomap Procrustes error %.3f > 0.2", iso)
			}
			if le, lle := get(f, pre, "Laplacian"), get(f, pre, "LLE"); !(iso < le && iso < lle) {
				t.Errorf("swiss roll: Isomap %.3f not below LE %.3f and LLE %.3f", iso, le, lle)
			}
		}
		checkGolden(t, f)
	}
}
