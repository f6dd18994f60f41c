package glasso

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// cholesky overwrites the lower triangle of the p×p row-major matrix a with
// its Cholesky factor L (A = LLᵀ) and reports whether A is positive
// definite. It is the unblocked algorithm, for the small (k-sized) blocks of
// the lasso sub-problems, where gonum's mat.Cholesky spends most of its time
// estimating the condition number.
func cholesky(a []float64, p int) bool {
	for j := 0; j < p; j++ {
		rj := a[j*p : j*p+j]
		d := a[j*p+j]
		for _, v := range rj {
			d -= v * v
		}
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		a[j*p+j] = d
		for i := j + 1; i < p; i++ {
			ri := a[i*p : i*p+j]
			v := a[i*p+j]
			for k, x := range ri {
				v -= x * rj[k]
			}
			a[i*p+j] = v / d
		}
	}
	return true
}

// cholSolve solves LLᵀx = b in place, L from cholesky.
func cholSolve(l []float64, p int, b []float64) {
	for i := 0; i < p; i++ {
		v := b[i]
		for k, x := range l[i*p : i*p+i] {
			v -= x * b[k]
		}
		b[i] = v / l[i*p+i]
	}
	for i := p - 1; i >= 0; i-- {
		v := b[i]
		for k := i + 1; k < p; k++ {
			v -= l[k*p+i] * b[k]
		}
		b[i] = v / l[i*p+i]
	}
}

// denseLogDet overwrites the n×n row-major symmetric a with its Cholesky
// factor (blocked LAPACK, no condition estimate) and returns log det A and
// whether A is positive definite.
func denseLogDet(a []float64, n int) (float64, bool) {
	m := blas64.Symmetric{N: n, Stride: n, Data: a, Uplo: blas.Upper}
	if _, ok := lapack64.Potrf(m); !ok {
		return 0, false
	}
	var ld float64
	for i := 0; i < n; i++ {
		ld += math.Log(a[i*n+i])
	}
	return 2 * ld, true
}
