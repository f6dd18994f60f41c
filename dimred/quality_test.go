package dimred

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestNearestNeighbourErrors(t *testing.T) {
	// Two tight clusters and one mislabelled point.
	X := mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 5, 5.1, 5.2})
	if got := NearestNeighbourErrors(X, []int{0, 0, 0, 1, 1, 1}); got != 0 {
		t.Errorf("clean clusters: %d errors", got)
	}
	// Point 2 labelled 1 inside cluster 0 errs; point 1 is equidistant from
	// 0 and 2 and the tie goes to the lowest index, 0, so it does not.
	if got := NearestNeighbourErrors(X, []int{0, 0, 1, 1, 1, 1}); got != 1 {
		t.Errorf("one mislabelled point: %d errors, want 1", got)
	}
	mustPanic(t, "labels", func() { NearestNeighbourErrors(X, []int{0}) })
	X.Set(1, 0, math.NaN())
	mustPanic(t, "NaN", func() { NearestNeighbourErrors(X, []int{0, 0, 0, 1, 1, 1}) })
}

func TestTrustworthinessContinuity(t *testing.T) {
	Y := lowRank(120, 6, 2, 0.01, 21)
	// A faithful embedding (PCA to 2-D of nearly 2-D data) scores ≈ 1.
	pca := PCA{Q: 2}
	if err := pca.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var X mat.Dense
	pca.LatentTo(&X)
	for _, f := range []func(Y, X mat.Matrix, k int) (float64, error){Trustworthiness, Continuity} {
		v, err := f(Y, &X, 5)
		if err != nil {
			t.Fatal(err)
		}
		if v < 0.99 || v > 1 {
			t.Errorf("faithful embedding: %v", v)
		}
	}
	// A random embedding scores about 0.5.
	R := lowRank(120, 2, 2, 1, 99)
	v, err := Trustworthiness(Y, R, 5)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(v-0.5) > 0.1 {
		t.Errorf("random embedding trustworthiness %v, want ≈ 0.5", v)
	}
	bad := mat.DenseCopyOf(&X)
	bad.Set(0, 0, math.NaN())
	// The error names the entry in the caller's terms: X is the embedding
	// for both measures, whichever space each ranks in.
	for name, f := range map[string]func(Y, X mat.Matrix, k int) (float64, error){"Trustworthiness": Trustworthiness, "Continuity": Continuity} {
		_, err := f(Y, bad, 5)
		if !errors.Is(err, ErrNaN) || !strings.Contains(err.Error(), "X[0,0]") {
			t.Errorf("%s, NaN in X[0,0]: %v", name, err)
		}
	}
	mustPanic(t, "k too large", func() { _, _ = Trustworthiness(Y, &X, 60) })
}

func TestPCABadInput(t *testing.T) {
	y := lowRank(10, 4, 2, 0.1, 1)
	y.Set(2, 3, math.Inf(1))
	if err := (&PCA{Q: 1}).Fit(y); !errors.Is(err, ErrNaN) {
		t.Errorf("Inf: %v", err)
	}
	mustPanic(t, "q = 0", func() { _ = (&PCA{Q: 0}).Fit(y) })
	mustPanic(t, "unfitted", func() { (&PCA{Q: 1}).LatentTo(&mat.Dense{}) })
}

// Trustworthiness and Continuity against numbers computed by hand from the
// definition (Venna & Kaski 2001), so that the normaliser
// 2/(nk(2n − 3k − 1)) is pinned (a mutant 2n − 3k gives 0.667 for T(1)).
//
// Y: six points on a line at 0, 1, 3, 7, 15, 31 (no distance ties); their
// ranks r(i, j) in Y follow the order of |y_i − y_j|. X: the same points
// placed at 0, 31, 1, 15, 3, 7.
//
// T(1): the nearest neighbour of each point in X is 2, 3, 0, 5, 2, 4 with
// Y-ranks 2, 3, 2, 5, 2, 1, so Σ (r − 1)⁺ = 1 + 2 + 1 + 4 + 1 + 0 = 9 and
// T = 1 − 2/(6·1·8)·9 = 15/24.
// T(2): the two nearest in X are {2, 4}, {3, 5}, {0, 4}, {5, 4}, {2, 0},
// {4, 2} with Y-ranks {2, 4}, {3, 5}, {2, 4}, {5, 4}, {2, 4}, {1, 3}, so
// Σ (r − 2)⁺ = 2 + 4 + 2 + 5 + 2 + 1 = 16 and T = 1 − 2/(6·2·5)·16 = 14/30.
// C(1): the nearest neighbour of each point in Y is 1, 0, 1, 2, 3, 4 with
// X-ranks 5, 5, 5, 3, 4, 1, so Σ (r − 1)⁺ = 4 + 4 + 4 + 2 + 3 + 0 = 17 and
// C = 1 − 2/(6·1·8)·17 = 7/24.
func TestTrustworthinessHandComputed(t *testing.T) {
	Y := mat.NewDense(6, 1, []float64{0, 1, 3, 7, 15, 31})
	X := mat.NewDense(6, 1, []float64{0, 31, 1, 15, 3, 7})
	for _, c := range []struct {
		name string
		f    func(Y, X mat.Matrix, k int) (float64, error)
		k    int
		want float64
	}{
		{"T(1)", Trustworthiness, 1, 15.0 / 24},
		{"T(2)", Trustworthiness, 2, 14.0 / 30},
		{"C(1)", Continuity, 1, 7.0 / 24},
	} {
		got, err := c.f(Y, X, c.k)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%s = %.15g, want %.15g", c.name, got, c.want)
		}
	}
}
