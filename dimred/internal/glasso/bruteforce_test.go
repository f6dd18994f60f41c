package glasso

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// dualAscent solves the dual of the problem independently of the block
// coordinate sweeps: projected gradient ascent on
//
//	max log det W  s.t.  Wᵢᵢ = Sᵢᵢ + ρ_d,  |Wᵢⱼ − Sᵢⱼ| ≤ ρᵢⱼ on allowed pairs,
//
// with Wᵢⱼ free off the graph, the gradient W⁻¹ = Θ, Armijo backtracking
// along the projection arc (Bertsekas, Nonlinear Programming, §2.3), from
// the feasible start S + ρ_d I. It returns W and the number of steps.
func dualAscent(t *testing.T, S *mat.SymDense, adj [][]bool, rho func(i, j int) float64, rhoD float64) *mat.SymDense {
	n := S.SymmetricDim()
	proj := func(w *mat.SymDense) {
		for i := 0; i < n; i++ {
			w.SetSym(i, i, S.At(i, i)+rhoD)
			for j := i + 1; j < n; j++ {
				if adj[i][j] {
					r := rho(i, j)
					w.SetSym(i, j, min(max(w.At(i, j), S.At(i, j)-r), S.At(i, j)+r))
				}
			}
		}
	}
	logdet := func(w *mat.SymDense) (float64, *mat.SymDense, bool) {
		var ch mat.Cholesky
		if !ch.Factorize(w) {
			return 0, nil, false
		}
		var g mat.SymDense
		if ch.InverseTo(&g) != nil {
			return 0, nil, false
		}
		return ch.LogDet(), &g, true
	}
	w := mat.NewSymDense(n, nil)
	w.CopySym(S)
	proj(w)
	f, g, ok := logdet(w)
	if !ok {
		t.Fatal("dualAscent: start not positive definite")
	}
	step := 1.0
	cand := mat.NewSymDense(n, nil)
	for it := 0; it < 200000; it++ {
		var moved float64
		accepted := false
		for ls := 0; ls < 60; ls++ {
			cand.AddSym(w, scaled(g, step))
			proj(cand)
			fc, gc, ok := logdet(cand)
			if ok {
				var lin float64
				moved = 0
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						d := cand.At(i, j) - w.At(i, j)
						lin += g.At(i, j) * d
						moved = max(moved, math.Abs(d))
					}
				}
				if fc >= f+1e-4*lin-4e-16*math.Abs(f) {
					w.CopySym(cand)
					f, g = fc, gc
					accepted = true
					break
				}
			}
			step /= 2
		}
		if !accepted {
			t.Fatalf("dualAscent: line search failed at step %d", it)
		}
		// projected-gradient stationarity: ‖P(W + Θ) − W‖ relative to ‖Θ‖
		cand.AddSym(w, g)
		proj(cand)
		var r, gn float64
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				r = max(r, math.Abs(cand.At(i, j)-w.At(i, j)))
				gn = max(gn, math.Abs(g.At(i, j)))
			}
		}
		if r < 1e-8*gn {
			return w
		}
		_ = moved
		step *= 2
	}
	t.Fatalf("dualAscent: no convergence")
	return nil
}

func scaled(a *mat.SymDense, s float64) *mat.SymDense {
	var b mat.SymDense
	b.ScaleSym(s, a)
	return &b
}

func cycle(n int) [][]int {
	g := chain(n)
	g[n-1] = append(g[n-1], 0)
	return g
}

func star(n int) [][]int {
	g := make([][]int, n)
	for j := 1; j < n; j++ {
		g[0] = append(g[0], j)
	}
	return g
}

// Tiny problems against the independent dual ascent: Θ = W_dual⁻¹ and the
// primal objective equals the dual value −log det W − n.
func TestAgainstDualAscent(t *testing.T) {
	mixed := func(i, j int) float64 {
		if (i+j)%2 == 0 {
			return 0.02
		}
		return 0.3
	}
	for _, c := range []struct {
		name    string
		S       *mat.SymDense
		graph   [][]int
		rho     float64
		edge    func(i, j int) float64
		penDiag bool
	}{
		{name: "n=3 all pairs ρ=0.1", S: rowCov(randData(3, 6, 20)), rho: 0.1},
		{name: "n=4 cycle ρ=0 (non-chordal completion)", S: rowCov(randData(4, 8, 21)), graph: cycle(4)},
		{name: "n=5 cycle ρ=0.05 penalised diagonal", S: rowCov(randData(5, 10, 22)), graph: cycle(5), rho: 0.05, penDiag: true},
		{name: "n=5 star ρ=0.2", S: rowCov(randData(5, 10, 23)), graph: star(5), rho: 0.2},
		{name: "n=5 all pairs per-edge ρ", S: rowCov(randData(5, 7, 24)), edge: mixed},
		{name: "n=5 cycle ρ=0 correlated", S: rowCov(curveData(5, 30, 25)), graph: cycle(5)},
	} {
		n := c.S.SymmetricDim()
		rho := c.edge
		if rho == nil {
			rho = constRho(c.rho)
		}
		rd := 0.0
		if c.penDiag {
			rd = c.rho
		}
		wd := dualAscent(t, c.S, adjacency(c.graph, n), rho, rd)
		var want mat.SymDense
		var ch mat.Cholesky
		ch.Factorize(wd)
		ch.InverseTo(&want)
		dual := -ch.LogDet() - float64(n)

		res, err := Solve(c.S, Penalty{Rho: c.rho, Graph: c.graph, Edge: c.edge}, &Settings{Tol: 1e-12, MaxIter: 100000, PenaliseDiagonal: c.penDiag})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		// The dual ascent stops at a projected-gradient residual of 1e-8‖Θ‖;
		// Θ agrees to a few times that, the objective to second order.
		tol := 1e-6 * mat.Norm(&want, math.Inf(1))
		if !mat.EqualApprox(res.Theta, &want, tol) {
			t.Errorf("%s: Θ =\n%.6g\ndual ascent gives\n%.6g", c.name, mat.Formatted(res.Theta), mat.Formatted(&want))
		}
		if math.Abs(res.Objective-dual) > 1e-8*max(1, math.Abs(dual)) {
			t.Errorf("%s: primal objective %.12g, dual value %.12g", c.name, res.Objective, dual)
		}
	}
}
