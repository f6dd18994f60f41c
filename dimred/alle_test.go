package dimred

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The factorised likelihood equals the Gaussian random field density with
// precision L = M Mᵀ evaluated directly (paper §2.7.4: log|MMᵀ| = Σ log
// m_ii²), with the corrected per-point factor (m_ii²/2π)^{p/2}.
func TestAcyclicLLEExactLikelihood(t *testing.T) {
	Y := meuToyData(20, 6, 4)
	n, p := Y.Dims()
	a := &AcyclicLLE{Q: 2, K: 3}
	if err := a.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var M mat.Dense
	a.PrecisionTo(&M)
	var L mat.SymDense
	L.SymOuterK(1, &M)
	var ch mat.Cholesky
	if !ch.Factorize(&L) {
		t.Fatal("M Mᵀ not positive definite")
	}
	Yc := mat.DenseCopyOf(Y)
	centreColumns(Yc)
	var LY mat.Dense
	LY.Mul(&L, Yc)
	var tr float64
	for i := range n {
		for j := range p {
			tr += Yc.At(i, j) * LY.At(i, j)
		}
	}
	want := 0.5*float64(p)*ch.LogDet() - 0.5*tr - 0.5*float64(n*p)*math.Log(2*math.Pi)
	if got := a.LogLikelihood(); math.Abs(got-want) > 1e-8*math.Abs(want) {
		t.Errorf("factorised log-likelihood %.10g, direct GRF %.10g", got, want)
	}
	// Parents come from later points only, and the weights sum to one.
	for i := range n {
		par, w := a.ParentsOf(i)
		var s float64
		for k, j := range par {
			if j <= i {
				t.Errorf("point %d has parent %d not after it", i, j)
			}
			s += w[k]
		}
		if i < n-1 && math.Abs(s-1) > 1e-12 {
			t.Errorf("weights of point %d sum to %v", i, s)
		}
	}
	// The embedding (from the triangular-solve operator) matches the top
	// eigenvectors of H (MMᵀ)⁻¹ H formed densely.
	var K mat.SymDense
	ch.InverseTo(&K)
	x, _, err := covarianceEmbedding(&K, 2)
	if err != nil {
		t.Fatal(err)
	}
	var X mat.Dense
	a.LatentTo(&X)
	for j := range 2 {
		var s float64
		for i := range n {
			s += X.At(i, j) * x.At(i, j)
		}
		sg := math.Copysign(1, s)
		for i := range n {
			if d := math.Abs(X.At(i, j) - sg*x.At(i, j)); d > 1e-7*math.Abs(x.At(0, 0))+1e-9 {
				t.Errorf("X[%d,%d] = %v, dense %v", i, j, X.At(i, j), sg*x.At(i, j))
			}
		}
	}
}

// With every later point a parent (K = n−1) and n−1 < p, the regressions
// are a complete Gaussian model and ALLE recovers PCA (paper §2.7.5): H K H =
// Ŷ Ŷᵀ/p.
func TestAcyclicLLEAllParentsRecoversPCA(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 9))
	n, p := 8, 15
	Y := mat.NewDense(n, p, nil)
	for i := range n {
		for j := range p {
			Y.Set(i, j, rnd.NormFloat64())
		}
	}
	for _, order := range [][]int{nil, {3, 1, 7, 0, 2, 6, 5, 4}} {
		a := &AcyclicLLE{Q: 2, K: n - 1, Order: order}
		if err := a.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var M mat.Dense
		a.PrecisionTo(&M)
		var L mat.SymDense
		L.SymOuterK(1, &M)
		var ch mat.Cholesky
		ch.Factorize(&L)
		var K mat.SymDense
		ch.InverseTo(&K)
		B := centreSym(&K)
		Yc := mat.DenseCopyOf(Y)
		centreColumns(Yc)
		var S mat.Dense
		S.Mul(Yc, Yc.T())
		S.Scale(1/float64(p), &S)
		if d := maxAbsDiff(B, &S); d > 1e-9 {
			t.Errorf("order %v: max |HKH − ŶŶᵀ/p| = %.3g", order, d)
		}
	}
}

// The ordering matters: reversing it changes the parents and the fit; a
// bad Order panics.
func TestAcyclicLLEOrder(t *testing.T) {
	Y := meuToyData(25, 5, 5)
	n, _ := Y.Dims()
	rev := make([]int, n)
	for i := range rev {
		rev[i] = n - 1 - i
	}
	a, b := &AcyclicLLE{Q: 2, K: 3}, &AcyclicLLE{Q: 2, K: 3, Order: rev}
	if err := a.Fit(Y); err != nil {
		t.Fatal(err)
	}
	if err := b.Fit(Y); err != nil {
		t.Fatal(err)
	}
	if pa, _ := a.ParentsOf(0); len(pa) != 3 {
		t.Errorf("point 0 has %d parents in data order, want 3", len(pa))
	}
	if pb, _ := b.ParentsOf(0); len(pb) != 0 {
		t.Errorf("point 0 is the root in reversed order but has parents %v", pb)
	}
	if a.LogLikelihood() == b.LogLikelihood() {
		t.Error("reversed order gave the same likelihood")
	}
	mustPanic(t, "bad order", func() { (&AcyclicLLE{Q: 2, K: 1, Order: []int{0, 0, 1}}).Fit(mat.NewDense(3, 1, []float64{1, 2, 4})) })
}
