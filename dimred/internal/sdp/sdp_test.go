package sdp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// trEntry is ⟨I, X⟩ as a constraint.
func trEntries(n int, v float64) []Entry {
	e := make([]Entry, n)
	for i := range e {
		e[i] = Entry{i, i, v}
	}
	return e
}

func denseEntries(a mat.Symmetric) []Entry {
	n := a.SymmetricDim()
	var e []Entry
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if v := a.At(i, j); v != 0 {
				e = append(e, Entry{i, j, v})
			}
		}
	}
	return e
}

// checkKKT verifies the stopping rule, X ⪰ 0, Z ⪰ 0 and Z = C − Σ yA − Σ wG.
func checkKKT(t *testing.T, p *Problem, sol *Solution, tol float64) {
	t.Helper()
	r := sol.Result
	if r.Gap > tol || r.PrimalInfeas > tol || r.DualInfeas > tol {
		t.Errorf("stopping rule not met: %+v", r)
	}
	for name, m := range map[string]*mat.SymDense{"X": sol.X, "Z": sol.Z} {
		var es mat.EigenSym
		es.Factorize(m, false)
		v := es.Values(nil)
		if v[0] < -1e-9*math.Max(1, v[len(v)-1]) {
			t.Errorf("%s not PSD: λmin = %g", name, v[0])
		}
	}
	for k, a := range p.A {
		var s float64
		for _, e := range a {
			s += e.V * sol.X.At(e.I, e.J)
			if e.I != e.J {
				s += e.V * sol.X.At(e.J, e.I)
			}
		}
		if math.Abs(s-p.B[k]) > 10*tol*(1+math.Abs(p.B[k])) {
			t.Errorf("equality %d: ⟨A,X⟩ = %.10g, want %.10g", k, s, p.B[k])
		}
	}
	for l, g := range p.G {
		var s float64
		for _, e := range g {
			s += e.V * sol.X.At(e.I, e.J)
			if e.I != e.J {
				s += e.V * sol.X.At(e.J, e.I)
			}
		}
		if s > p.H[l]+10*tol*(1+math.Abs(p.H[l])) {
			t.Errorf("inequality %d: ⟨G,X⟩ = %.10g > %.10g", l, s, p.H[l])
		}
		if sol.W[l] > 10*tol {
			t.Errorf("inequality multiplier %d = %g > 0", l, sol.W[l])
		}
	}
}

func TestKnownOptima(t *testing.T) {
	// min λ: min ⟨C, X⟩ s.t. tr X = 1 has optimum λ_min(C).
	rnd := rand.New(rand.NewPCG(1, 2))
	const n = 8
	c := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			c.SetSym(i, j, rnd.NormFloat64())
		}
	}
	var es mat.EigenSym
	es.Factorize(c, false)
	lmin := es.Values(nil)[0]

	// Lovász theta of the 5-cycle: max ⟨J, X⟩ s.t. tr X = 1, X_ij = 0 on
	// edges; θ(C5) = √5 (Lovász 1979).
	theta := &Problem{N: 5, A: [][]Entry{trEntries(5, 1)}, B: []float64{1}}
	for i := 0; i < 5; i++ {
		for j := i; j < 5; j++ {
			theta.C = append(theta.C, Entry{i, j, -1})
		}
		theta.A = append(theta.A, []Entry{{i, (i + 1) % 5, 1}})
		theta.B = append(theta.B, 0)
	}

	tests := []struct {
		name string
		p    *Problem
		want float64 // optimal ⟨C, X⟩
	}{
		{"min eigenvalue as SDP", &Problem{N: n, C: denseEntries(c), A: [][]Entry{trEntries(n, 1)}, B: []float64{1}}, lmin},
		// min X11 + X22 s.t. X12 = 1: X11 X22 ≥ 1 gives 2 at X = 1 1ᵀ
		// (hand-solved; dual y = 2 from I − y[[0,½],[½,0]] ⪰ 0).
		{"2x2 hand", &Problem{N: 2, C: trEntries(2, 1), A: [][]Entry{{{0, 1, 0.5}}}, B: []float64{1}}, 2},
		// Max-cut relaxation of the triangle: min Σ_{i≠j} X_ij, X_ii = 1;
		// 1ᵀX1 = 3 + Σ_{i≠j} X_ij ≥ 0 gives −3 at X = (3I − J)/2.
		{"3x3 triangle cut", &Problem{N: 3,
			C: []Entry{{0, 1, 1}, {0, 2, 1}, {1, 2, 1}},
			A: [][]Entry{{{0, 0, 1}}, {{1, 1, 1}}, {{2, 2, 1}}}, B: []float64{1, 1, 1}}, -3},
		{"Lovász theta C5", theta, -math.Sqrt(5)},
		// LP as a diagonal SDP: min −x1 − 2x2 s.t. x1+x2+x3 = 4,
		// x1+3x2+x4 = 6, x ≥ 0; optimum −5 at x = (3, 1, 0, 0).
		{"LP diagonal equality", &Problem{N: 4,
			C: []Entry{{0, 0, -1}, {1, 1, -2}},
			A: [][]Entry{{{0, 0, 1}, {1, 1, 1}, {2, 2, 1}}, {{0, 0, 1}, {1, 1, 3}, {3, 3, 1}}},
			B: []float64{4, 6}}, -5},
		// The same LP with inequalities instead of slack variables.
		{"LP diagonal inequality", &Problem{N: 2,
			C: []Entry{{0, 0, -1}, {1, 1, -2}},
			G: [][]Entry{{{0, 0, 1}, {1, 1, 1}}, {{0, 0, 1}, {1, 1, 3}}},
			H: []float64{4, 6}}, -5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sol, err := Solve(tc.p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d := math.Abs(sol.PrimalObj - tc.want); d > 1e-6*(1+math.Abs(tc.want)) {
				t.Errorf("primal objective %.10g, want %.10g", sol.PrimalObj, tc.want)
			}
			if d := math.Abs(sol.DualObj - tc.want); d > 1e-6*(1+math.Abs(tc.want)) {
				t.Errorf("dual objective %.10g, want %.10g", sol.DualObj, tc.want)
			}
			checkKKT(t, tc.p, sol, 1e-7)
			t.Logf("%d iterations, %+v", sol.Iter, sol.Result)
		})
	}
}

func TestLPSolutionPoint(t *testing.T) {
	// The inequality LP above: x = (3, 1), both constraints active,
	// multipliers w = (−1/2, −1/2) from c = Gᵀw: −1 = w1 + w2, −2 = w1 + 3w2.
	p := &Problem{N: 2,
		C: []Entry{{0, 0, -1}, {1, 1, -2}},
		G: [][]Entry{{{0, 0, 1}, {1, 1, 1}}, {{0, 0, 1}, {1, 1, 3}}},
		H: []float64{4, 6}}
	sol, err := Solve(p, &Settings{Tol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{3, 1}
	for i, w := range want {
		if math.Abs(sol.X.At(i, i)-w) > 1e-6 {
			t.Errorf("x[%d] = %g, want %g", i, sol.X.At(i, i), w)
		}
	}
	for l, w := range []float64{-0.5, -0.5} {
		if math.Abs(sol.W[l]-w) > 1e-6 {
			t.Errorf("w[%d] = %g, want %g", l, sol.W[l], w)
		}
	}
}

func TestErrors(t *testing.T) {
	// X ⪰ 0 with X_00 = −1: primal infeasible.
	_, err := Solve(&Problem{N: 2, C: trEntries(2, 1), A: [][]Entry{{{0, 0, 1}}}, B: []float64{-1}}, nil)
	if !errors.Is(err, ErrInfeasible) {
		t.Errorf("infeasible: err = %v, want ErrInfeasible", err)
	}
	// min −X_00 s.t. X_11 = 1: unbounded.
	_, err = Solve(&Problem{N: 2, C: []Entry{{0, 0, -1}}, A: [][]Entry{{{1, 1, 1}}}, B: []float64{1}}, nil)
	if !errors.Is(err, ErrUnbounded) {
		t.Errorf("unbounded: err = %v, want ErrUnbounded", err)
	}
	_, err = Solve(&Problem{N: 2, C: []Entry{{0, 1, math.NaN()}}, A: [][]Entry{{{1, 1, 1}}}, B: []float64{1}}, nil)
	if !errors.Is(err, ErrNaN) {
		t.Errorf("NaN in C: err = %v", err)
	}
	_, err = Solve(&Problem{N: 2, C: trEntries(2, 1), A: [][]Entry{{{1, 1, 1}}}, B: []float64{math.Inf(1)}}, nil)
	if !errors.Is(err, ErrNaN) {
		t.Errorf("Inf in B: err = %v", err)
	}
	p := &Problem{N: 2, C: trEntries(2, 1), A: [][]Entry{{{0, 1, 0.5}}}, B: []float64{1}}
	sol, err := Solve(p, &Settings{MaxIter: 2})
	if !errors.Is(err, ErrNotConverged) || sol == nil || sol.Iter != 2 {
		t.Errorf("MaxIter 2: err = %v, sol = %v", err, sol)
	}
	var gaps []float64
	sol, err = Solve(p, &Settings{Monitor: func(it int, gap float64) bool {
		gaps = append(gaps, gap)
		return it == 3
	}})
	if !errors.Is(err, ErrNotConverged) || sol == nil || len(gaps) != 4 {
		t.Errorf("Monitor stop: err = %v, %d calls", err, len(gaps))
	}
	_, _, err = MVU(3, []Pair{{0, 1}, {1, 2}}, []float64{1, math.NaN()}, nil)
	if !errors.Is(err, ErrNaN) {
		t.Errorf("MVU NaN: err = %v", err)
	}
	_, _, err = MVU(3, []Pair{{0, 1}, {1, 0}, {1, 2}}, []float64{1, 2, 1}, nil)
	if !errors.Is(err, ErrInfeasible) {
		t.Errorf("MVU conflicting pair: err = %v", err)
	}
	// Disconnected graph: the two components separate without bound.
	_, _, err = MVU(4, []Pair{{0, 1}, {2, 3}}, []float64{1, 1}, nil)
	if !errors.Is(err, ErrUnbounded) {
		t.Errorf("MVU disconnected: err = %v, want ErrUnbounded", err)
	}
}

// The ℓ1 penalty is exact when it exceeds the optimal multiplier. For
// min X11 + X22 s.t. X12 = 1 the multiplier is y = 2: with ρ = 10 the
// solution is unchanged; with ρ = 1 the penalised optimum drops the
// constraint (X12 = 0, objective ρ·1 = 1, violation 1/(1+1)).
func TestPenalty(t *testing.T) {
	p := &Problem{N: 2, C: trEntries(2, 1), A: [][]Entry{{{0, 1, 0.5}}}, B: []float64{1}}
	sol, err := Solve(p, &Settings{Penalty: 10})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(sol.PrimalObj-2) > 1e-6 || sol.Violation > 1e-6 || math.Abs(sol.Y[0]-2) > 1e-6 {
		t.Errorf("ρ = 10: %+v, y = %v", sol.Result, sol.Y)
	}
	sol, err = Solve(p, &Settings{Penalty: 1})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(sol.PrimalObj-1) > 1e-6 || math.Abs(sol.Violation-0.5) > 1e-6 || math.Abs(sol.X.At(0, 1)) > 1e-6 {
		t.Errorf("ρ = 1: %+v, X12 = %g", sol.Result, sol.X.At(0, 1))
	}
}
