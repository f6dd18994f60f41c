package dimred

import (
	"context"
	"errors"
	"fmt"

	"github.com/dimredbook/book/dimred/internal/errs"

	"gonum.org/v1/gonum/mat"
)

// Embedder is implemented by every embedding method of the package.
type Embedder interface {
	// Fit fits the model to Y, an n×p matrix whose rows are observations.
	// Y is never modified.
	Fit(Y mat.Matrix) error
	// LatentTo stores the n×q latent positions X in dst. An empty dst is
	// resized; a dst of another shape panics with mat.ErrShape.
	// Using a model with no successful Fit panics with a "dimred: ..."
	// message. A Fit that fails — returns an error other than
	// ErrNotConverged, or panics — leaves the model unfitted; it never
	// serves an earlier fit.
	LatentTo(dst *mat.Dense)
}

// Projector is implemented by the methods with an out-of-sample map: the
// latent positions of new observations under the fitted model.
type Projector interface {
	Embedder
	// ProjectTo stores in dst the m×q latent positions of the m×p rows of
	// Ynew. An empty dst is resized; a dst of another shape panics with
	// mat.ErrShape, as does Ynew with another number of columns than the
	// training data. Using an unfitted model panics. Projecting the training
	// rows gives LatentTo's positions: to rounding where the out-of-sample
	// map is exact at the training points (the linear models, classical
	// MDS, kernel PCA, LLE, Isomap, GTM, DensityNetwork), approximately for
	// LaplacianEigenmaps' Nyström extension and GPLVM's per-point
	// optimisation, whose docs say how closely (dimredtest's ProjTol).
	//
	// NaN in Ynew — one rule for every Projector: ProjectTo has no error to
	// return, so a NaN or Inf entry panics with a "dimred: ..." message
	// naming the entry (check new data first); the one exception is
	// PPCA.ProjectTo, whose model can marginalise a missing value: there
	// NaN marks a missing entry and the row's posterior mean uses its
	// observed entries only (Inf still panics).
	ProjectTo(dst *mat.Dense, Ynew mat.Matrix)
}

// discardOnError implements the failed-fit rule (DESIGN, the package doc:
// a failed Fit leaves the model unfitted) for the Fits whose fitted state
// is one field; the Fits with several (LaplacianEigenmaps, LLE, Isomap,
// MVU, MEU, AcyclicLLE, DRILL) clear them all at the top of Fit instead.
// dimredtest's FailedRefitUnfits checks the behaviour for every method.
// Deferred as the first statement of Fit,
//
//	func (m *T) Fit(Y mat.Matrix) (err error) {
//		defer discardOnError(&err, &m.fitted)
//
// it zeroes *fitted — the field whose zero value means "unfitted" — when Fit
// returns an error other than ErrNotConverged (whose result is still
// usable) or panics (the panic goes on), so that a failed refit never
// serves the previous fit: later use panics as before the first Fit.
func discardOnError[T any](err *error, fitted *T) {
	if r := recover(); r != nil {
		var zero T
		*fitted = zero
		panic(r)
	}
	if *err != nil && !errors.Is(*err, ErrNotConverged) {
		var zero T
		*fitted = zero
	}
}

// checkProjectInput is the NaN rule of ProjectTo (see Projector) and of the
// other out-of-sample maps (ProjectDistancesTo, ProjectKernelTo,
// PreImage.MapTo): a NaN or Inf entry of the input panics with a
// "dimred: <method>: NaN or Inf in input: <what>[i,j] = v" message. An
// input with no rows panics too: there is no empty m×q result to store
// (gonum has no 0×q matrix).
func checkProjectInput(method string, Y mat.Matrix, what string) {
	if r, _ := Y.Dims(); r == 0 {
		panic(fmt.Sprintf("dimred: %s: %s has no rows", method, what))
	}
	if err := errs.CheckFinite(Y, what); err != nil {
		panic(errs.Wrap(err, method).Error())
	}
}

// ContextFitter is implemented by every method whose Fit can run long:
// FitContext(ctx, Y) is Fit(Y) under ctx, and Fit(Y) is
// FitContext(context.Background(), Y). See the package doc, "Cancellation
// and progress".
type ContextFitter interface {
	FitContext(ctx context.Context, Y mat.Matrix) error
}

// cancelled reports whether err is a cancelled context's: the fit stopped
// because its ctx was done and must return at once.
func cancelled(err error) bool {
	return err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}
