package kernel

import (
	"math"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"

	"gonum.org/v1/gonum/mat"
)

// An RBF kernel of data at scale 1e200 with ℓ = 1e200·ℓ₀ is the kernel of
// the unit-scale data with ℓ₀: the squared distances overflow (and would
// give NaN entries) but the kernel values are ordinary numbers. Likewise at
// scale 1e-200, where the squares underflow.
func TestRBFExtremeScale(t *testing.T) {
	U := testutil.GaussianData(30, 4, 2)
	V := testutil.GaussianData(7, 4, 3)
	var want mat.SymDense
	Gram(&want, RBF{LengthScale: 1.5}, U)
	var wantX mat.Dense
	Cross(&wantX, RBF{LengthScale: 1.5}, U, V)
	for _, s := range []float64{1e200, 1e-200} {
		var Y, Z mat.Dense
		Y.Scale(s, U)
		Z.Scale(s, V)
		var K mat.SymDense
		Gram(&K, RBF{LengthScale: 1.5 * s}, &Y)
		var X mat.Dense
		Cross(&X, RBF{LengthScale: 1.5 * s}, &Y, &Z)
		for i := 0; i < 30; i++ {
			for j := 0; j < 30; j++ {
				if g, w := K.At(i, j), want.At(i, j); !(math.Abs(g-w) <= 1e-12) {
					t.Fatalf("scale %g: K[%d,%d] = %v, want %v", s, i, j, g, w)
				}
			}
			for j := 0; j < 7; j++ {
				if g, w := X.At(i, j), wantX.At(i, j); !(math.Abs(g-w) <= 1e-12) {
					t.Fatalf("scale %g: cross K[%d,%d] = %v, want %v", s, i, j, g, w)
				}
			}
		}
	}
}
