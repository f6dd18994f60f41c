package figures

import (
	"image/color"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The shared primitives: jet runs blue → red and clamps; hueCycle's ends
// meet; matrixPanel takes any r×c matrix; view3D at (0, 90) looks down z.
func TestPlotPrimitives(t *testing.T) {
	if c := jet(0); c.B < 128 || c.R != 0 {
		t.Errorf("jet(0) = %v, want blue", c)
	}
	if c := jet(1); c.R < 128 || c.B != 0 {
		t.Errorf("jet(1) = %v, want red", c)
	}
	if jet(-1) != jet(0) || jet(2) != jet(1) {
		t.Error("jet does not clamp")
	}
	r0, g0, b0, _ := hueCycle(0).RGBA()
	r1, g1, b1, _ := hueCycle(1).RGBA()
	if r0 != r1 || g0 != g1 || b0 != b1 {
		t.Error("hueCycle(0) ≠ hueCycle(1)")
	}
	if hueCycle(1.0/3) == color.Color(hueCycle(0)) {
		t.Error("hueCycle constant")
	}
	p := matrixPanel(mat.NewDense(2, 3, []float64{0, 1, 2, 3, 4, 5}), 0, 5, "m", []float64{0, 5}, "%.0f")
	if p.X.Min != 0 || p.X.Max != 1.32*3 || p.Y.Max != 2 {
		t.Errorf("2×3 panel ranges x [%v, %v], y max %v", p.X.Min, p.X.Max, p.Y.Max)
	}
	if x, y, _ := view3D(1, 2, 3, 0, 90); !(math.Abs(x-1) < 1e-12 && math.Abs(y-2) < 1e-12) {
		t.Errorf("view3D from above: (%v, %v), want (1, 2)", x, y)
	}
}
