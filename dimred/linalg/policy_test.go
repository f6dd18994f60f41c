package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestAutoNoGapBudgetedFallback: a random symmetric matrix (semicircle
// spectrum, no gap: a Krylov method's hard case) between DenseMax and the
// old threshold of 200 is now solved by the budgeted Lanczos with the
// dense fallback; the eigenvalues must be the dense ones.
func TestAutoNoGapBudgetedFallback(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 9))
	for _, n := range []int{DenseMax + 1, 120, 200} {
		A := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				A.SetSym(i, j, rnd.NormFloat64())
			}
		}
		got, _, err := EigenSym(A, 2, Largest, nil)
		if err != nil {
			t.Fatalf("n = %d: %v", n, err)
		}
		want, _, err := EigenSym(A, 2, Largest, &EigenSettings{Method: EigenDense})
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if d := math.Abs(got[i]-want[i]) / math.Abs(want[i]); d > 1e-9 {
				t.Errorf("n = %d: λ_%d = %.12g, dense %.12g", n, i, got[i], want[i])
			}
		}
	}
}

// TestDensePolicyMonotone: the dense-versus-Krylov choice is a threshold
// in n for every k (dense below, Krylov above, never back), and the
// budget of an automatic Krylov run grows with n, so the worst case of
// the chosen route (budget products, then the dense solve) grows with n.
func TestDensePolicyMonotone(t *testing.T) {
	for k := 1; k <= 60; k++ {
		iterative := false
		for n := k; n <= 3000; n++ {
			d := PreferDense(n, k)
			if iterative && d {
				t.Fatalf("PreferDense(%d, %d) returns to dense after an iterative n", n, k)
			}
			iterative = iterative || !d
		}
	}
	for n := 2; n <= autoDenseFallback; n++ {
		if DenseEquivalentProducts(n) < DenseEquivalentProducts(n-1) {
			t.Fatalf("DenseEquivalentProducts(%d) < DenseEquivalentProducts(%d)", n, n-1)
		}
	}
}
