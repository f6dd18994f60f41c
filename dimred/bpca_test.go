package dimred

import (
	"errors"
	"math"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

func TestBayesianPCAKeepsTrueQ(t *testing.T) {
	for _, c := range []struct {
		n, p, q int
		noise   float64
	}{{500, 10, 2, 0.3}, {300, 8, 3, 0.5}, {1000, 12, 1, 0.2}} {
		y := lowRank(c.n, c.p, c.q, c.noise, uint64(c.p))
		m := BayesianPCA{}
		if err := m.Fit(y); err != nil {
			t.Fatal(err)
		}
		if got := m.ActiveDims(); got != c.q {
			t.Errorf("n=%d p=%d q=%d: %d active dimensions, α = %v", c.n, c.p, c.q, got, m.AlphasTo(nil))
		}
		if s := math.Sqrt(m.NoiseVariance()); math.Abs(s-c.noise) > 0.05*c.noise {
			t.Errorf("σ = %v, true %v", s, c.noise)
		}
		var w mat.Dense
		m.LoadingsTo(&w)
		pp := PPCA{Q: c.q}
		if err := pp.Fit(y); err != nil {
			t.Fatal(err)
		}
		var wp mat.Dense
		pp.LoadingsTo(&wp)
		var act []int
		for i, a := range m.AlphasTo(nil) {
			if !math.IsInf(a, 1) {
				act = append(act, i)
			}
		}
		if len(act) == c.q {
			if a := linalg.SubspaceAngle(subCols(&w, act), &wp); a > 0.01 {
				t.Errorf("active subspace %g rad from PPCA's", a)
			}
		}
	}
}

func TestBayesianPCABadInput(t *testing.T) {
	y := lowRank(20, 5, 2, 0.1, 8)
	y.Set(0, 0, math.NaN())
	if err := (&BayesianPCA{}).Fit(y); !errors.Is(err, ErrNaN) {
		t.Errorf("NaN: %v", err)
	}
	mustPanic(t, "q ≥ p", func() { _ = (&BayesianPCA{Q: 5}).Fit(y) })
	if err := (&BayesianPCA{}).Fit(mat.NewDense(1, 5, nil)); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("n < 2: %v", err)
	}
}

func TestBayesianPCAWide(t *testing.T) {
	y := lowRank(40, 100, 2, 0.3, 17) // p > n: Q defaults to n/2
	m := BayesianPCA{}
	if err := m.Fit(y); err != nil {
		t.Fatal(err)
	}
	if got := m.ActiveDims(); got != 2 {
		t.Errorf("p > n: %d active dimensions, want 2", got)
	}
}
