package dimred

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"

	"gonum.org/v1/gonum/mat"
)

// jitteredGrid is n points of a 1-D grid, y_i = i + 0.3 (u_i − ½): its kNN
// graph is path-like and its Laplacian's smallest eigenvalues cluster
// (λ_j ≈ (πj/n)² times a constant).
func jitteredGrid(n int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 2))
	Y := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		Y.Set(i, 0, float64(i)+0.3*(rnd.Float64()-0.5))
	}
	return Y
}

// principalAngle returns the largest principal angle between the column
// spans of A and B (orthonormalised first).
func principalAngle(A, B *mat.Dense) float64 {
	orth := func(X *mat.Dense) *mat.Dense {
		var qr mat.QR
		qr.Factorize(X)
		var Q mat.Dense
		qr.QTo(&Q)
		_, c := X.Dims()
		r, _ := X.Dims()
		return mat.DenseCopyOf(Q.Slice(0, r, 0, c))
	}
	qa, qb := orth(A), orth(B)
	var m mat.Dense
	m.Mul(qa.T(), qb)
	var svd mat.SVD
	svd.Factorize(&m, mat.SVDNone)
	s := svd.Values(nil)
	return math.Acos(math.Min(1, s[len(s)-1]))
}

// TestEigenmapsShiftInvertSameEigenvectors checks the shift-invert route
// of Laplacian eigenmaps against the dense eigensolver: the same
// eigenvalues and the same embedding subspace, on a path-like graph (the
// clustered spectrum that made the Krylov route slow) and on the swiss
// roll.
func TestEigenmapsShiftInvertSameEigenvectors(t *testing.T) {
	for _, c := range []struct {
		name string
		Y    *mat.Dense
	}{{"jittered grid", jitteredGrid(600, 1)}, {"swiss roll", testutil.SwissRoll(600, 1)}} {
		auto := &LaplacianEigenmaps{Q: 2, K: 10}
		dense := &LaplacianEigenmaps{Q: 2, K: 10, Eigen: &linalg.EigenSettings{Method: linalg.EigenDense}}
		if err := auto.Fit(c.Y); err != nil {
			t.Fatal(err)
		}
		if err := dense.Fit(c.Y); err != nil {
			t.Fatal(err)
		}
		va, vd := auto.EigenvaluesTo(nil), dense.EigenvaluesTo(nil)
		for i := 1; i < len(va); i++ {
			if r := math.Abs(va[i]-vd[i]) / vd[i]; r > 1e-8 {
				t.Errorf("%s: λ_%d = %.12g, dense %.12g (rel %.1e)", c.name, i, va[i], vd[i], r)
			}
		}
		var xa, xd mat.Dense
		auto.LatentTo(&xa)
		dense.LatentTo(&xd)
		if a := principalAngle(&xa, &xd); a > 1e-6 {
			t.Errorf("%s: subspace angle to the dense solution %.1e", c.name, a)
		}
	}
}

// TestEigenmapsSolverChoice is the policy behind the choice: the envelope
// factor of a path-like graph's L̂ costs a few flops per non-zero of L̂
// (shift-invert), that of 50-dimensional Gaussian data (envelope ~n²)
// far more than leShiftInvertFlopsPerNonzero (the Krylov solver).
func TestEigenmapsSolverChoice(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	G := mat.NewDense(1000, 50, nil)
	for i := range G.RawMatrix().Data {
		G.RawMatrix().Data[i] = rnd.NormFloat64()
	}
	for _, c := range []struct {
		name   string
		Y      *mat.Dense
		factor bool
	}{{"jittered grid", jitteredGrid(1000, 2), true}, {"swiss roll", testutil.SwissRoll(1000, 1), true}, {"50-D Gaussian", G, false}} {
		nb, err := neighbours.KNearest(c.Y, 10)
		if err != nil {
			t.Fatal(err)
		}
		L, err := neighbours.NormalisedLaplacian(nb.Graph(neighbours.Union))
		if err != nil {
			t.Fatal(err)
		}
		budget := leShiftInvertFlopsPerNonzero * float64(L.RowPtr[L.N])
		_, err = factorEnvelope(L, 1e-10, budget)
		if got := err == nil; got != c.factor {
			t.Errorf("%s: factorised within the budget = %v (err %v), want %v", c.name, got, err, c.factor)
		}
		if err != nil && !errors.Is(err, errEnvelopeTooLarge) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestSolverCostMonotone: a cliff is a size whose solver costs more than
// that of a larger size. LLE and Laplacian eigenmaps now take one route
// (shift-invert) across every former crossover on the swiss roll, and the
// route's cost model — envelopeFlops of the factor plus two envelope
// passes per Lanczos product — is nondecreasing along the ladder (the
// dense-versus-Krylov rule: TestDensePolicyMonotone in linalg).
func TestSolverCostMonotone(t *testing.T) {
	prev := 0.0
	for _, n := range []int{150, 200, 201, 250, 400, 490, 500, 510, 900, 990, 1000, 1100, 2000} {
		Y := testutil.SwissRoll(n, 1)
		nb, err := neighbours.KNearest(Y, 10)
		if err != nil {
			t.Fatal(err)
		}
		L, err := neighbours.NormalisedLaplacian(nb.Graph(neighbours.Union))
		if err != nil {
			t.Fatal(err)
		}
		f, err := factorEnvelope(L, 1e-10, leShiftInvertFlopsPerNonzero*float64(L.RowPtr[L.N]))
		if err != nil {
			t.Fatalf("n = %d: the swiss roll left the shift-invert route: %v", n, err)
		}
		cost := envelopeFlops(f.first) + 2*float64(len(f.val))*float64(n)
		if cost < prev {
			t.Errorf("n = %d: modelled cost %.3g below that of the smaller size (%.3g)", n, cost, prev)
		}
		prev = cost
	}
}
