package dimredtest_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/dimredbook/book/dimred"
	"github.com/dimredbook/book/dimred/dimredtest"
	"gonum.org/v1/gonum/mat"
)

// FirstColumns is a user's own Embedder, written outside dimred: the
// latent positions are the first Q columns of Y with their means removed.
// It follows the contract the suite checks.
type FirstColumns struct {
	Q int // q, latent dimension, 1 ≤ q ≤ p

	x *mat.Dense // n×q; nil until a successful Fit
}

// Fit keeps the first Q centred columns of Y (n×p, not modified).
func (m *FirstColumns) Fit(Y mat.Matrix) error {
	m.x = nil // a failed Fit leaves the model unfitted
	n, p := Y.Dims()
	if m.Q < 1 || m.Q > p {
		panic(fmt.Sprintf("mypkg: FirstColumns.Q = %d outside [1, p = %d]", m.Q, p))
	}
	if n < 2 || n <= m.Q {
		return fmt.Errorf("%w: FirstColumns with Q = %d needs n > Q points, have %d", dimred.ErrTooFewPoints, m.Q, n)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			if v := Y.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: Y[%d,%d] = %v", dimred.ErrNaN, i, j, v)
			}
		}
	}
	x := mat.NewDense(n, m.Q, nil)
	for j := 0; j < m.Q; j++ {
		mu := 0.0
		for i := 0; i < n; i++ {
			mu += Y.At(i, j) / float64(n)
		}
		for i := 0; i < n; i++ {
			x.Set(i, j, Y.At(i, j)-mu)
		}
	}
	m.x = x
	return nil
}

// LatentTo stores X (n×q) in dst: an empty dst is resized, another shape
// panics with mat.ErrShape.
func (m *FirstColumns) LatentTo(dst *mat.Dense) {
	if m.x == nil {
		panic("mypkg: FirstColumns used before a successful Fit")
	}
	if dst == nil {
		panic("mypkg: FirstColumns.LatentTo: nil dst")
	}
	r, c := m.x.Dims()
	if !dst.IsEmpty() {
		if dr, dc := dst.Dims(); dr != r || dc != c {
			panic(mat.ErrShape)
		}
	}
	dst.CloneFrom(m.x)
}

// One test holds FirstColumns to the whole contract.
func TestFirstColumnsConformance(t *testing.T) {
	dimredtest.Embedder(t, func() dimred.Embedder { return &FirstColumns{Q: 2} },
		dimredtest.Options{Q: 2, PanicPrefix: "mypkg: "})
}
