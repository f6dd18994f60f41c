package dimred

import "gonum.org/v1/gonum/mat"

// Embedder is implemented by every embedding method of the package.
type Embedder interface {
	// Fit fits the model to Y, an n×p matrix whose rows are observations.
	// Y is never modified.
	Fit(Y mat.Matrix) error
	// LatentTo stores the n×q latent positions X in dst. An empty dst is
	// resized; a dst of the wrong shape panics with mat.ErrShape.
	LatentTo(dst *mat.Dense)
}

// reuseAs resizes an empty dst to r×c, or panics with mat.ErrShape when a
// non-empty dst has another shape.
func reuseAs(dst *mat.Dense, r, c int) {
	if dst.IsEmpty() {
		dst.ReuseAs(r, c)
		return
	}
	if rr, cc := dst.Dims(); rr != r || cc != c {
		panic(mat.ErrShape)
	}
}
