package dimred

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"
)

// twoPlanes samples n points on each of two noisy 2-D planes in 5-D with
// different orientations and centres.
func twoPlanes(n int, seed uint64) (*mat.Dense, []int, [2]*mat.Dense) {
	rnd := rand.New(rand.NewPCG(seed, 5))
	p := 5
	var ws [2]*mat.Dense
	y := mat.NewDense(2*n, p, nil)
	lab := make([]int, 2*n)
	for k := 0; k < 2; k++ {
		w := mat.NewDense(p, 2, nil)
		for i := range w.RawMatrix().Data {
			w.RawMatrix().Data[i] = rnd.NormFloat64()
		}
		ws[k] = w
		for i := k * n; i < (k+1)*n; i++ {
			lab[i] = k
			x0, x1 := rnd.NormFloat64(), rnd.NormFloat64()
			for j := 0; j < p; j++ {
				c := 0.0
				if j == 0 {
					c = 8 * float64(2*k-1)
				}
				y.Set(i, j, c+w.At(j, 0)*x0+w.At(j, 1)*x1+0.1*rnd.NormFloat64())
			}
		}
	}
	return y, lab, ws
}

func TestMixturePPCASeparatesPlanes(t *testing.T) {
	y, lab, ws := twoPlanes(300, 1)
	prev := math.Inf(-1)
	m := MixturePPCA{M: 2, Q: 2, Monitor: func(_ int, ll float64) bool {
		if ll < prev-1e-9*math.Abs(ll) {
			t.Errorf("MPPCA EM decreased log p: %v → %v", prev, ll)
		}
		prev = ll
		return false
	}}
	if err := m.Fit(y); err != nil {
		t.Fatal(err)
	}
	got := m.Labels()
	agree := 0
	for i := range got {
		if got[i] == lab[i] {
			agree++
		}
	}
	if agree < len(got)/2 {
		agree = len(got) - agree // label switching
	}
	if agree < len(got)-3 {
		t.Errorf("only %d of %d points assigned to their plane", agree, len(got))
	}
	for k := 0; k < 2; k++ {
		var w mat.Dense
		m.ComponentLoadingsTo(&w, k)
		a := math.Min(linalg.SubspaceAngle(&w, ws[0]), linalg.SubspaceAngle(&w, ws[1]))
		if a > 0.05 {
			t.Errorf("component %d plane off by %g rad", k, a)
		}
	}
	for _, s2 := range m.NoiseVariancesTo(nil) {
		if math.Abs(s2-0.01) > 0.003 {
			t.Errorf("σ² = %v, true 0.01", s2)
		}
	}
}

func TestMixturePPCAOneComponentIsPPCA(t *testing.T) {
	y := lowRank(200, 6, 2, 0.3, 2)
	m := MixturePPCA{M: 1, Q: 2}
	if err := m.Fit(y); err != nil {
		t.Fatal(err)
	}
	pp := PPCA{Q: 2}
	if err := pp.Fit(y); err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(m.LogLikelihood() - pp.LogLikelihood()); d > 1e-8*math.Abs(pp.LogLikelihood()) {
		t.Errorf("M = 1 log p %v, PPCA %v", m.LogLikelihood(), pp.LogLikelihood())
	}
	var a, b mat.Dense
	m.LatentTo(&a)
	pp.LatentTo(&b)
	if !mat.EqualApprox(&a, &b, 1e-8) {
		t.Error("M = 1 latent positions differ from PPCA")
	}
}

func TestMixturePPCABadInput(t *testing.T) {
	y, _, _ := twoPlanes(10, 2)
	y.Set(1, 1, math.Inf(-1))
	if err := (&MixturePPCA{M: 2, Q: 1}).Fit(y); !errors.Is(err, ErrNaN) {
		t.Errorf("Inf: %v", err)
	}
	mustPanic(t, "M = 0", func() { _ = (&MixturePPCA{M: 0, Q: 1}).Fit(y) })
	mustPanic(t, "q ≥ p", func() { _ = (&MixturePPCA{M: 1, Q: 5}).Fit(y) })
	if err := (&MixturePPCA{M: 4, Q: 2}).Fit(mat.NewDense(5, 5, nil)); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("too few: %v", err)
	}
}

// The responsibilities are the posterior component probabilities
// r_ik = π_k N(y_i | μ_k, C_k) / Σ_m π_m N(y_i | μ_m, C_m) at the returned
// parameters, computed independently with distmv (C_k = W_k W_kᵀ + σ_k² I),
// and LogLikelihood is Σᵢ log Σ_k π_k N(y_i | μ_k, C_k). The mixture's
// components overlap here so that responsibilities are not all 0 or 1.
func TestMixturePPCAResponsibilities(t *testing.T) {
	y, _, _ := twoPlanes(150, 41)
	// Pull the planes together so that many points are shared.
	n, p := y.Dims()
	for i := 0; i < n; i++ {
		y.Set(i, 0, y.At(i, 0)/8)
	}
	m := MixturePPCA{M: 2, Q: 2, MaxIter: 5, Tol: -1}
	if err := m.Fit(y); err != nil {
		t.Fatal(err)
	}
	pi := m.WeightsTo(nil)
	logp := mat.NewDense(n, 2, nil)
	for k := 0; k < 2; k++ {
		var w mat.Dense
		m.ComponentLoadingsTo(&w, k)
		nrm, ok := distmv.NewNormal(m.ComponentMeanTo(nil, k), gaussCov(&w, isoNoise(p, m.NoiseVariancesTo(nil)[k])), nil)
		if !ok {
			t.Fatal("component covariance not positive definite")
		}
		for i := 0; i < n; i++ {
			logp.Set(i, k, math.Log(pi[k])+nrm.LogProb(y.RawRowView(i)))
		}
	}
	var r mat.Dense
	m.ResponsibilitiesTo(&r)
	var ll float64
	mixed := 0
	for i := 0; i < n; i++ {
		a, b := logp.At(i, 0), logp.At(i, 1)
		lse := math.Max(a, b) + math.Log1p(math.Exp(-math.Abs(a-b)))
		ll += lse
		if sum := r.At(i, 0) + r.At(i, 1); math.Abs(sum-1) > 1e-12 {
			t.Errorf("row %d: responsibilities sum to %v", i, sum)
		}
		for k, lp := range []float64{a, b} {
			if want := math.Exp(lp - lse); math.Abs(r.At(i, k)-want) > 1e-10 {
				t.Errorf("r[%d,%d] = %v, posterior %v", i, k, r.At(i, k), want)
			}
		}
		if v := r.At(i, 0); v > 0.01 && v < 0.99 {
			mixed++
		}
	}
	if mixed < 5 {
		t.Errorf("only %d points with responsibilities in (0.01, 0.99): the test needs overlap", mixed)
	}
	if got := m.LogLikelihood(); math.Abs(got-ll) > 1e-9*math.Abs(ll) {
		t.Errorf("LogLikelihood = %v, Σ log Σ π N = %v", got, ll)
	}
}
