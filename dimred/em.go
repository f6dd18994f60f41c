package dimred

import (
	"errors"
	"math"
)

// Fitting control shared by the package's latent-variable models: the EM
// loops' limits and stopping rule (PPCA, PPCA with missing data,
// FactorAnalysis, MixturePPCA, BayesianPCA) and the failed-refit rule
// (those and PCA).

// emLimits returns the iteration limit and tolerance of an EM fit, a zero
// MaxIter or Tol replaced by the method's documented default.
func emLimits(maxIter int, tol float64, defIter int, defTol float64) (int, float64) {
	if maxIter == 0 {
		maxIter = defIter
	}
	if tol == 0 {
		tol = defTol
	}
	return maxIter, tol
}

// emStop is the stopping rule of the EM loops, checked once the objective
// obj of iteration it is known: stop (and count the fit as converged) when
// the Monitor, if set, returns true, or when the change since the previous
// iteration is at most tol·|obj|, a negative tol disabling that test.
// change is obj − prev (a fall counts as converged: EM cannot improve), or
// |obj − prev| where the objective need not increase; prev = −Inf on the
// first iteration makes it +Inf.
func emStop(monitor func(iter int, objective float64) bool, it int, obj, change, tol float64) bool {
	if monitor != nil && monitor(it, obj) {
		return true
	}
	return tol >= 0 && change <= tol*math.Abs(obj)
}

// discardOnError marks a model unfitted when a (re)fit fails with anything
// but ErrNotConverged (whose result is still usable), so that a failed refit
// never silently serves the previous fit: later use panics as before Fit.
// fitted points at the field whose zero value means "unfitted" (W, or U for
// PCA); use it as defer discardOnError(&err, &m.w) with a named error result.
func discardOnError[T any](err *error, fitted *T) {
	if *err != nil && !errors.Is(*err, ErrNotConverged) {
		var zero T
		*fitted = zero
	}
}
