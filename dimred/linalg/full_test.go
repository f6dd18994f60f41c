package linalg

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestFullDense(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 9))
	for _, n := range []int{0, 1, 7, 300} {
		Y := mat.NewDense(max(n, 1), 4, nil)
		for i := range Y.RawMatrix().Data {
			Y.RawMatrix().Data[i] = rnd.NormFloat64()
		}
		D := mat.NewSymDense(max(n, 1), nil)
		PairwiseSquaredDistances(D, Y)
		if n == 0 {
			D = &mat.SymDense{}
		}
		got := FullDense(nil, D)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if got.At(i, j) != D.At(i, j) {
					t.Fatalf("n=%d [%d,%d]: %g, want %g", n, i, j, got.At(i, j), D.At(i, j))
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("wrong-shaped dst did not panic")
		}
	}()
	FullDense(mat.NewDense(2, 3, nil), mat.NewSymDense(2, nil))
}
