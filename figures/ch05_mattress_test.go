package figures

import (
	"math"
	"testing"
)

// Fig 5.1: the book's 4 springs per interior point (§5.7.1), the stiffness
// identities on both drawn sheets, equipartition of the heat-bath
// membrane's energy within five standard deviations
// (Var zᵀκLz = 2 Σ_k (κλ_k/(κλ_k + γ))² ≤ 2·expectation), and the golden
// drawing.
func TestFig5_1Mattress(t *testing.T) {
	f, err := Fig5_1Mattress()
	if err != nil {
		t.Fatal(err)
	}
	if st := f.Resolve(); st != Reproduced {
		t.Errorf("status %s", st)
	}
	num := map[string]float64{}
	for _, n := range f.Numbers {
		num[n.Name] = n.Ours
	}
	if v := num["springs per interior grid point"]; v != 4 {
		t.Errorf("%v springs per interior point, book says 4", v)
	}
	if v := num["springs"]; v != 180 {
		t.Errorf("%v springs on a 10×10 grid, want 2·10·9 = 180", v)
	}
	if v := num["max relative |½Σκ_ij‖y_i−y_j‖² − tr(LYYᵀ)| over both sheets"]; v > 1e-12 {
		t.Errorf("energy identity off by %g", v)
	}
	if v := num["max |(L1)_i|"]; v != 0 {
		t.Errorf("L1 = %g", v)
	}
	e, want := num["membrane spring energy zᵀκLz"], num["its expectation Σ_k κλ_k/(κλ_k + γ)"]
	if want < 98 || want > 99.01 {
		t.Errorf("expected energy %v, want just under n − 1 = 99", want)
	}
	if math.Abs(e-want) > 5*math.Sqrt(2*want) {
		t.Errorf("membrane energy %v, expectation %v", e, want)
	}
	checkGolden(t, f)
}
