package dimred

import (
	"math"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"
	"gonum.org/v1/gonum/mat"
)

// The envelope Cholesky solve agrees with a dense solve of (A + σI) x = b
// on a kNN-graph Laplacian (RCM reordering included).
func TestEnvelopeCholeskySolve(t *testing.T) {
	Y := testutil.SwissRoll(300, 3)
	g, err := neighbours.KNNGraph(Y, 8, neighbours.Union)
	if err != nil {
		t.Fatal(err)
	}
	L := neighbours.Laplacian(g)
	const sigma = 0.1
	f, err := factorEnvelope(L, sigma, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := L.N
	A := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			A.SetSym(i, j, L.At(i, j))
		}
		A.SetSym(i, i, A.At(i, i)+sigma)
	}
	b := make([]float64, n)
	for i := range b {
		b[i] = math.Sin(float64(i))
	}
	x := make([]float64, n)
	f.MulVecTo(x, b)
	var want mat.VecDense
	if err := want.SolveVec(A, mat.NewVecDense(n, b)); err != nil {
		t.Fatal(err)
	}
	for i := range x {
		if math.Abs(x[i]-want.AtVec(i)) > 1e-9*math.Max(1, math.Abs(want.AtVec(i))) {
			t.Fatalf("x[%d] = %v, dense %v", i, x[i], want.AtVec(i))
		}
	}
}

// Shift-invert finds LLE's clustered bottom eigenpairs of M (eigenvalues
// ~1e-10 … 1e-7 against ‖M‖ ~ 1): small residuals, and the dense solver's
// subspace (n = 1200).
func TestLLEShiftInvertMatchesDense(t *testing.T) {
	if testing.Short() {
		t.Skip("dense 1200×1200 eigenproblem")
	}
	Y := testutil.SwissRoll(1200, 1)
	var X1, X2 mat.Dense
	a := &LLE{Q: 2, K: 10}
	if err := a.Fit(Y); err != nil {
		t.Fatal(err)
	}
	a.LatentTo(&X1)
	b := &LLE{Q: 2, K: 10, Eigen: &linalg.EigenSettings{Method: linalg.EigenDense}}
	if err := b.Fit(Y); err != nil {
		t.Fatal(err)
	}
	b.LatentTo(&X2)
	if s := linalg.SubspaceAngle(&X1, &X2); s > 1e-4 {
		t.Errorf("subspace angle with the dense solution %.3g", s)
	}
	va, vb := a.EigenvaluesTo(nil), b.EigenvaluesTo(nil)
	for i := 1; i < len(va); i++ {
		if math.Abs(va[i]-vb[i]) > 1e-6*vb[i]+1e-14 {
			t.Errorf("λ_%d = %g, dense %g", i, va[i], vb[i])
		}
	}
}
