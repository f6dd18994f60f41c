package linalg

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

func TestCSRBasics(t *testing.T) {
	c := NewCSR(3, []int{0, 2, 0, 1, 0}, []int{2, 0, 2, 1, 0}, []float64{1, 2, 3, 4, 5})
	want := mat.NewDense(3, 3, []float64{5, 0, 4, 0, 4, 0, 2, 0, 0})
	if !mat.Equal(c, want) {
		t.Fatalf("NewCSR = %v, want %v", mat.Formatted(c), mat.Formatted(want))
	}
	if c.NNZ() != 4 {
		t.Errorf("NNZ = %d, want 4", c.NNZ())
	}
	// Products, serial and parallel, against dense.
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{50, 5000} {
		var ii, jj []int
		var vv []float64
		for e := 0; e < 10*n; e++ {
			i, j := rnd.IntN(n), rnd.IntN(n)
			v := rnd.NormFloat64()
			ii, jj, vv = append(ii, i, j), append(jj, j, i), append(vv, v, v)
		}
		a := NewCSR(n, ii, jj, vv)
		if !a.IsSymmetric(1e-15) {
			t.Fatal("symmetric triplets gave an asymmetric CSR")
		}
		x := make([]float64, n)
		for i := range x {
			x[i] = rnd.NormFloat64()
		}
		got := make([]float64, n)
		a.MulVecTo(got, x)
		want := make([]float64, n)
		for i := 0; i < n; i++ {
			cols, vals := a.Row(i)
			for t, j := range cols {
				want[i] += vals[t] * x[j]
			}
		}
		if !floats.EqualApprox(got, want, 1e-12) {
			t.Errorf("n=%d: MulVecTo differs from the row loop", n)
		}
	}
}

func TestCSRMulTrans(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	n := 40
	var ii, jj []int
	var vv []float64
	for e := 0; e < 150; e++ {
		ii, jj, vv = append(ii, rnd.IntN(n)), append(jj, rnd.IntN(n)), append(vv, rnd.NormFloat64())
	}
	a := NewCSR(n, ii, jj, vv)
	var want mat.Dense
	want.Mul(a.T(), a)
	if got := a.MulTrans(a); !mat.EqualApprox(got, &want, 1e-12) || !got.IsSymmetric(1e-12) {
		t.Error("MulTrans differs from the dense AᵀA")
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = rnd.NormFloat64()
	}
	got := make([]float64, n)
	a.MulTransVecTo(got, x)
	w := mat.NewVecDense(n, nil)
	w.MulVec(a.T(), mat.NewVecDense(n, x))
	if !floats.EqualApprox(got, w.RawVector().Data, 1e-12) {
		t.Error("MulTransVecTo differs from the dense Aᵀx")
	}
}
