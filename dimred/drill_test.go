package dimred

import (
	"errors"
	"math"
	"testing"

	"github.com/dimredbook/book/dimred/neighbours"

	"gonum.org/v1/gonum/mat"
)

// drillS returns S = ŶŶᵀ/p.
func drillS(Y mat.Matrix) *mat.SymDense {
	n, p := Y.Dims()
	Yc := mat.DenseCopyOf(Y)
	centreColumns(Yc)
	S := mat.NewSymDense(n, nil)
	S.SymOuterK(1/float64(p), Yc)
	return S
}

// With ρ = 0 DRILL is covariance selection: the inverse of the returned
// precision, computed here independently, matches S = ŶŶᵀ/p on every graph
// edge and on the diagonal, and Θ is zero off the graph (paper §3).
func TestDRILLCovarianceSelectionKKT(t *testing.T) {
	Y := meuToyData(30, 8, 6)
	n, _ := Y.Dims()
	d := &DRILL{Q: 2, K: 4, Tol: 1e-8}
	if err := d.Fit(Y); err != nil {
		t.Fatal(err)
	}
	S := drillS(Y)
	var Th mat.SymDense
	d.PrecisionTo(&Th)
	var W mat.Dense
	if err := W.Inverse(&Th); err != nil {
		t.Fatal(err)
	}
	nb, _ := neighbours.KNearest(Y, 4)
	edge := make([][]bool, n)
	for i := range edge {
		edge[i] = make([]bool, n)
		edge[i][i] = true
	}
	for i := range n {
		idx, _ := nb.Of(i)
		for _, j := range idx {
			edge[i][j], edge[j][i] = true, true
		}
	}
	scale := d.KKT().Scale
	t.Logf("KKT %+v iters %d", d.KKT(), d.Iterations())
	for i := range n {
		for j := range n {
			if edge[i][j] {
				// Θ is assembled from the column solutions and is less
				// accurate than W (KKT.Inverse = max|WΘ − I| ≈ 2e-5 here).
				if v := math.Abs(W.At(i, j) - S.At(i, j)); v > 1e-4*scale {
					t.Errorf("(Θ⁻¹)_%d,%d − S_%[1]d,%[2]d = %.3g on the graph", i, j, v)
				}
			} else if Th.At(i, j) != 0 {
				t.Errorf("θ_%d,%d = %v off the graph", i, j, Th.At(i, j))
			}
		}
	}
	// At the covariance-selection optimum tr(S W⁻¹) = n, so log p =
	// −(p/2)(log|W| + n) − (np/2) log 2π.
	var Wf mat.SymDense
	d.CovarianceTo(&Wf)
	var chW mat.Cholesky
	chW.Factorize(&Wf)
	_, p := Y.Dims()
	want := -0.5*float64(p)*(chW.LogDet()+float64(n)) - 0.5*float64(n*p)*math.Log(2*math.Pi)
	if got := d.LogLikelihood(); math.Abs(got-want) > 1e-6*math.Abs(want) {
		t.Errorf("log-likelihood %.10g, covariance-selection identity %.10g", got, want)
	}
	k := d.KKT()
	if k.Edge > 1e-5*scale || k.Diagonal > 1e-5*scale || k.OffGraph != 0 {
		t.Errorf("KKT report %+v", k)
	}
}

// With ρ > 0 the covariance stays within ρ of S on the graph (diagonal:
// W_ii = S_ii + ρ), and the sweep prunes edges as ρ grows.
func TestDRILLPathL1(t *testing.T) {
	Y := meuToyData(30, 8, 7)
	S := drillS(Y)
	n, _ := Y.Dims()
	scale := 0.0
	for i := range n {
		for j := range n {
			if i != j {
				scale += math.Abs(S.At(i, j))
			}
		}
	}
	scale /= float64(n * (n - 1))
	rhos := []float64{0, 0.1 * scale, 0.3 * scale, scale}
	fits, err := DRILLPath(Y, DRILL{Q: 2, K: 8, Tol: 1e-7}, rhos)
	if err != nil {
		t.Fatal(err)
	}
	for f, d := range fits {
		rho := rhos[f]
		var W mat.SymDense
		d.CovarianceTo(&W)
		for i := range n {
			if v := math.Abs(W.At(i, i) - S.At(i, i) - rho); v > 1e-4*scale {
				t.Errorf("ρ=%g: W_ii − S_ii − ρ = %.3g", rho, v)
			}
		}
		if k := d.KKT(); k.Edge > 1e-4*scale {
			t.Errorf("ρ=%g: KKT edge violation %.3g", rho, k.Edge)
		}
		// The lasso path need not prune monotonically step by step; only
		// the overall pruning is checked below.
		t.Logf("ρ=%.4g: %d edges", rho, d.Edges())
	}
	if fits[len(fits)-1].Edges() >= fits[0].Edges() {
		t.Errorf("L1 pruned no edges: %d → %d", fits[0].Edges(), fits[len(fits)-1].Edges())
	}
}

// Every pair allowed with ρ = 0 has no solution (S is singular after
// centring); with ρ > 0 it is the ordinary graphical lasso.
func TestDRILLAllPairs(t *testing.T) {
	Y := meuToyData(20, 30, 8)
	if err := (&DRILL{Q: 2, AllPairs: true}).Fit(Y); !errors.Is(err, ErrSingular) {
		t.Errorf("ρ = 0, all pairs: error %v, want ErrSingular", err)
	}
	d := &DRILL{Q: 2, AllPairs: true, Rho: 0.01, Tol: 1e-7}
	if err := d.Fit(Y); err != nil {
		t.Fatal(err)
	}
	if k := d.KKT(); k.Edge > 1e-4*k.Scale || k.Diagonal > 1e-4*k.Scale {
		t.Errorf("KKT %+v", k)
	}
}

// DRILL against a brute-force convex solution on a tiny problem: proximal
// gradient (ISTA with backtracking) on the entries of Θ allowed by the
// graph, minimising −log|Θ| + tr(SΘ) + ρ Σ_ij |θ_ij| (diagonal included),
// run to a fixed point. The graph is a ring, so the pattern is genuinely
// restricted; ρ = 0 and ρ > 0.
func TestDRILLBruteForce(t *testing.T) {
	Y := meuToyData(7, 10, 21)
	n, _ := Y.Dims()
	S := drillS(Y)
	nb, err := neighbours.KNearest(Y, 2)
	if err != nil {
		t.Fatal(err)
	}
	allowed := make([][]bool, n)
	for i := range allowed {
		allowed[i] = make([]bool, n)
		allowed[i][i] = true
	}
	for i := range n {
		idx, _ := nb.Of(i)
		for _, j := range idx {
			allowed[i][j], allowed[j][i] = true, true
		}
	}
	for _, rho := range []float64{0, 0.02} {
		d := &DRILL{Q: 2, K: 2, Rho: rho, Tol: 1e-10, MaxIter: 100000}
		if err := d.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var got mat.SymDense
		d.PrecisionTo(&got)
		want := drillISTA(S, allowed, rho)
		scale := mat.Norm(want, math.Inf(1))
		diff := maxAbsDiff(&got, want)
		t.Logf("ρ=%g: max difference %.3g, ‖Θ‖∞ %.3g, edges %d", rho, diff, scale, d.Edges())
		if diff > 1e-4*scale {
			t.Errorf("ρ=%g: max |Θ_DRILL − Θ_brute| = %.3g (‖Θ‖∞ = %.3g)", rho, diff, scale)
		}
	}
}

// drillISTA minimises −log|Θ| + tr(SΘ) + ρ Σ_ij |θ_ij| over symmetric
// positive definite Θ with the given pattern by proximal gradient.
func drillISTA(S *mat.SymDense, allowed [][]bool, rho float64) *mat.SymDense {
	n := S.SymmetricDim()
	obj := func(Th *mat.SymDense) float64 {
		var ch mat.Cholesky
		if !ch.Factorize(Th) {
			return math.Inf(1)
		}
		var f float64
		for i := range n {
			for j := range n {
				f += S.At(i, j)*Th.At(i, j) + rho*math.Abs(Th.At(i, j))
			}
		}
		return f - ch.LogDet()
	}
	soft := func(x, a float64) float64 {
		switch {
		case x > a:
			return x - a
		case x < -a:
			return x + a
		}
		return 0
	}
	Th := mat.NewSymDense(n, nil)
	for i := range n {
		Th.SetSym(i, i, 1/(S.At(i, i)+rho+1e-3))
	}
	step := 1.0
	f := obj(Th)
	for it := 0; it < 200000; it++ {
		var W mat.SymDense
		var ch mat.Cholesky
		ch.Factorize(Th)
		ch.InverseTo(&W)
		var next *mat.SymDense
		var fn float64
		for {
			next = mat.NewSymDense(n, nil)
			for i := range n {
				for j := i; j < n; j++ {
					if !allowed[i][j] {
						continue
					}
					g := S.At(i, j) - W.At(i, j)
					next.SetSym(i, j, soft(Th.At(i, j)-step*g, step*rho))
				}
			}
			fn = obj(next)
			if fn <= f {
				break
			}
			step /= 2
		}
		change := maxAbsDiff(next, Th)
		Th, f = next, fn
		step *= 1.5
		if change < 1e-13*mat.Norm(Th, math.Inf(1)) {
			break
		}
	}
	return Th
}
