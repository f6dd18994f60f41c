package dimred

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// LEDirectedSum against a graph worked by hand. Four points on a line at
// 0, 1, 3, 7 with k = 1: the nearest neighbours are 0→1, 1→0, 2→1, 3→2,
// so the union graph has the mutual pair {0,1} and the one-way pairs
// {1,2}, {2,3}. With the heat kernel exp(−d²/t), t = 2, the union
// weights are a₀₁ = e^{−1/2}, a₁₂ = e^{−2}, a₂₃ = e^{−8}; the reference
// code's sum of directed edges doubles a₀₁ only. The embedding is then
// the second eigenvector of the hand-built normalised Laplacian
// I − V^{-1/2} A V^{-1/2}, times √n.
func TestLEDirectedSumHandGraph(t *testing.T) {
	Y := mat.NewDense(4, 1, []float64{0, 1, 3, 7})
	a01, a12, a23 := math.Exp(-0.5), math.Exp(-2), math.Exp(-8)
	for _, c := range []struct {
		edges LEEdges
		w01   float64
	}{{LEUnionEdges, a01}, {LEDirectedSum, 2 * a01}} {
		m := &LaplacianEigenmaps{Q: 1, K: 1, Edges: c.edges}
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		want := mat.NewSymDense(4, []float64{
			0, c.w01, 0, 0,
			c.w01, 0, a12, 0,
			0, a12, 0, a23,
			0, 0, a23, 0,
		})
		g := m.Graph()
		for i := 0; i < 4; i++ {
			for j := 0; j < 4; j++ {
				if math.Abs(g.At(i, j)-want.At(i, j)) > 1e-15 {
					t.Errorf("edges %d: A[%d,%d] = %v, want %v", c.edges, i, j, g.At(i, j), want.At(i, j))
				}
			}
		}
		// Hand-built L̂ and its second-smallest eigenvector.
		deg := make([]float64, 4)
		for i := 0; i < 4; i++ {
			for j := 0; j < 4; j++ {
				deg[i] += want.At(i, j)
			}
		}
		Lh := mat.NewSymDense(4, nil)
		for i := 0; i < 4; i++ {
			for j := i; j < 4; j++ {
				v := -want.At(i, j) / math.Sqrt(deg[i]*deg[j])
				if i == j {
					v = 1
				}
				Lh.SetSym(i, j, v)
			}
		}
		var es mat.EigenSym
		if !es.Factorize(Lh, true) {
			t.Fatal("eigen")
		}
		var V mat.Dense
		es.VectorsTo(&V)
		var X mat.Dense
		m.LatentTo(&X)
		sign := math.Copysign(1, V.At(0, 1)*X.At(0, 0))
		for i := 0; i < 4; i++ {
			if w := sign * 2 * V.At(i, 1); math.Abs(X.At(i, 0)-w) > 1e-8 {
				t.Errorf("edges %d: x[%d] = %v, hand-computed %v", c.edges, i, X.At(i, 0), w)
			}
		}
	}
}
