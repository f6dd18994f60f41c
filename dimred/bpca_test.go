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

// LogLikelihood is the Gaussian log-likelihood Σᵢ log N(y_i | μ, WWᵀ + σ²I)
// at the returned W, σ², μ, computed independently with distmv; the
// objective seen by Monitor is that plus the ARD log prior
// Σᵢ [(p/2) log(αᵢ/2π) − (αᵢ/2)‖w_{:,i}‖²] and never decreases while no
// column is pruned. (The log-likelihood used to be off by
// (n/2)(p − q_active) log(2πσ²): the active dimension stood where p belongs.)
func TestBayesianPCALogLikelihoodIsGaussian(t *testing.T) {
	for _, c := range []struct {
		name       string
		y          *mat.Dense
		q, wantAct int
	}{
		{"no pruning", lowRank(200, 6, 2, 0.3, 11), 2, 2},
		{"pruned", lowRank(300, 8, 2, 0.5, 12), 5, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			n, p := c.y.Dims()
			var objs []float64
			m := BayesianPCA{Q: c.q, Monitor: func(_ int, obj float64) bool { objs = append(objs, obj); return false }}
			if err := m.Fit(c.y); err != nil {
				t.Fatal(err)
			}
			if got := m.ActiveDims(); got != c.wantAct {
				t.Fatalf("%d active dimensions, want %d", got, c.wantAct)
			}
			mu := m.MeanTo(nil)
			for j, v := range columnMeansRef(c.y) {
				if math.Abs(mu[j]-v) > 1e-12*(1+math.Abs(v)) {
					t.Errorf("Mean()[%d] = %v, column mean %v", j, mu[j], v)
				}
			}
			var w mat.Dense
			m.LoadingsTo(&w)
			s2 := m.NoiseVariance()
			want := gaussLogLik(t, c.y, mu, gaussCov(&w, isoNoise(p, s2)))
			if got := m.LogLikelihood(); math.Abs(got-want) > 1e-9*math.Abs(want) {
				t.Errorf("LogLikelihood = %.10g, Gaussian log-likelihood %.10g (difference %.4g; (n/2)(p−q)log 2πσ² = %.4g)",
					got, want, got-want, 0.5*float64(n)*float64(p-c.wantAct)*math.Log(2*math.Pi*s2))
			}
			prior := 0.0
			for i, a := range m.AlphasTo(nil) {
				if math.IsInf(a, 1) {
					continue
				}
				prior += 0.5*float64(p)*math.Log(a/(2*math.Pi)) - 0.5*a*colNormSq(&w, i)
			}
			if last := objs[len(objs)-1]; math.Abs(last-(want+prior)) > 1e-9*math.Abs(want+prior) {
				t.Errorf("final Monitor objective %.10g, log-likelihood + log prior %.10g", last, want+prior)
			}
			if c.name == "no pruning" {
				for i := 1; i < len(objs); i++ {
					if objs[i] < objs[i-1]-1e-9*math.Abs(objs[i-1]) {
						t.Errorf("objective fell at iteration %d: %.12g → %.12g", i, objs[i-1], objs[i])
					}
				}
			}
		})
	}
}

func columnMeansRef(y *mat.Dense) []float64 {
	n, p := y.Dims()
	mu := make([]float64, p)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			mu[j] += y.At(i, j) / float64(n)
		}
	}
	return mu
}

// The ARD update is αᵢ = p/‖w_{:,i}‖² with p the data dimension (Bishop
// 1999a, "Bayesian PCA", whose d is our p): checked on a W written by hand,
// and on the fitted model, whose α must be the update's value at its W.
func TestBayesianPCAAlphaUpdate(t *testing.T) {
	// p = 4: column 0 has ‖w‖² = 3² + 4² = 25, column 1 has 1, column 2 is
	// below the pruning threshold.
	wn := mat.NewDense(4, 3, []float64{
		3, 0, 0,
		4, 0, 1e-9,
		0, 1, 0,
		0, 0, 0,
	})
	st := &bpcaState{w: mat.NewDense(4, 3, nil), alpha: make([]float64, 3), prune: 1e-12}
	st.setColumns(wn, []int{0, 1, 2})
	want := []float64{4.0 / 25, 4.0 / 1, math.Inf(1)}
	for i, a := range st.alpha {
		if a != want[i] && !(math.Abs(a-want[i]) <= 1e-15*want[i]) {
			t.Errorf("α[%d] = %v, want %v", i, a, want[i])
		}
	}
	if len(st.active) != 2 || st.active[0] != 0 || st.active[1] != 1 {
		t.Errorf("active = %v, want [0 1]", st.active)
	}
	if st.w.At(1, 2) != 0 {
		t.Error("pruned column not zeroed")
	}

	y := lowRank(300, 7, 3, 0.4, 13)
	m := BayesianPCA{Q: 5}
	if err := m.Fit(y); err != nil {
		t.Fatal(err)
	}
	var w mat.Dense
	m.LoadingsTo(&w)
	_, p := y.Dims()
	for i, a := range m.AlphasTo(nil) {
		nrm := colNormSq(&w, i)
		if math.IsInf(a, 1) {
			if nrm != 0 {
				t.Errorf("column %d pruned (α = +Inf) but ‖w‖² = %v", i, nrm)
			}
			continue
		}
		if want := float64(p) / nrm; math.Abs(a-want) > 1e-12*want {
			t.Errorf("α[%d] = %v, p/‖w‖² = %v", i, a, want)
		}
	}
}

// With the defaults Bayesian PCA converges on the conformance data (it used
// to stop at MaxIter with ErrNotConverged).
func TestBayesianPCADefaultsConverge(t *testing.T) {
	m := BayesianPCA{Q: 4}
	if err := m.Fit(conformanceData()); err != nil {
		t.Fatal(err)
	}
}

// The default fit reaches the MAP fixed point of EM, not only a flat
// stretch of the objective: W Wᵀ and σ² within 10⁻⁶ (relative) of a very
// long plain EM run (both stopping tests off). On the oil data (q = 11,
// two αᵢ within 0.3 % of each other, whose columns rotate slowly) the old
// objective-only stop ended 1.6·10⁻³ away after 490 iterations; plain EM
// needs about 6400 steps to 10⁻¹². Both the accelerated default and
// PlainEM (stopped by the parameter test) must get there.
func TestBayesianPCAReachesFixedPoint(t *testing.T) {
	if testing.Short() {
		t.Skip("12 000 plain EM steps on the oil data (a few seconds)")
	}
	Y, _ := loadOilTrain(t)
	wwt := func(m *BayesianPCA) *mat.Dense {
		var W, C mat.Dense
		m.LoadingsTo(&W)
		C.Mul(&W, W.T())
		return &C
	}
	long := &BayesianPCA{MaxIter: 12000, Tol: -1, ParamTol: -1, PlainEM: true}
	if err := long.Fit(Y); err != nil {
		t.Fatal(err)
	}
	ref := wwt(long)
	for _, m := range []*BayesianPCA{{}, {PlainEM: true}} {
		if err := m.Fit(Y); err != nil {
			t.Fatalf("PlainEM %v: %v", m.PlainEM, err)
		}
		var d mat.Dense
		d.Sub(wwt(m), ref)
		dw := mat.Norm(&d, 2) / mat.Norm(ref, 2)
		ds := math.Abs(m.NoiseVariance()-long.NoiseVariance()) / long.NoiseVariance()
		t.Logf("PlainEM %v: %d iterations, ‖ΔWWᵀ‖/‖WWᵀ‖ = %.3g, |Δσ²|/σ² = %.3g", m.PlainEM, m.Iterations(), dw, ds)
		if dw > 1e-6 || ds > 1e-6 {
			t.Errorf("PlainEM %v: default fit %.3g (W Wᵀ), %.3g (σ²) from the fixed point, want ≤ 1e-6", m.PlainEM, dw, ds)
		}
	}
}
