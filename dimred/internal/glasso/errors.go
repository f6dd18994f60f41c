package glasso

import "errors"

// Sentinel errors. Returned errors wrap one of these with context (which
// entry, which column), so test with errors.Is; callers may wrap them again
// with their own sentinels.
var (
	// ErrNaN reports a NaN or ±Inf in S, in a penalty or in a start.
	ErrNaN = errors.New("glasso: NaN or Inf")
	// ErrNotPositiveDefinite reports a start covariance (S plus the
	// diagonal penalty, or Settings.Start) whose block for some column is
	// not positive definite, or an iterate that lost positive definiteness:
	// the problem has no solution for this S, graph and ρ (for example ρ = 0
	// with every pair allowed and a singular S).
	ErrNotPositiveDefinite = errors.New("glasso: not positive definite")
	// ErrNotConverged reports that MaxIter sweeps ran without meeting Tol.
	ErrNotConverged = errors.New("glasso: not converged")
)
