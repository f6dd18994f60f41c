package dimred

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// faData samples n points from an FA model with the given noise variances.
func faData(n int, psi []float64, q int, seed uint64) (*mat.Dense, *mat.Dense) {
	p := len(psi)
	rnd := rand.New(rand.NewPCG(seed, 3))
	w := mat.NewDense(p, q, nil)
	for i := range w.RawMatrix().Data {
		w.RawMatrix().Data[i] = rnd.NormFloat64()
	}
	y := mat.NewDense(n, p, nil)
	x := make([]float64, q)
	for i := 0; i < n; i++ {
		for a := range x {
			x[a] = rnd.NormFloat64()
		}
		for j := 0; j < p; j++ {
			v := 2.0
			for a := range x {
				v += w.At(j, a) * x[a]
			}
			y.Set(i, j, v+math.Sqrt(psi[j])*rnd.NormFloat64())
		}
	}
	return y, w
}

func TestFactorAnalysisRecoversNoise(t *testing.T) {
	psi := []float64{0.1, 0.5, 1, 2, 0.05, 0.3, 1.5, 0.8}
	y, w := faData(20000, psi, 2, 1)
	prev := math.Inf(-1)
	fa := FactorAnalysis{Q: 2, Tol: 1e-12, Monitor: func(_ int, ll float64) bool {
		if ll < prev-1e-9*math.Abs(ll) {
			t.Errorf("FA EM decreased log p: %v → %v", prev, ll)
		}
		prev = ll
		return false
	}}
	if err := fa.Fit(y); err != nil {
		t.Fatal(err)
	}
	got := fa.NoiseVariancesTo(nil)
	// ψ_j is estimated to within a small fraction of the feature's
	// variance S_jj = ‖w_j‖² + ψ_j (n = 20000; small ψ under a large
	// loading are the hardest).
	for j := range psi {
		var sjj float64
		for a := 0; a < 2; a++ {
			sjj += w.At(j, a) * w.At(j, a)
		}
		sjj += psi[j]
		if math.Abs(got[j]-psi[j]) > 0.02*sjj {
			t.Errorf("ψ_%d = %.4f, true %.4f", j, got[j], psi[j])
		}
	}
	var wf mat.Dense
	fa.LoadingsTo(&wf)
	if a := linalg.SubspaceAngle(&wf, w); a > 0.05 {
		t.Errorf("loadings subspace off by %g rad", a)
	}
	// FA beats PPCA in likelihood on heteroscedastic noise.
	pp := PPCA{Q: 2}
	if err := pp.Fit(y); err != nil {
		t.Fatal(err)
	}
	if fa.LogLikelihood() <= pp.LogLikelihood() {
		t.Errorf("FA log p %v ≤ PPCA %v", fa.LogLikelihood(), pp.LogLikelihood())
	}
}

func TestFactorAnalysisScaleEquivariant(t *testing.T) {
	psi := []float64{0.2, 0.4, 0.3, 0.1, 0.5}
	y, _ := faData(500, psi, 1, 2)
	scale := []float64{1, 10, 0.1, 3, 1}
	ys := mat.DenseCopyOf(y)
	for i := 0; i < 500; i++ {
		for j, c := range scale {
			ys.Set(i, j, ys.At(i, j)*c)
		}
	}
	a, b := FactorAnalysis{Q: 1, Tol: 1e-13}, FactorAnalysis{Q: 1, Tol: 1e-13}
	if err := a.Fit(y); err != nil {
		t.Fatal(err)
	}
	if err := b.Fit(ys); err != nil {
		t.Fatal(err)
	}
	pa, pb := a.NoiseVariancesTo(nil), b.NoiseVariancesTo(nil)
	var logc float64
	for j, c := range scale {
		if math.Abs(pb[j]-c*c*pa[j]) > 1e-4*c*c*pa[j] {
			t.Errorf("ψ_%d: %v scaled, %v × %v²", j, pb[j], pa[j], c)
		}
		logc += math.Log(c)
	}
	if d := b.LogLikelihood() - (a.LogLikelihood() - 500*logc); math.Abs(d) > 1e-5*math.Abs(a.LogLikelihood()) {
		t.Errorf("log p not equivariant: off by %g", d)
	}
}

func TestFactorAnalysisBadInput(t *testing.T) {
	y, _ := faData(10, []float64{1, 1, 1, 1}, 1, 3)
	y.Set(0, 0, math.NaN())
	if err := (&FactorAnalysis{Q: 1}).Fit(y); !errors.Is(err, ErrNaN) {
		t.Errorf("NaN: %v", err)
	}
	mustPanic(t, "q ≥ p", func() { _ = (&FactorAnalysis{Q: 4}).Fit(y) })
	if err := (&FactorAnalysis{Q: 1}).Fit(mat.NewDense(1, 4, nil)); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("n ≤ q: %v", err)
	}
}

// ProjectTo is the posterior mean E[x|y] = Wᵀ C⁻¹ (y − μ) with C = WWᵀ + Ψ,
// computed by Gaussian conditioning on the p×p covariance (the model uses
// the q×q form G WᵀΨ⁻¹(y − μ)); on the training rows it is LatentTo.
func TestFactorAnalysisProjectTo(t *testing.T) {
	y := lowRank(300, 6, 2, 0.5, 31)
	m := FactorAnalysis{Q: 2}
	if err := m.Fit(y); err != nil {
		t.Fatal(err)
	}
	var w mat.Dense
	m.LoadingsTo(&w)
	psi := m.NoiseVariancesTo(nil)
	ynew := lowRank(5, 6, 2, 0.5, 32)
	var got mat.Dense
	m.ProjectTo(&got, ynew)
	if want := condMean(ynew, &w, m.MeanTo(nil), psi); !mat.EqualApprox(&got, want, 1e-10) {
		t.Errorf("ProjectTo = %v, want %v", mat.Formatted(&got), mat.Formatted(want))
	}
	var x, px mat.Dense
	m.LatentTo(&x)
	m.ProjectTo(&px, y)
	if !mat.EqualApprox(&x, &px, 1e-12) {
		t.Error("ProjectTo(Y) differs from LatentTo")
	}
	mustPanic(t, "wrong width", func() { var d mat.Dense; m.ProjectTo(&d, mat.NewDense(2, 5, nil)) })
	bad := mat.DenseCopyOf(ynew)
	bad.Set(1, 1, math.NaN())
	mustPanic(t, "NaN row", func() { var d mat.Dense; m.ProjectTo(&d, bad) })
}
