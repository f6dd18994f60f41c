package kernel

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Helpers for the basis-function mappings of book Chapter 6 (§6.1, §6.5):
// a regular latent grid and the Jacobian of an EQ basis with respect to its
// input, which gives the magnification factors of the GTM (Bishop, Svensén
// & Williams 1997, "Magnification factors for the GTM algorithm").

// Grid returns the g^q×q matrix of the points of a regular grid over the
// box [lo_1, hi_1] × … × [lo_q, hi_q] with g points per dimension
// (q = len(lo)). Row k is the point whose per-dimension indices are the
// base-g digits of k, the first dimension varying fastest. g = 1 gives the
// box's centre. It panics when len(lo) ≠ len(hi), q = 0 or g < 1.
func Grid(lo, hi []float64, g int) *mat.Dense {
	q := len(lo)
	if q == 0 || len(hi) != q || g < 1 {
		panic(fmt.Sprintf("dimred: Grid with q = %d, len(hi) = %d, g = %d", q, len(hi), g))
	}
	m := 1
	for range q {
		m *= g
	}
	X := mat.NewDense(m, q, nil)
	for k := 0; k < m; k++ {
		r := k
		for l := 0; l < q; l++ {
			d := r % g
			r /= g
			v := (lo[l] + hi[l]) / 2
			if g > 1 {
				v = lo[l] + float64(d)*(hi[l]-lo[l])/float64(g-1)
			}
			X.Set(k, l, v)
		}
	}
	return X
}

// JacobianTo stores in dst (M×q) the derivatives of the M basis functions
// at the point x (length q) with respect to x,
//
//	∂φ_j/∂x_l = −2 (x_l − μ_jl)/ℓ² · φ_j(x)
//
// (for the Normalised basis the same, times the normalising constant). An
// empty dst is resized; a wrong shape, or len(x) different from the
// centres' dimension, panics with mat.ErrShape.
func (b EQBasis) JacobianTo(dst *mat.Dense, x []float64) {
	M, q := b.Centres.Dims()
	if len(x) != q {
		panic(mat.ErrShape)
	}
	if dst.IsEmpty() {
		dst.ReuseAs(M, q)
	} else if r, c := dst.Dims(); r != M || c != q {
		panic(mat.ErrShape)
	}
	var phi mat.Dense
	b.FeaturesTo(&phi, mat.NewDense(1, q, append([]float64(nil), x...)))
	l2 := b.LengthScale * b.LengthScale
	for j := 0; j < M; j++ {
		f := phi.At(0, j)
		for l := 0; l < q; l++ {
			dst.Set(j, l, -2*(x[l]-b.Centres.At(j, l))/l2*f)
		}
	}
}
