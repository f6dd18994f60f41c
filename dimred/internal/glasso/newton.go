package glasso

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// pattern is a sparsity pattern for Newton's method: the n diagonal
// entries and the unordered edges i<j, in that order of parameters.
type pattern struct {
	n     int
	edges [][2]int
}

// newtonPattern returns the pattern of the allowed pairs nb (each edge once).
func newtonPattern(nb [][]int) pattern {
	p := pattern{n: len(nb)}
	for i, l := range nb {
		for _, j := range l {
			if j > i {
				p.edges = append(p.edges, [2]int{i, j})
			}
		}
	}
	return p
}

// newtonResult is the outcome of newton: the precision Θ and covariance
// W = Θ⁻¹ (n×n row-major), the number of Newton steps, the final KKT
// residual max_{ij ∈ pattern} |Wᵢⱼ − Tᵢⱼ| and whether it reached the
// tolerance.
type newtonResult struct {
	theta, w  []float64
	iters     int
	residual  float64
	converged bool
}

// newton maximises the smooth concave function
//
//	f(Θ) = log det Θ − tr(TΘ)
//
// over positive definite Θ with Θᵢⱼ = 0 for pairs outside pat — Dempster's
// (1972) covariance selection when T = S; with T = S + ρ·sign(Θ) on a fixed
// active set it is the graphical lasso restricted to that set. Its
// optimality conditions are Wᵢⱼ = Tᵢⱼ on the pattern and the diagonal,
// W = Θ⁻¹. Only the entries of T on the pattern and the diagonal are read.
//
// The parameters are θ = (Θᵢᵢ, Θᵢⱼ for edges i<j), m = n + |E| of them.
// With W = Θ⁻¹, the gradient is ∂f/∂Θᵢᵢ = Wᵢᵢ − Tᵢᵢ, ∂f/∂Θᵢⱼ = 2(Wᵢⱼ − Tᵢⱼ),
// and the negative Hessian −∂²f is tr(W Eₐ W E_b) for the basis matrices
// Eᵢᵢ = eᵢeᵢᵀ, Eᵢⱼ = eᵢeⱼᵀ + eⱼeᵢᵀ:
//
//	(ii, kk): Wᵢₖ²,  (ii, kl): 2WᵢₖWᵢₗ,  (ij, kl): 2(WᵢₖWⱼₗ + WᵢₗWⱼₖ),
//
// positive definite whenever W is. Each step solves H d = ∇f by Cholesky
// (after Jacobi scaling; O(m³), m ≈ n(k+1) for a k-NN graph) and takes
// the largest step 1, ½, ¼, … that keeps Θ positive definite and
// increases f by at least a quarter of the Newton decrement's prediction
// (Boyd & Vandenberghe, Convex Optimization §9.5; f is self-concordant,
// so damped Newton converges from any feasible start, quadratically near
// the optimum). Once the decrement is small (λ < ¼) the full step is taken
// on positive definiteness alone, where rounding would hide the increase.
//
// It starts from theta0 (n×n, on the pattern, positive definite) or, if
// nil, from Θ = diag(1/Tᵢᵢ). It stops when the residual
// max_{ij ∈ pattern ∪ diag} |Wᵢⱼ − Tᵢⱼ| is at most tol, or after maxIter
// steps, or when a step makes no progress (rounding); ok is false when it
// could not start or factorise (no usable iterate).
func (s *solver) newton(t []float64, pat pattern, theta0 []float64, tol float64, maxIter int) (r newtonResult, ok bool) {
	n := pat.n
	m := n + len(pat.edges)
	theta := make([]float64, n*n)
	if theta0 != nil {
		copy(theta, theta0)
	} else {
		for i := 0; i < n; i++ {
			if !(t[i*n+i] > 0) {
				return r, false
			}
			theta[i*n+i] = 1 / t[i*n+i]
		}
	}
	w := make([]float64, n*n)
	f, okf := s.newtonEval(theta, t, pat, w)
	if !okf {
		return r, false
	}
	H := make([]float64, m*m)
	g := make([]float64, m)
	d := make([]float64, m)
	sc := make([]float64, m)
	cand := make([]float64, n*n)
	wc := make([]float64, n*n)
	for it := 0; ; it++ {
		res := patternResidual(w, t, pat)
		r.theta, r.w, r.iters, r.residual = theta, w, it, res
		if res <= tol {
			r.converged = true
			return r, true
		}
		if it >= maxIter {
			return r, true
		}
		// Gradient and negative Hessian.
		for i := 0; i < n; i++ {
			g[i] = w[i*n+i] - t[i*n+i]
		}
		for e, ij := range pat.edges {
			g[n+e] = 2 * (w[ij[0]*n+ij[1]] - t[ij[0]*n+ij[1]])
		}
		newtonHessian(H, w, pat)
		for a := 0; a < m; a++ {
			sc[a] = 1 / math.Sqrt(H[a*m+a])
		}
		for a := 0; a < m; a++ {
			for b := a; b < m; b++ {
				H[a*m+b] *= sc[a] * sc[b]
			}
			d[a] = g[a] * sc[a]
		}
		hm := blas64.Symmetric{N: m, Stride: m, Data: H, Uplo: blas.Upper}
		if _, okc := lapack64.Potrf(hm); !okc {
			return r, true
		}
		lapack64.Potrs(blas64.Triangular{N: m, Stride: m, Data: H, Uplo: blas.Upper, Diag: blas.NonUnit},
			blas64.General{Rows: m, Cols: 1, Stride: 1, Data: d})
		var dec float64 // Newton decrement squared, ∇fᵀ H⁻¹ ∇f
		for a := 0; a < m; a++ {
			d[a] *= sc[a]
			dec += d[a] * g[a]
		}
		if !(dec > 0) {
			return r, true
		}
		step := 1.0
		accepted := false
		for ls := 0; ls < 60; ls++ {
			copy(cand, theta)
			for i := 0; i < n; i++ {
				cand[i*n+i] += step * d[i]
			}
			for e, ij := range pat.edges {
				v := step * d[n+e]
				cand[ij[0]*n+ij[1]] += v
				cand[ij[1]*n+ij[0]] += v
			}
			fc, okc := s.newtonEval(cand, t, pat, wc)
			if okc && (dec < 1.0/16 || fc >= f+0.25*step*dec) {
				theta, cand = cand, theta
				w, wc = wc, w
				f = fc
				accepted = true
				break
			}
			step /= 2
		}
		if !accepted {
			return r, true
		}
	}
}

// newtonEval returns f(Θ) = log det Θ − tr(TΘ) and whether Θ (n×n) is
// positive definite, and stores W = Θ⁻¹ in w.
func (s *solver) newtonEval(theta, t []float64, pat pattern, w []float64) (float64, bool) {
	n := pat.n
	copy(w, theta)
	ld, ok := denseLogDet(w, n)
	if !ok {
		return 0, false
	}
	var tr float64
	for i := 0; i < n; i++ {
		tr += t[i*n+i] * theta[i*n+i]
	}
	for _, ij := range pat.edges {
		tr += 2 * t[ij[0]*n+ij[1]] * theta[ij[0]*n+ij[1]]
	}
	f := ld - tr
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	// w holds the upper Cholesky factor U (Θ = UᵀU); Potri gives Θ⁻¹.
	if _, ok := lapack64.Potri(blas64.Triangular{N: n, Stride: n, Data: w, Uplo: blas.Upper, Diag: blas.NonUnit}); !ok {
		return 0, false
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			w[j*n+i] = w[i*n+j]
		}
	}
	return f, true
}

// patternResidual returns max |Wᵢⱼ − Tᵢⱼ| over the diagonal and the edges.
func patternResidual(w, t []float64, pat pattern) float64 {
	n := pat.n
	var r float64
	for i := 0; i < n; i++ {
		r = max(r, math.Abs(w[i*n+i]-t[i*n+i]))
	}
	for _, ij := range pat.edges {
		k := ij[0]*n + ij[1]
		r = max(r, math.Abs(w[k]-t[k]))
	}
	if math.IsNaN(r) {
		return math.Inf(1)
	}
	return r
}

// newtonHessian fills the upper triangle of the m×m negative Hessian H
// (see newton) at W.
func newtonHessian(H, w []float64, pat pattern) {
	n := pat.n
	m := n + len(pat.edges)
	for a := 0; a < m; a++ {
		var i, j int
		if a < n {
			i, j = a, a
		} else {
			i, j = pat.edges[a-n][0], pat.edges[a-n][1]
		}
		wi, wj := w[i*n:i*n+n], w[j*n:j*n+n]
		row := H[a*m:]
		for b := a; b < m; b++ {
			var k, l int
			if b < n {
				k, l = b, b
			} else {
				k, l = pat.edges[b-n][0], pat.edges[b-n][1]
			}
			switch {
			case a < n && b < n:
				row[b] = wi[k] * wi[k]
			case a < n:
				row[b] = 2 * wi[k] * wi[l]
			default:
				row[b] = 2 * (wi[k]*wj[l] + wi[l]*wj[k])
			}
		}
	}
}
