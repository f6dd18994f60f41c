package figures

import (
	"math"
	"testing"
)

// Figures 4.1–4.5: the reference numbers (closed forms, computed
// independently) and the golden drawings.
func TestCh4BasisFigures(t *testing.T) {
	for _, c := range []struct {
		id   string
		make func() (*Figure, error)
		want map[int]float64 // Numbers index → value
		tol  float64
	}{
		{"4.1", Fig4_1BasisFunctions, map[int]float64{0: 1, 1: math.Exp(-1)}, 1e-12},
		{"4.2", Fig4_2BasisFunctionDistance, map[int]float64{0: 0.9069}, 5e-5},
		{"4.3", Fig4_3BasisFunctionsWide, nil, 0},
		{"4.4", Fig4_4BasisDistanceFar, map[int]float64{0: 3.05e-8}, 0.005e-8},
		{"4.5", Fig4_5InfiniteBasisDistance, map[int]float64{0: 2}, 5e-5},
	} {
		f, err := c.make()
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		if f.ID != c.id {
			t.Errorf("ID %q, want %q", f.ID, c.id)
		}
		for i, w := range c.want {
			if got := f.Numbers[i].Ours; math.Abs(got-w) > c.tol {
				t.Errorf("%s %s = %v, want %v", c.id, f.Numbers[i].Name, got, w)
			}
		}
		if st := f.Resolve(); st != Reproduced {
			t.Errorf("%s status %s", c.id, st)
		}
		checkGolden(t, f)
	}
	// Monte Carlo agrees with the expectation within 1 % (F4.2) and the
	// far-apart gap is tiny for the finite basis, ≈ 2 for the infinite one.
	f, _ := Fig4_2BasisFunctionDistance()
	if r := f.Numbers[1].Ours / f.Numbers[0].Ours; math.Abs(r-1) > 0.01 {
		t.Errorf("4.2 Monte Carlo / expected = %v", r)
	}
	f, _ = Fig4_3BasisFunctionsWide()
	if v := f.Numbers[0].Ours; v >= 1.3e-4 {
		t.Errorf("4.3 max φ on |y| ≥ 4 = %v, want < 1.3e-4", v)
	}
	f, _ = Fig4_5InfiniteBasisDistance()
	if v := f.Numbers[2].Ours; math.Abs(v-2) > 0.03 {
		t.Errorf("4.5 Monte Carlo ⟨(f_i − f_j)²⟩ = %v, want ≈ 2", v)
	}
}
