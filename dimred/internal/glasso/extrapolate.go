package glasso

import "math"

// extrapolate tries to speed up the linear convergence of the sweeps, which
// is slow when S is nearly singular on the graph (DRILL's S = ŶŶᵀ/p has
// rank ≤ p < n). The dual of the problem is
//
//	max log det W  subject to  Wᵢᵢ = Sᵢᵢ (+ρ),  |Wᵢⱼ − Sᵢⱼ| ≤ ρᵢⱼ on the graph,
//
// with Wᵢⱼ free off the graph, and the sweeps are block coordinate ascent on
// it. When successive sweeps move W along a persistent direction
// d = W − W_old, extrapolate searches W + αd (α = 2, 4, 8, …, projected onto
// the constraints) for the largest increase of log det W and keeps it if
// log det W increased. Any feasible W with a larger dual objective is a
// valid point from which to continue the sweeps, so this never harms
// convergence; it only saves sweeps. It reports whether a step was taken.
func (s *solver) extrapolate(old []float64) bool {
	n := s.n
	f0, ok := s.logDet(s.w)
	if !ok {
		return false
	}
	cand := s.ext
	best := math.Inf(-1)
	var bestAlpha float64
	for alpha := 2.0; alpha <= 1<<12; alpha *= 2 {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				cand[i*n+j] = s.w[i*n+j] + alpha*(s.w[i*n+j]-old[i*n+j])
			}
			cand[i*n+i] = s.w[i*n+i]
		}
		s.project(cand)
		f, ok := s.logDet(cand)
		if !ok || f <= best {
			break
		}
		best, bestAlpha = f, alpha
	}
	if bestAlpha == 0 || !(best > f0) {
		return false
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s.w[i*n+j] += bestAlpha * (s.w[i*n+j] - old[i*n+j])
		}
		s.w[i*n+i] = old[i*n+i]
	}
	s.project(s.w)
	return true
}

// project clips allowed off-diagonal entries of w to [Sᵢⱼ − ρᵢⱼ, Sᵢⱼ + ρᵢⱼ].
func (s *solver) project(w []float64) {
	n := s.n
	for i, l := range s.nb {
		for a, j := range l {
			lo, hi := s.s[i*n+j]-s.rho[i][a], s.s[i*n+j]+s.rho[i][a]
			w[i*n+j] = min(max(w[i*n+j], lo), hi)
		}
	}
}

// logDet returns log det of the symmetric n×n matrix w and whether it is
// positive definite.
func (s *solver) logDet(w []float64) (float64, bool) {
	copy(s.chol, w)
	return denseLogDet(s.chol, s.n)
}
