package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestCentredGramOperator compares block products of the implicit ÂᵀÂ,
// fused (b ≤ 16) and by two matrix products (b > 16), with the explicit
// matrix, for an offset far from zero (the centring matters) and for
// mean = nil.
func TestCentredGramOperator(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	const m, p = 1500, 37
	A := mat.NewDense(m, p, nil)
	for i := range A.RawMatrix().Data {
		A.RawMatrix().Data[i] = rnd.NormFloat64() + 3
	}
	mu := ColumnMeans(A)
	for _, centre := range []bool{true, false} {
		var ah mat.Dense
		ah.CloneFrom(A)
		var mean []float64
		if centre {
			mean = mu
			for i := 0; i < m; i++ {
				for j := 0; j < p; j++ {
					ah.Set(i, j, A.At(i, j)-mu[j])
				}
			}
		}
		var G mat.Dense
		G.Mul(ah.T(), &ah)
		op := CentredGramOperator(A, mean)
		for _, b := range []int{1, 3, 16, 20} {
			x := make([]float64, b*p)
			for i := range x {
				x[i] = rnd.NormFloat64()
			}
			got := make([]float64, b*p)
			mulBlock(op, got, x, b)
			for v := 0; v < b; v++ {
				want := mat.NewVecDense(p, nil)
				want.MulVec(&G, mat.NewVecDense(p, x[v*p:(v+1)*p]))
				for j := 0; j < p; j++ {
					if d := math.Abs(got[v*p+j] - want.AtVec(j)); d > 1e-9*mat.Norm(want, math.Inf(1)) {
						t.Fatalf("centre=%v b=%d vector %d entry %d: got %g, want %g", centre, b, v, j, got[v*p+j], want.AtVec(j))
					}
				}
			}
		}
	}
}
