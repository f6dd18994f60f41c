package dimred

import "gonum.org/v1/gonum/mat"

// Embedder is implemented by every embedding method of the package.
type Embedder interface {
	// Fit fits the model to Y, an n×p matrix whose rows are observations.
	// Y is never modified.
	Fit(Y mat.Matrix) error
	// LatentTo stores the n×q latent positions X in dst. A nil or empty
	// dst is resized; a dst of another shape panics with mat.ErrShape.
	LatentTo(dst *mat.Dense)
}

// Projector is implemented by the methods with an out-of-sample map: the
// latent positions of new observations under the fitted model.
type Projector interface {
	Embedder
	// ProjectTo stores in dst the m×q latent positions of the m×p rows of
	// Ynew. An empty dst is resized; a dst of another shape, or Ynew with
	// another number of columns than the training data, panics with
	// mat.ErrShape. Using an unfitted model panics.
	ProjectTo(dst *mat.Dense, Ynew mat.Matrix)
}
