package dimred

import (
	"fmt"
	"math"
)

// Fitting control shared by the package's latent-variable models: the EM
// loops' limits and stopping rule (PPCA, PPCA with missing data,
// FactorAnalysis, MixturePPCA, BayesianPCA) and the q/n check of PPCA and
// FactorAnalysis. The failed-refit rule, discardOnError, is in embedder.go.

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

// checkLatentDim is the shape check of the linear-Gaussian models (PPCA,
// FactorAnalysis): it panics unless 1 ≤ q < p (a programmer error) and
// returns an error wrapping ErrTooFewPoints when n ≤ q. method names the
// model in the messages.
func checkLatentDim(method string, q, n, p int) error {
	if q < 1 || q >= p {
		panic(fmt.Sprintf("dimred: %s Q = %d outside [1, p−1 = %d]", method, q, p-1))
	}
	if n <= q {
		return fmt.Errorf("%w: %s with q = %d needs n > q observations, have %d", ErrTooFewPoints, method, q, n)
	}
	return nil
}
