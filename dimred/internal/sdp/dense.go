package sdp

import (
	"math"
	"math/rand/v2"
	"sync"

	"github.com/dimredbook/book/dimred/internal/vec"

	"gonum.org/v1/gonum/floats"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// Dense kernels of the interior-point iteration on dimred's register-blocked
// A·Bᵀ product (internal/vec.GemmNT): every product the method forms is of
// symmetric matrices, so A·B = A·Bᵀ needs no transposed copies, and the
// Schur complement's Cholesky factorisation is blocked so that nearly all
// its m³/3 flops are such products. On the benchmark machine the kernel runs
// at several times the speed of gonum's pure-Go Dgemm and Dpotrf, which
// dominated the iteration before (n = 200, m ≈ 1000: four n×n triple
// products and one m×m Cholesky factorisation per iteration).

// parallelRows calls f(lo, hi) on up to w disjoint ranges covering 0..n.
func parallelRows(n, w int, f func(lo, hi int)) {
	if w > n {
		w = n
	}
	if w <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		lo, hi := k*n/w, (k+1)*n/w
		if lo == hi {
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); f(lo, hi) }()
	}
	wg.Wait()
}

// mulSym3 sets dst = A·Bᵀ·Cᵀ for row-major n×n matrices, which is A B C
// when B and C are symmetric (A need not be): tmp = A·Bᵀ, dst = tmp·Cᵀ,
// each entry of a result an inner product of rows. tmp is n×n scratch; w goroutines share
// the rows.
func mulSym3(dst, a, b, c, tmp []float64, n, w int) {
	if n*n*n < 1<<15 {
		w = 1
	}
	parallelRows(n, w, func(lo, hi int) {
		vec.GemmNT(hi-lo, n, n, 1, a[lo*n:], n, b, n, 0, tmp[lo*n:], n)
	})
	parallelRows(n, w, func(lo, hi int) {
		vec.GemmNT(hi-lo, n, n, 1, tmp[lo*n:], n, c, n, 0, dst[lo*n:], n)
	})
}

// cholBlock is the block size of cholLower, cholSub that of its panel
// solves.
const (
	cholBlock = 128
	cholSub   = 16
)

// cholLower overwrites the lower triangle of the row-major n×n a with its
// Cholesky factor L (a = L Lᵀ), blocked and left-looking (as LAPACK's
// dpotrf): for each block column, the update from all earlier columns as
// one A·Bᵀ product with the long inner dimension (rows split over w
// goroutines), the diagonal block factored in place, and the panel below
// it solved against it (L₂₁ = A₂₁ L₁₁⁻ᵀ, a forward substitution per row in
// sub-blocks of cholSub columns, the earlier sub-blocks' part as one
// product). On the benchmark machine it ran 12% faster than the
// right-looking form, whose trailing updates have the short inner
// dimension cholBlock. The strict upper triangle of a is overwritten with
// scratch. It returns false if a pivot is not positive (a not numerically
// positive definite).
func cholLower(n int, a []float64, w int) bool {
	for k0 := 0; k0 < n; k0 += cholBlock {
		k1 := min(k0+cholBlock, n)
		// The block column's update from all earlier columns at once,
		// A[k0:, k0:k1] −= L[k0:, :k0] L[k0:k1, :k0]ᵀ: one product with the
		// long inner dimension k0.
		if k0 > 0 {
			rows := n - k0
			ww := w
			if rows*(k1-k0)*k0 < 1<<16 {
				ww = 1
			}
			parallelRows(rows, ww, func(lo, hi int) {
				vec.GemmNT(hi-lo, k1-k0, k0, -1, a[(k0+lo)*n:], n, a[k0*n:], n, 1, a[(k0+lo)*n+k0:], n)
			})
		}
		// Diagonal block.
		for j := k0; j < k1; j++ {
			rj := a[j*n+k0 : j*n+j]
			d := a[j*n+j] - vec.Dot(rj, rj)
			if !(d > 0) || math.IsInf(d, 0) {
				return false
			}
			d = math.Sqrt(d)
			a[j*n+j] = d
			for i := j + 1; i < k1; i++ {
				a[i*n+j] = (a[i*n+j] - vec.Dot(a[i*n+k0:i*n+j], rj)) / d
			}
		}
		if k1 == n {
			break
		}
		panel := func(lo, hi int) {
			for j0 := k0; j0 < k1; j0 += cholSub {
				j1 := min(j0+cholSub, k1)
				if j0 > k0 {
					vec.GemmNT(hi-lo, j1-j0, j0-k0, -1, a[lo*n+k0:], n, a[j0*n+k0:], n, 1, a[lo*n+j0:], n)
				}
				for i := lo; i < hi; i++ {
					ri := a[i*n : (i+1)*n]
					for j := j0; j < j1; j++ {
						ri[j] = (ri[j] - vec.Dot(ri[j0:j], a[j*n+j0:j*n+j])) / a[j*n+j]
					}
				}
			}
		}
		rows := n - k1
		ww := w
		if rows*(k1-k0)*(k1-k0) < 1<<16 {
			ww = 1
		}
		parallelRows(rows, ww, func(lo, hi int) { panel(k1+lo, k1+hi) })
	}
	return true
}

// cholSolve solves L Lᵀ x = b in place (b becomes x) for the lower factor
// of cholLower.
func cholSolve(n int, l, b []float64) {
	for i := 0; i < n; i++ {
		b[i] = (b[i] - vec.Dot(l[i*n:i*n+i], b[:i])) / l[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		b[i] /= l[i*n+i]
		if i > 0 {
			vec.Axpy(b[:i], -b[i], l[i*n:i*n+i])
		}
	}
}

// minEig returns the smallest eigenvalue of the symmetric row-major n×n w,
// or a value at most a relative 1e-9 of the spectral radius below it.
// Small matrices (n ≤ 64) get all eigenvalues (LAPACK's dsyev); larger
// ones the Lanczos method with full reorthogonalisation from a fixed
// pseudo-random start, stopped when the smallest Ritz value θ has residual
// ‖W s − θ s‖ = β_k|s_k| ≤ 1e-9·max|Ritz value|, returning θ minus that
// residual (an eigenvalue lies within it; the smallest is found first
// from a random start). An extreme eigenvalue converges in a few tens of
// steps, each one product with W: O(k n²) against dsyev's O(n³) (the
// largest single cost of the iteration before). After min(n, 160) steps
// without convergence it falls back to dsyev. It returns false if the
// eigenvalue routine fails.
func minEig(n int, w []float64) (float64, bool) {
	full := func() (float64, bool) {
		var es mat.EigenSym
		if !es.Factorize(mat.NewSymDense(n, append([]float64(nil), w...)), false) {
			return 0, false
		}
		return floats.Min(es.Values(nil)), true
	}
	if n <= 64 {
		return full()
	}
	kmax := min(n, 160)
	basis := make([]float64, (kmax+1)*n)
	rnd := rand.New(rand.NewPCG(1, 2))
	v0 := basis[:n]
	for i := range v0 {
		v0[i] = rnd.Float64() - 0.5
	}
	floats.Scale(1/floats.Norm(v0, 2), v0)
	var alpha, beta []float64
	u := make([]float64, n)
	for j := 0; j < kmax; j++ {
		vj := basis[j*n : (j+1)*n]
		for i := range u {
			u[i] = vec.Dot(w[i*n:(i+1)*n], vj)
		}
		a := vec.Dot(u, vj)
		alpha = append(alpha, a)
		// Full reorthogonalisation, twice (it subsumes the three-term
		// recurrence).
		for pass := 0; pass < 2; pass++ {
			for i := 0; i <= j; i++ {
				vi := basis[i*n : (i+1)*n]
				vec.Axpy(u, -vec.Dot(u, vi), vi)
			}
		}
		b := floats.Norm(u, 2)
		k := j + 1
		if k%10 == 0 || k == kmax || b == 0 {
			theta, last, radius, ok := ritzMin(alpha, beta)
			if !ok {
				return 0, false
			}
			res := b * math.Abs(last)
			if res <= 1e-9*radius || b <= 1e-14*radius {
				return theta - res, true
			}
			if k == n { // the whole space: T's eigenvalues are W's
				return theta, true
			}
		}
		beta = append(beta, b)
		next := basis[(j+1)*n : (j+2)*n]
		for i := range next {
			next[i] = u[i] / b
		}
	}
	return full()
}

// rowBlocks calls f(i0, i1) on the row blocks [i0, i1) of size bs covering
// 0..n, dealt round-robin to w goroutines (for work that grows with i).
func rowBlocks(n, bs, w int, f func(i0, i1 int)) {
	nb := (n + bs - 1) / bs
	if w > nb {
		w = nb
	}
	run := func(t int) {
		for b := t; b < nb; b += w {
			f(b*bs, min((b+1)*bs, n))
		}
	}
	if w <= 1 {
		run(0)
		return
	}
	var wg sync.WaitGroup
	for t := 0; t < w; t++ {
		wg.Add(1)
		go func() { defer wg.Done(); run(t) }()
	}
	wg.Wait()
}

// congruence sets w = L⁻¹ D L⁻ᵀ for the lower triangular li = L⁻¹ and
// symmetric d (row-major n×n; tmp is scratch), skipping the zeros of L⁻¹:
// row i of L⁻¹ D needs columns k ≤ i of L⁻¹, and the lower triangle of w,
// rows i < i₁ against columns j < i₁, needs k ≤ j < i₁ only. That is
// n³/2 + n³/3 multiply–adds against 2n³ for two full products; the upper
// triangle is copied from the lower.
func congruence(w, li, d, tmp []float64, n, workers int) {
	const bs = 48
	if n*n*n < 1<<15 {
		workers = 1
	}
	rowBlocks(n, bs, workers, func(i0, i1 int) {
		vec.GemmNT(i1-i0, n, i1, 1, li[i0*n:], n, d, n, 0, tmp[i0*n:], n)
	})
	rowBlocks(n, bs, workers, func(i0, i1 int) {
		vec.GemmNT(i1-i0, i1, i1, 1, tmp[i0*n:], n, li, n, 0, w[i0*n:], n)
	})
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			w[j*n+i] = w[i*n+j]
		}
	}
}

// gramUpper sets g = V Vᵀ for the upper triangular row-major n×n v,
// skipping its zeros: entry (i, j), j ≥ i, sums over k ≥ j only, so rows
// i₀..i₁ need columns from i₀ on (n³/3 multiply–adds against n³); the
// lower triangle is copied from the upper.
func gramUpper(g, v []float64, n, workers int) {
	const bs = 48
	if n*n*n < 1<<15 {
		workers = 1
	}
	rowBlocks(n, bs, workers, func(i0, i1 int) {
		vec.GemmNT(i1-i0, n-i0, n-i0, 1, v[i0*n+i0:], n, v[i0*n+i0:], n, 0, g[i0*n+i0:], n)
	})
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			g[i*n+j] = g[j*n+i]
		}
	}
}

// ritzMin returns the smallest eigenvalue θ of the k×k symmetric
// tridiagonal T with diagonal alpha and off-diagonal beta (k = len(alpha),
// len(beta) ≥ k−1), the last component of its unit eigenvector, and
// max |eigenvalue|: the eigenvalues by LAPACK's dsterf (O(k²), no
// vectors), the component by two steps of inverse iteration with T − θI
// (tridiagonal elimination, O(k)). false if dsterf fails.
func ritzMin(alpha, beta []float64) (theta, last, radius float64, ok bool) {
	k := len(alpha)
	d := append([]float64(nil), alpha...)
	e := make([]float64, max(k-1, 1))
	copy(e, beta[:k-1])
	if !(lapackgonum.Implementation{}).Dsterf(k, d, e) {
		return 0, 0, 0, false
	}
	theta = d[0]
	radius = math.Max(math.Abs(d[0]), math.Abs(d[k-1]))
	if k == 1 {
		return theta, 1, radius, true
	}
	// Inverse iteration: solve (T − σI) x = v by elimination without
	// pivoting, σ just below θ; a zero pivot is replaced by a tiny one.
	sigma := theta - 1e-10*math.Max(radius, 1e-300)
	tiny := 1e-14 * math.Max(radius, 1e-300)
	x := make([]float64, k)
	for i := range x {
		x[i] = 1
	}
	c := make([]float64, k) // modified super-diagonal
	p := make([]float64, k) // pivots
	for it := 0; it < 2; it++ {
		// Forward elimination.
		p[0] = alpha[0] - sigma
		if math.Abs(p[0]) < tiny {
			p[0] = tiny
		}
		for i := 1; i < k; i++ {
			c[i-1] = beta[i-1] / p[i-1]
			p[i] = alpha[i] - sigma - c[i-1]*beta[i-1]
			if math.Abs(p[i]) < tiny {
				p[i] = tiny
			}
			x[i] -= c[i-1] * x[i-1]
		}
		x[k-1] /= p[k-1]
		for i := k - 2; i >= 0; i-- {
			x[i] = (x[i] - beta[i]*x[i+1]) / p[i]
		}
		nrm := floats.Norm(x, 2)
		if nrm == 0 || math.IsInf(nrm, 0) || math.IsNaN(nrm) {
			return theta, 1, radius, true // no estimate: forces another check
		}
		floats.Scale(1/nrm, x)
	}
	return theta, x[k-1], radius, true
}
