package dimred

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// Landmark MDS is exact for Euclidean data of rank ≤ q when the landmarks
// span it (de Silva & Tenenbaum 2004): the configuration is the full
// classical MDS one up to a rigid motion, so all pairwise distances are
// reproduced. On noisy data it approximates the full solution.
func TestLandmarkMDS(t *testing.T) {
	rnd := rand.New(rand.NewPCG(31, 32))
	const n, q = 600, 3
	Y := mat.NewDense(n, 5, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < q; j++ {
			Y.Set(i, j, 3*rnd.NormFloat64()/float64(j+1))
		}
	}
	m := &ClassicalMDS{Q: q, Landmarks: 40}
	if err := m.Fit(Y); err != nil {
		t.Fatal(err)
	}
	if got := len(m.LandmarkIndices()); got != 40 {
		t.Fatalf("%d landmarks, want 40", got)
	}
	var X mat.Dense
	m.LatentTo(&X)
	D, Dx := mat.NewSymDense(n, nil), mat.NewSymDense(n, nil)
	linalg.PairwiseSquaredDistances(D, Y)
	linalg.PairwiseSquaredDistances(Dx, &X)
	if d := maxAbsDiff(D, Dx); d > 1e-8 {
		t.Errorf("rank-%d data: distances not reproduced, max |Δ| = %g", q, d)
	}
	// ProjectTo of the training rows lands where LatentTo put them.
	var Xp mat.Dense
	m.ProjectTo(&Xp, Y)
	if !mat.EqualApprox(&X, &Xp, 1e-8) {
		t.Error("ProjectTo of the training rows differs from LatentTo")
	}
	// Noisy data: close to the full fit (principal angle of the spans).
	for i := 0; i < n; i++ {
		for j := q; j < 5; j++ {
			Y.Set(i, j, 0.05*rnd.NormFloat64())
		}
	}
	full := &ClassicalMDS{Q: q}
	lm := &ClassicalMDS{Q: q, Landmarks: 100}
	if err := full.Fit(Y); err != nil {
		t.Fatal(err)
	}
	if err := lm.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var Xf, Xl mat.Dense
	full.LatentTo(&Xf)
	lm.LatentTo(&Xl)
	// The landmark configuration is centred on the landmarks' mean: compare
	// the centred spans.
	linalg.CentreColumns(&Xf, &Xf)
	linalg.CentreColumns(&Xl, &Xl)
	if a := linalg.SubspaceAngle(&Xf, &Xl); a > 0.01 || math.IsNaN(a) {
		t.Errorf("noisy data: landmark and full MDS spans differ by %.3g rad", a)
	}
}
