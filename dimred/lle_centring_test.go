package dimred_test

import (
	"math"
	"testing"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
	"gonum.org/v1/gonum/mat"
)

// columnCentring returns, per column of X, |mean| / standard deviation:
// 0 for a centred embedding.
func columnCentring(X *mat.Dense) []float64 {
	n, q := X.Dims()
	out := make([]float64, q)
	for c := 0; c < q; c++ {
		mean, ss := 0.0, 0.0
		for i := 0; i < n; i++ {
			mean += X.At(i, c)
		}
		mean /= float64(n)
		for i := 0; i < n; i++ {
			d := X.At(i, c) - mean
			ss += d * d
		}
		out[c] = math.Abs(mean) / math.Sqrt(ss/float64(n))
	}
	return out
}

// twoClosedClasses is 1-D data (with a small second coordinate) whose
// directed 3-NN graph has two closed classes — clusters A (points 0–9,
// spacing 1) and B (points 10–19, spacing 1.1, 100 away) whose neighbours
// all lie in their own cluster — joined only through a sparse chain of
// bridge points (their neighbours reach into the clusters), so the union
// graph is connected but M = (I − W)ᵀ(I − W) has a two-dimensional null
// space: the constant and a vector constant on each cluster,
// interpolating along the chain.
func twoClosedClasses() *mat.Dense {
	var rows [][]float64
	for i := 0; i < 10; i++ {
		rows = append(rows, []float64{float64(i), 0.01 * float64(i*i%7)})
	}
	for i := 0; i < 10; i++ {
		rows = append(rows, []float64{100 + 1.1*float64(i), 0.01 * float64(i*i%5)})
	}
	for _, b := range []float64{24, 37.5, 52, 67.5, 81, 93} {
		rows = append(rows, []float64{b, 0.3})
	}
	Y := mat.NewDense(len(rows), 2, nil)
	for i, r := range rows {
		Y.SetRow(i, r)
	}
	return Y
}

// LLE's embedding is centred, Σ_i x_i = 0 (Roweis & Saul), even when M's
// null space has more than one dimension. Dropping "eigenvector 0" as
// returned by the eigensolver (the old code, and DropLowest) keeps an
// arbitrary null vector instead of removing the constant.
func TestLLECentredDegenerateNullSpace(t *testing.T) {
	Y := twoClosedClasses()
	n, _ := Y.Dims()
	m := &dimred.LLE{Q: 2, K: 3}
	if err := m.Fit(Y); err != nil {
		t.Fatal(err)
	}
	vals := m.EigenvaluesTo(nil)
	t.Logf("bottom eigenvalues of M: %.3g", vals)
	// The setting: a two-dimensional null space, well separated.
	if !(vals[1] < 1e-12 && vals[2] > 1e4*math.Max(vals[1], 1e-300)) {
		t.Fatalf("test data do not give a two-dimensional null space: %g", vals)
	}
	var X mat.Dense
	m.LatentTo(&X)
	cent := columnCentring(&X)
	t.Logf("|mean|/sd per column: %.3g", cent)
	for c, v := range cent {
		if v > 1e-10 {
			t.Errorf("column %d: |mean|/sd = %.3g, want ≤ 1e-10 (centred)", c, v)
		}
	}
	// XᵀX = n I.
	var G mat.Dense
	G.Mul(X.T(), &X)
	for a := 0; a < 2; a++ {
		for b := 0; b < 2; b++ {
			want := 0.0
			if a == b {
				want = float64(n)
			}
			if math.Abs(G.At(a, b)-want) > 1e-9*float64(n) {
				t.Errorf("XᵀX[%d,%d] = %g, want %g", a, b, G.At(a, b), want)
			}
		}
	}
	// The first coordinate is the null vector: constant on each cluster,
	// the two constants apart; M x₁ = 0.
	x1 := mat.Col(nil, 0, &X)
	for i := 1; i < 10; i++ {
		if math.Abs(x1[i]-x1[0]) > 1e-8 || math.Abs(x1[10+i]-x1[10]) > 1e-8 {
			t.Fatalf("x₁ not constant on the closed classes: %.4g", x1[:20])
		}
	}
	if math.Abs(x1[0]-x1[10]) < 0.5 {
		t.Errorf("x₁ does not separate the classes: %g vs %g", x1[0], x1[10])
	}
	// The span of [1, X] is the span of the q+1 bottom eigenvectors
	// whichever vector is dropped: DropLowest's columns lie in it too.
	ref := &dimred.LLE{Q: 2, K: 3, DropLowest: true}
	if err := ref.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var R mat.Dense
	ref.LatentTo(&R)
	B := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		B.Set(i, 0, 1/math.Sqrt(float64(n)))
		B.Set(i, 1, X.At(i, 0)/math.Sqrt(float64(n)))
		B.Set(i, 2, X.At(i, 1)/math.Sqrt(float64(n)))
	}
	var C, P mat.Dense
	C.Mul(B.T(), &R)
	P.Mul(B, &C)
	P.Sub(&P, &R)
	if r := mat.Norm(&P, 2) / mat.Norm(&R, 2); r > 1e-8 {
		t.Errorf("DropLowest's columns leave span[1, X] by %.3g", r)
	}
}

// The robot WiFi data with k = 7 (spectral paper Fig 5): M has a
// two-dimensional null space (two closed classes of the directed 7-NN
// graph); the embedding's column means are ~0 relative to its spread.
func TestLLERobotCentred(t *testing.T) {
	d, err := datasets.RobotWireless()
	if datasets.Skippable(err) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, reg := range []float64{0, 1e-3} {
		m := &dimred.LLE{Q: 2, K: 7, Reg: reg}
		if err := m.Fit(d.Y); err != nil {
			t.Fatal(err)
		}
		var X mat.Dense
		m.LatentTo(&X)
		cent := columnCentring(&X)
		t.Logf("reg %g: eigenvalues %.3g, |mean|/sd %.3g", reg, m.EigenvaluesTo(nil), cent)
		for c, v := range cent {
			if v > 1e-8 {
				t.Errorf("reg %g column %d: |mean|/sd = %.3g, want ≤ 1e-8", reg, c, v)
			}
		}
	}
}

// Laplacian eigenmaps with a heat-kernel weight that underflows to zero:
// the kNN graph is connected, but the weighted graph is not, so L has a
// null space of more than one dimension. The embedding still satisfies its
// constraint against the known null vector: Σ_i x_i = 0 (LEUnnormalised),
// Σ_i √d_i x_i = 0 (LENormalised), Σ_i d_i x_i = 0 (LEGeneralised), which
// dropping "eigenvector 0" did not guarantee.
func TestLaplacianEigenmapsNullVectorProjected(t *testing.T) {
	// Two 4×5 integer grids 57 apart and a pair of points between them,
	// 1 apart: with k = 2 each of the pair has the other and the nearer
	// grid as neighbours, so the kNN graph is connected, but the edges to
	// the grids are 28 long and their weights exp(−d²/t) underflow to zero
	// for t = 1: three weighted components, a three-dimensional null space.
	var rows [][]float64
	for g := 0; g < 2; g++ {
		for a := 0; a < 4; a++ {
			for b := 0; b < 5; b++ {
				rows = append(rows, []float64{60*float64(g) + float64(a), float64(b)})
			}
		}
	}
	rows = append(rows, []float64{31, 2}, []float64{32, 2})
	Y := mat.NewDense(len(rows), 2, nil)
	for i, r := range rows {
		Y.SetRow(i, r)
	}
	for _, prob := range []dimred.LEProblem{dimred.LENormalised, dimred.LEGeneralised, dimred.LEUnnormalised} {
		m := &dimred.LaplacianEigenmaps{Q: 2, K: 2, T: 1, Problem: prob}
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		vals := m.EigenvaluesTo(nil)
		A := m.Graph()
		deg := A.RowSums()
		var X mat.Dense
		m.LatentTo(&X)
		n, _ := X.Dims()
		for c := 0; c < 2; c++ {
			s, scale := 0.0, 0.0
			for i := 0; i < n; i++ {
				w := 1.0
				switch prob {
				case dimred.LENormalised:
					w = math.Sqrt(deg[i])
				case dimred.LEGeneralised:
					w = deg[i]
				}
				s += w * X.At(i, c)
				scale += math.Abs(w * X.At(i, c))
			}
			t.Logf("problem %d: eigenvalues %.3g, column %d: |Σ w_i x_i| / Σ|w_i x_i| = %.3g", prob, vals, c, math.Abs(s)/scale)
			if math.Abs(s) > 1e-10*scale {
				t.Errorf("problem %d column %d: Σ w_i x_i = %.3g (scale %.3g), want 0", prob, c, s, scale)
			}
		}
	}
}
