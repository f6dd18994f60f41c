package glasso

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// checkKKT verifies the optimality conditions of the package doc directly
// from S, W and Θ (not from Result.KKT): stationarity on allowed pairs and
// the diagonal within tol·scale, Θ exactly zero off the graph, WΘ = I within
// tol, and that Result.KKT agrees with what it measured.
func checkKKT(t *testing.T, name string, S mat.Symmetric, g [][]int, rho func(i, j int) float64, diagRho float64, res *Result, tol float64) {
	t.Helper()
	n := S.SymmetricDim()
	adj := adjacency(g, n)
	scale := meanAbsOffDiag(symSlice(S), n)
	var edge, diag, inv float64
	for i := 0; i < n; i++ {
		d := res.W.At(i, i) - S.At(i, i) - diagRho
		diag = max(diag, math.Abs(d))
		for j := 0; j < n; j++ {
			if i == j {
				continue
			}
			th := res.Theta.At(i, j)
			if !adj[i][j] {
				if th != 0 {
					t.Errorf("%s: Θ[%d,%d] = %v off the graph, want exactly 0", name, i, j, th)
				}
				continue
			}
			r := rho(min(i, j), max(i, j))
			d := res.W.At(i, j) - S.At(i, j)
			var v float64
			if th != 0 {
				v = math.Abs(d - r*math.Copysign(1, th))
			} else {
				v = max(0, math.Abs(d)-r)
			}
			edge = max(edge, v)
		}
	}
	var p mat.Dense
	p.Mul(res.W, res.Theta)
	for i := 0; i < n; i++ {
		p.Set(i, i, p.At(i, i)-1)
	}
	inv = mat.Norm(&p, math.Inf(1)) // max row sum ≥ max entry
	if edge > tol*scale {
		t.Errorf("%s: edge stationarity violated by %.3g (> %.3g = tol·mean|S_ij|)", name, edge, tol*scale)
	}
	if diag > tol*scale {
		t.Errorf("%s: diagonal W_ii − S_ii − ρ off by %.3g", name, diag)
	}
	if inv > 1e3*tol {
		t.Errorf("%s: ‖WΘ − I‖∞ = %.3g", name, inv)
	}
	// Result.KKT must report the same quantities.
	if math.Abs(res.KKT.Edge-edge) > 1e-12*scale+1e-9*edge || math.Abs(res.KKT.Diagonal-diag) > 1e-12*scale {
		t.Errorf("%s: Result.KKT %+v disagrees with the direct check edge=%v diag=%v", name, res.KKT, edge, diag)
	}
	if res.KKT.OffGraph != 0 {
		t.Errorf("%s: Result.KKT.OffGraph = %v", name, res.KKT.OffGraph)
	}
}

func symSlice(S mat.Symmetric) []float64 {
	n := S.SymmetricDim()
	s := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s[i*n+j] = S.At(i, j)
		}
	}
	return s
}

func constRho(r float64) func(i, j int) float64 { return func(int, int) float64 { return r } }

func TestKKT(t *testing.T) {
	type tc struct {
		name    string
		S       *mat.SymDense
		graph   [][]int
		rho     float64
		edge    func(i, j int) float64
		penDiag bool
	}
	curve60 := curveData(60, 30, 1)
	curve40 := curveData(40, 30, 3)
	cases := []tc{
		// DRILL: S = ŶŶᵀ/p is singular (n > p), k = 7 graph, ρ = 0.
		{name: "drill k7 rho0", S: secondMoment(curve60), graph: knn(curve60, 7)},
		{name: "drill k7 rho0.01 pendiag", S: secondMoment(curve60), graph: knn(curve60, 7), rho: 0.01, penDiag: true},
		{name: "drill k10 rho0.002", S: secondMoment(curve40), graph: knn(curve40, 10), rho: 0.002},
		// All pairs, penalised diagonal makes the singular S usable (Fig 9 setting).
		{name: "drill all-pairs rho0.002 pendiag", S: secondMoment(curve40), rho: 0.002, penDiag: true},
		{name: "drill all-pairs rho0.05 pendiag", S: secondMoment(curve40), rho: 0.05, penDiag: true},
		// Ordinary glasso on a full-rank covariance.
		{name: "gauss all-pairs rho0.1", S: rowCov(randData(20, 60, 4)), rho: 0.1},
		{name: "gauss all-pairs rho0.3 pendiag", S: rowCov(randData(20, 60, 5)), rho: 0.3, penDiag: true},
		{name: "gauss chain rho0", S: rowCov(randData(15, 40, 6)), graph: chain(15)},
		{name: "gauss complete rho0", S: rowCov(randData(12, 40, 7)), graph: complete(12)},
		// Per-edge weights: zero on even-sum pairs, large on the others.
		{name: "gauss all-pairs per-edge", S: rowCov(randData(16, 50, 8)), edge: func(i, j int) float64 {
			if (i+j)%2 == 0 {
				return 0
			}
			return 0.2
		}},
	}
	for _, c := range cases {
		res, err := Solve(c.S, Penalty{Rho: c.rho, Graph: c.graph, Edge: c.edge}, &Settings{Tol: 1e-9, MaxIter: 20000, PenaliseDiagonal: c.penDiag})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		rho := c.edge
		if rho == nil {
			rho = constRho(c.rho)
		}
		d := 0.0
		if c.penDiag {
			d = c.rho
		}
		checkKKT(t, c.name, c.S, c.graph, rho, d, res, 1e-6)
		if res.Iterations < 1 {
			t.Errorf("%s: %d iterations", c.name, res.Iterations)
		}
	}
}

// With ρ > 0 the penalty must actually zero some allowed entries, and a
// larger ρ must give no more edges on this data (a sanity property of the
// lasso path here, not a theorem in general).
func TestSparsityGrowsWithRho(t *testing.T) {
	y := curveData(40, 30, 9)
	S := secondMoment(y)
	prev := math.MaxInt
	for _, rho := range []float64{0.001, 0.005, 0.02, 0.1} {
		res, err := Solve(S, Penalty{Rho: rho}, &Settings{PenaliseDiagonal: true, Tol: 1e-7})
		if err != nil {
			t.Fatalf("ρ=%v: %v", rho, err)
		}
		if res.Edges > prev {
			t.Errorf("ρ=%v: %d edges, more than %d at the smaller ρ", rho, res.Edges, prev)
		}
		prev = res.Edges
	}
	if prev == 0 || prev >= 40*39/2 {
		t.Errorf("edges at ρ=0.1: %d, want a sparse but non-empty graph", prev)
	}
}

// ρ = 0 with every pair allowed gives Θ = S⁻¹, both through the direct
// shortcut (nil graph) and through the block-coordinate sweeps (complete
// graph listed explicitly).
func TestAllPairsRhoZeroIsInverse(t *testing.T) {
	S := rowCov(randData(25, 80, 10))
	var want mat.SymDense
	var ch mat.Cholesky
	if !ch.Factorize(S) {
		t.Fatal("test S not PD")
	}
	if err := ch.InverseTo(&want); err != nil {
		t.Fatal(err)
	}
	for _, g := range [][][]int{nil, complete(25)} {
		res, err := Solve(S, Penalty{Graph: g}, &Settings{Tol: 1e-10})
		if err != nil {
			t.Fatalf("graph nil=%v: %v", g == nil, err)
		}
		if !mat.EqualApprox(res.Theta, &want, 1e-8*mat.Norm(&want, math.Inf(1))) {
			t.Errorf("graph nil=%v: Θ ≠ S⁻¹", g == nil)
		}
		if !mat.EqualApprox(res.W, S, 1e-10) {
			t.Errorf("graph nil=%v: W ≠ S", g == nil)
		}
	}
}

// For a chain graph (tridiagonal pattern, chordal) and ρ = 0 the solution is
// Dempster's covariance-selection completion, whose precision has the
// closed form (Lauritzen, Graphical Models, 1996, Prop. 5.9)
//
//	Θ = Σ_cliques [S_C⁻¹]⁰ − Σ_separators [S_D⁻¹]⁰,
//
// cliques {i,i+1}, separators {i}, 0 < i < n−1: an oracle independent of the
// sweeps. W must match S on the band.
func TestChainMaxEntropyCompletion(t *testing.T) {
	for _, c := range []struct {
		name string
		S    *mat.SymDense
	}{
		{"gauss n=8", rowCov(randData(8, 20, 11))},
		{"drill n=50 p=5 (singular S)", secondMoment(randData(50, 5, 12))},
	} {
		n := c.S.SymmetricDim()
		res, err := Solve(c.S, Penalty{Graph: chain(n)}, &Settings{Tol: 1e-12})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := mat.NewSymDense(n, nil)
		for i := 0; i+1 < n; i++ {
			a, b, d := c.S.At(i, i), c.S.At(i, i+1), c.S.At(i+1, i+1)
			det := a*d - b*b
			want.SetSym(i, i, want.At(i, i)+d/det)
			want.SetSym(i+1, i+1, want.At(i+1, i+1)+a/det)
			want.SetSym(i, i+1, want.At(i, i+1)-b/det)
			if i > 0 {
				want.SetSym(i, i, want.At(i, i)-1/a)
			}
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				got, w := res.Theta.At(i, j), want.At(i, j)
				if math.Abs(got-w) > 1e-8*math.Abs(want.At(i, i)) {
					t.Errorf("%s: Θ[%d,%d] = %v, closed form %v", c.name, i, j, got, w)
				}
				if abs(i-j) <= 1 && math.Abs(res.W.At(i, j)-c.S.At(i, j)) > 1e-10*res.KKT.Scale {
					t.Errorf("%s: W[%d,%d] = %v, S = %v on the band", c.name, i, j, res.W.At(i, j), c.S.At(i, j))
				}
			}
		}
	}
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

func TestErrors(t *testing.T) {
	S := rowCov(randData(6, 20, 13))
	bad := mat.NewSymDense(6, nil)
	bad.CopySym(S)
	bad.SetSym(2, 4, math.NaN())
	if _, err := Solve(bad, Penalty{Rho: 0.1}, nil); !errors.Is(err, ErrNaN) {
		t.Errorf("NaN in S: err = %v, want ErrNaN", err)
	}
	if _, err := Solve(S, Penalty{Rho: 0.1, Edge: func(i, j int) float64 { return math.Inf(1) }}, nil); !errors.Is(err, ErrNaN) {
		t.Errorf("Inf edge penalty: err = %v, want ErrNaN", err)
	}
	// Singular S (rank 3 < 6), ρ = 0, every pair allowed: no solution.
	sing := rowCov(randData(6, 3, 14))
	if _, err := Solve(sing, Penalty{}, nil); !errors.Is(err, ErrNotPositiveDefinite) {
		t.Errorf("singular S, ρ=0, all pairs: err = %v, want ErrNotPositiveDefinite", err)
	}
	// With ρ > 0 a solution exists even for singular S and an unpenalised
	// diagonal; Solve reaches it through the diagonal homotopy.
	if res, err := Solve(sing, Penalty{Rho: 0.1}, &Settings{Tol: 1e-10}); err != nil {
		t.Errorf("singular S, diagonal unpenalised, ρ=0.1: %v", err)
	} else {
		checkKKT(t, "singular S, ρ=0.1", sing, nil, constRho(0.1), 0, res, 1e-6)
	}
	// Two identical variables joined by an edge with ρ = 0 force W to be
	// singular on that edge's block: no solution.
	twin := mat.NewSymDense(3, []float64{1, 1, 0.5, 1, 1, 0.5, 0.5, 0.5, 1})
	if _, err := Solve(twin, Penalty{Graph: [][]int{{1}, {2}, nil}}, nil); !errors.Is(err, ErrNotPositiveDefinite) {
		t.Errorf("identical variables, ρ=0: err = %v, want ErrNotPositiveDefinite", err)
	}
	if _, err := Solve(sing, Penalty{Rho: 0.1}, &Settings{PenaliseDiagonal: true}); err != nil {
		t.Errorf("singular S, penalised diagonal: %v", err)
	}
	// Non-convergence of the sweeps alone (no Newton finish) is reported,
	// with the last iterate.
	res, err := Solve(S, Penalty{Rho: 0.05}, &Settings{MaxIter: 1, Tol: 1e-15, KKTTol: -1})
	if !errors.Is(err, ErrNotConverged) || res == nil || res.Iterations != 1 {
		t.Errorf("MaxIter 1: res=%v err=%v, want a result and ErrNotConverged", res != nil, err)
	}
	// With the Newton finish, one sweep found the support here and the
	// finish certifies the optimum: no error, and the KKT conditions hold.
	res, err = Solve(S, Penalty{Rho: 0.05}, &Settings{MaxIter: 1, Tol: 1e-15})
	if err != nil {
		t.Errorf("MaxIter 1 with the Newton finish: %v", err)
	} else {
		checkKKT(t, "MaxIter 1, Newton finish", S, nil, constRho(0.05), 0, res, 1e-9)
	}
	// Monitor can stop early without error.
	calls := 0
	res, err = Solve(S, Penalty{Rho: 0.05}, &Settings{Tol: 1e-15, Monitor: func(it int, ch float64) bool {
		calls++
		if math.IsNaN(ch) || ch < 0 {
			t.Errorf("monitor change %v", ch)
		}
		return it == 2
	}})
	if err != nil || res.Iterations != 2 || calls != 2 {
		t.Errorf("monitor stop: iterations %d, calls %d, err %v", res.Iterations, calls, err)
	}
}

func TestPanics(t *testing.T) {
	S := rowCov(randData(4, 10, 15))
	for name, f := range map[string]func(){
		"negative rho":  func() { Solve(S, Penalty{Rho: -1}, nil) },
		"graph length":  func() { Solve(S, Penalty{Graph: chain(3)}, nil) },
		"graph index":   func() { Solve(S, Penalty{Graph: [][]int{{4}, nil, nil, nil}}, nil) },
		"negative edge": func() { Solve(S, Penalty{Edge: func(i, j int) float64 { return -0.1 }}, nil) },
		"start shape":   func() { Solve(S, Penalty{Rho: 0.1}, &Settings{Start: mat.NewSymDense(3, nil)}) },
		"negative tol":  func() { Solve(S, Penalty{Rho: 0.1}, &Settings{Tol: -1}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// A warm start from the solution at a nearby ρ reaches the same answer in
// fewer sweeps.
func TestWarmStart(t *testing.T) {
	S := secondMoment(curveData(50, 30, 16))
	set := &Settings{PenaliseDiagonal: true, Tol: 1e-8}
	a, err := Solve(S, Penalty{Rho: 0.01}, set)
	if err != nil {
		t.Fatal(err)
	}
	cold, err := Solve(S, Penalty{Rho: 0.012}, set)
	if err != nil {
		t.Fatal(err)
	}
	ws := *set
	ws.Start = a.W
	warm, err := Solve(S, Penalty{Rho: 0.012}, &ws)
	if err != nil {
		t.Fatal(err)
	}
	if warm.Iterations > cold.Iterations {
		t.Errorf("warm start %d sweeps, cold %d", warm.Iterations, cold.Iterations)
	}
	if !mat.EqualApprox(warm.W, cold.W, 1e-6*cold.KKT.Scale) {
		t.Errorf("warm and cold W differ")
	}
	if math.Abs(warm.Objective-cold.Objective) > 1e-6*math.Abs(cold.Objective) {
		t.Errorf("objective warm %v cold %v", warm.Objective, cold.Objective)
	}
}

func Example() {
	// A 4-variable chain: Θ is tridiagonal and W reproduces S on the band.
	S := mat.NewSymDense(4, []float64{
		2, 1, 0.3, 0.2,
		1, 2, 1, 0.3,
		0.3, 1, 2, 1,
		0.2, 0.3, 1, 2,
	})
	res, err := Solve(S, Penalty{Graph: [][]int{{1}, {2}, {3}, nil}}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("Θ =\n%.4f\n", mat.Formatted(res.Theta, mat.Squeeze()))
	fmt.Printf("W[0,2] = %.4f (completed), W[0,1] = %.4f (= S)\n", res.W.At(0, 2), res.W.At(0, 1))
	// Output:
	// Θ =
	// ⎡ 0.6667  -0.3333   0.0000   0.0000⎤
	// ⎢-0.3333   0.8333  -0.3333   0.0000⎥
	// ⎢ 0.0000  -0.3333   0.8333  -0.3333⎥
	// ⎣ 0.0000   0.0000  -0.3333   0.6667⎦
	// W[0,2] = 0.5000 (completed), W[0,1] = 1.0000 (= S)
}

// The extrapolation steps only change the path, not the solution: with and
// without them the same W and Θ come out (DRILL k = 7, ρ = 0, where they
// fire; the paper's stopping rule alone, without the Newton finish, since
// this test counts sweeps).
func TestExtrapolationSameSolution(t *testing.T) {
	y := curveData(60, 30, 1)
	S := secondMoment(y)
	g := knn(y, 7)
	var res [2]*Result
	for k, off := range []bool{false, true} {
		r, err := Solve(S, Penalty{Graph: g}, &Settings{Tol: 1e-10, MaxIter: 50000, NoExtrapolation: off, KKTTol: -1})
		if err != nil {
			t.Fatalf("NoExtrapolation=%v: %v", off, err)
		}
		res[k] = r
	}
	if !mat.EqualApprox(res[0].W, res[1].W, 1e-6*res[0].KKT.Scale) {
		t.Errorf("W differs with and without extrapolation")
	}
	if math.Abs(res[0].Objective-res[1].Objective) > 1e-8*math.Abs(res[1].Objective) {
		t.Errorf("objective %v with, %v without extrapolation", res[0].Objective, res[1].Objective)
	}
	if res[0].Iterations >= res[1].Iterations {
		t.Errorf("extrapolation used %d sweeps, plain %d", res[0].Iterations, res[1].Iterations)
	}
	t.Logf("sweeps: %d with extrapolation, %d without", res[0].Iterations, res[1].Iterations)
}
