package dimred

import (
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSubsamplePlacement: on planar data PCA is an affine map, so a point
// placed at the barycentre x = Σ_j w_j x_j of subsample points whose
// weights reconstruct it (y = Σ_j w_j y_j, Σ_j w_j = 1) lands exactly on
// its PCA projection; with the regulariser r = 10⁻¹⁰ the reconstruction
// is exact to ~r, so the placement must agree with PCA.ProjectTo to 1e-6.
// The subsample's own rows are the method's fit to them.
func TestSubsamplePlacement(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	Y := mat.NewDense(60, 2, nil)
	for i := 0; i < 60; i++ {
		Y.Set(i, 0, 3*r.Float64())
		Y.Set(i, 1, r.Float64())
	}
	s := &Subsample{Method: &PCA{Q: 2}, M: 20, K: 3, Reg: 1e-10}
	if err := s.Fit(Y); err != nil {
		t.Fatal(err)
	}
	sub := s.Subset()
	if len(sub) != 20 || !slices.IsSorted(sub) {
		t.Fatalf("subset %v: want 20 rows, ascending", sub)
	}
	var X mat.Dense
	s.LatentTo(&X)
	direct := &PCA{Q: 2}
	if err := direct.Fit(selectRows(Y, sub)); err != nil {
		t.Fatal(err)
	}
	var Xs, P mat.Dense
	direct.LatentTo(&Xs)
	direct.ProjectTo(&P, Y)
	for r, i := range sub {
		if !mat.EqualApprox(X.RowView(i), Xs.RowView(r), 1e-12) {
			t.Fatalf("subsample row %d (point %d) is not the method's fit", r, i)
		}
	}
	if !mat.EqualApprox(&X, &P, 1e-6) {
		t.Errorf("placed points differ from PCA's projection by %g", maxAbsDiff(&X, &P))
	}
	// M = n is the method itself.
	all := &Subsample{Method: &PCA{Q: 2}, M: 60}
	if err := all.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var Xa, Xd mat.Dense
	all.LatentTo(&Xa)
	if err := direct.Fit(Y); err != nil {
		t.Fatal(err)
	}
	direct.LatentTo(&Xd)
	if !mat.Equal(&Xa, &Xd) {
		t.Error("Subsample with M = n differs from the method")
	}
}
