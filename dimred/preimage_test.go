package dimred

import (
	"errors"
	"math"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"

	"github.com/dimredbook/book/dimred/kernel"

	"gonum.org/v1/gonum/mat"
)

// Points on a circle: kernel PCA with an RBF kernel maps them to a closed
// curve; the learned pre-image map sends latent points back near the circle.
func TestPreImageCircle(t *testing.T) {
	const n = 120
	Y := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		th := 2 * math.Pi * float64(i) / n
		Y.Set(i, 0, 3*math.Cos(th)+1)
		Y.Set(i, 1, 3*math.Sin(th)-2)
	}
	kp := KernelPCA{Kernel: kernel.RBF{LengthScale: 1.5}, Q: 2}
	if err := kp.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var X mat.Dense
	kp.LatentTo(&X)
	var pi PreImage
	if err := pi.Fit(&X, Y); err != nil {
		t.Fatal(err)
	}
	var R mat.Dense
	pi.MapTo(&R, &X)
	if d := testutil.MaxAbsDiff(&R, Y); d > 0.05 {
		t.Errorf("pre-images of the training latents are %v from the data", d)
	}
	// Midpoints between neighbouring latent points map near the circle.
	mid := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		mid.Set(i, 0, (X.At(i, 0)+X.At(j, 0))/2)
		mid.Set(i, 1, (X.At(i, 1)+X.At(j, 1))/2)
	}
	pi.MapTo(&R, mid)
	for i := 0; i < n; i++ {
		r := math.Hypot(R.At(i, 0)-1, R.At(i, 1)+2)
		if math.Abs(r-3) > 0.1 {
			t.Fatalf("pre-image of midpoint %d at radius %v, want ≈ 3", i, r)
		}
	}
}

func TestPreImageBadInput(t *testing.T) {
	X := testutil.RandDense(10, 2, 1)
	Y := testutil.RandDense(10, 3, 2)
	testutil.MustPanic(t, "row mismatch", func() { (&PreImage{}).Fit(X, testutil.RandDense(9, 3, 1)) })
	testutil.MustPanic(t, "negative λ", func() { (&PreImage{Lambda: -1}).Fit(X, Y) })
	testutil.MustPanic(t, "unfitted", func() {
		var R mat.Dense
		(&PreImage{}).MapTo(&R, X)
	})
	Y.Set(3, 1, math.Inf(1))
	if err := (&PreImage{}).Fit(X, Y); !errors.Is(err, ErrNaN) {
		t.Errorf("Inf in Y: err = %v, want ErrNaN", err)
	}
	if err := (&PreImage{}).Fit(testutil.RandDense(1, 2, 1), testutil.RandDense(1, 3, 1)); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("one point: err = %v, want ErrTooFewPoints", err)
	}
	var pi PreImage
	if err := pi.Fit(X, testutil.RandDense(10, 3, 3)); err != nil {
		t.Fatal(err)
	}
	testutil.MustPanic(t, "MapTo column mismatch", func() {
		var R mat.Dense
		pi.MapTo(&R, testutil.RandDense(2, 3, 1))
	})
	// A failed refit leaves the map unfitted rather than serving the old fit.
	if err := pi.Fit(X, Y); !errors.Is(err, ErrNaN) {
		t.Fatalf("refit with Inf in Y: err = %v, want ErrNaN", err)
	}
	testutil.MustPanic(t, "MapTo after failed refit", func() {
		var R mat.Dense
		pi.MapTo(&R, X)
	})
}
