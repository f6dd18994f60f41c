package dimred_test

import (
	"math"
	"testing"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
	"github.com/dimredbook/book/dimred/internal/glasso"
	"github.com/dimredbook/book/dimred/neighbours"

	"gonum.org/v1/gonum/mat"
)

// DRILL's default fit on the stick man with the paper's Fig 4c settings
// (k = 6, ρ = 0) reaches the optimum of covariance selection: the
// precision and covariance are mutual inverses (max|WΘ − I| ≤ 1e-6, on the
// graph and everywhere), W = S on the edges and diagonal, and W and the log
// likelihood agree with the graphical-lasso sweeps alone run to a tight
// tolerance (about 10⁴ sweeps). The paper's stopping rule alone stopped
// after 225 sweeps with max|WΘ − I| = 1.33 and a log likelihood 68 nats
// above the maximum; this test failed on that code.
func TestDRILLStickDefaultReachesOptimum(t *testing.T) {
	ds, err := datasets.Stick()
	if datasets.Skippable(err) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	Y := ds.Y
	n, p := Y.Dims()
	d := &dimred.DRILL{Q: 2, K: 6}
	if err := d.Fit(Y); err != nil {
		t.Fatal(err)
	}
	k := d.KKT()
	t.Logf("default: %d iterations, KKT %+v, log-likelihood %.6f", d.Iterations(), k, d.LogLikelihood())
	if k.Inverse > 1e-6 || k.Edge > 1e-6*k.Scale || k.Diagonal > 1e-6*k.Scale {
		t.Errorf("KKT %+v: want max|WΘ − I| ≤ 1e-6 and |W − S| ≤ 1e-6·scale on the graph", k)
	}
	var W, Theta mat.SymDense
	d.CovarianceTo(&W)
	d.PrecisionTo(&Theta)
	// max|WΘ − I| on the graph's entries (and the diagonal), recomputed.
	nb, err := neighbours.KNearest(Y, 6)
	if err != nil {
		t.Fatal(err)
	}
	var P mat.Dense
	P.Mul(&W, &Theta)
	var onGraph float64
	graph := make([][]int, n)
	for i := 0; i < n; i++ {
		idx, _ := nb.Of(i)
		graph[i] = append([]int(nil), idx...)
		onGraph = max(onGraph, math.Abs(P.At(i, i)-1))
		for _, j := range idx {
			onGraph = max(onGraph, math.Abs(P.At(i, j)), math.Abs(P.At(j, i)))
		}
	}
	if onGraph > 1e-6 {
		t.Errorf("max|WΘ − I| on the graph = %.3g, want ≤ 1e-6", onGraph)
	}

	// The sweeps alone, to a tight tolerance.
	Yc := mat.DenseCopyOf(Y)
	for j := 0; j < p; j++ {
		var m float64
		for i := 0; i < n; i++ {
			m += Yc.At(i, j)
		}
		m /= float64(n)
		for i := 0; i < n; i++ {
			Yc.Set(i, j, Yc.At(i, j)-m)
		}
	}
	S := mat.NewSymDense(n, nil)
	S.SymOuterK(1/float64(p), Yc)
	ref, err := glasso.Solve(S, glasso.Penalty{Graph: graph}, &glasso.Settings{Tol: 1e-12, MaxIter: 100000, KKTTol: -1, PenaliseDiagonal: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("sweeps to Tol 1e-12: %d sweeps, KKT %+v", ref.Iterations, ref.KKT)
	var maxW, maxD float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			maxW = max(maxW, math.Abs(ref.W.At(i, j)))
			maxD = max(maxD, math.Abs(W.At(i, j)-ref.W.At(i, j)))
		}
	}
	if maxD > 1e-6*maxW {
		t.Errorf("max|W − W_tight| = %.3g, %.3g of max|W|", maxD, maxD/maxW)
	}
	// log p(Y) = (p/2)(log|Θ| − tr SΘ) − (np/2) log 2π at the tight solution.
	ll := 0.5*float64(p)*ref.Objective - 0.5*float64(n*p)*math.Log(2*math.Pi)
	if math.Abs(d.LogLikelihood()-ll) > 1e-6*math.Abs(ll) {
		t.Errorf("log-likelihood %.6f, tight solve %.6f", d.LogLikelihood(), ll)
	}
}
