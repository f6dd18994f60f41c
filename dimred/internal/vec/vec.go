package vec

import "math"

// Dot returns Σ_i x_i y_i. len(y) must be at least len(x).
func Dot(x, y []float64) float64 {
	n := len(x)
	if n == 0 {
		return 0
	}
	y = y[:n]
	m := 0
	s := 0.0
	if useAsm && n >= 16 {
		m = n &^ 15
		s = dotAsm(&x[0], &y[0], m)
	}
	for i := m; i < n; i++ {
		s += x[i] * y[i]
	}
	return s
}

// DotAxpy returns Σ_i a_i x_i and sets acc_i += alpha a_i, in one pass
// over a: the two halves of a symmetric product from one stored row of a
// triangle. len(x) and len(acc) must be at least len(a).
func DotAxpy(acc []float64, alpha float64, a, x []float64) float64 {
	n := len(a)
	if n == 0 {
		return 0
	}
	x = x[:n]
	acc = acc[:n]
	m := 0
	s := 0.0
	if useAsm && n >= 16 {
		m = n &^ 15
		s = dotAxpyAsm(&acc[0], alpha, &a[0], &x[0], m)
	}
	for i := m; i < n; i++ {
		s += a[i] * x[i]
		acc[i] += alpha * a[i]
	}
	return s
}

// Axpy sets dst_i += alpha x_i. len(dst) must be at least len(x); dst and
// x must not overlap.
func Axpy(dst []float64, alpha float64, x []float64) {
	n := len(x)
	if n == 0 {
		return
	}
	dst = dst[:n]
	m := 0
	if useAsm && n >= 16 {
		m = n &^ 15
		axpyAsm(&dst[0], alpha, &x[0], m)
	}
	for i := m; i < n; i++ {
		dst[i] += alpha * x[i]
	}
}

// MaxAbs returns max_i |x_i| (0 for an empty x), or NaN if some x_i is NaN.
func MaxAbs(x []float64) float64 {
	n := len(x)
	m := 0
	mx := 0.0
	if useAsm && n >= 8 {
		m = n &^ 7
		var nan int
		if mx, nan = maxAbsAsm(&x[0], m); nan != 0 {
			return math.NaN()
		}
	}
	for _, v := range x[m:] {
		if a := math.Abs(v); a > mx {
			mx = a
		} else if a != a {
			return math.NaN()
		}
	}
	return mx
}

// MaxNonNeg returns max_i x_i (0 for an empty x) and whether every x_i is
// a finite non-negative number — the check of a matrix of squared
// distances in one vector pass. When ok is false, m is meaningless.
func MaxNonNeg(x []float64) (m float64, ok bool) {
	n := len(x)
	k := 0
	if useAsm && n >= 8 {
		k = n &^ 7
		var bad int
		if m, bad = maxNonNegAsm(&x[0], k); bad != 0 {
			return 0, false
		}
	}
	for _, v := range x[k:] {
		if !(v >= 0 && v <= math.MaxFloat64) {
			return 0, false
		}
		m = max(m, v)
	}
	return m, true
}

// DotAxpy2 is DotAxpy for two vectors in one pass over a: it returns
// d_v = Σ_i a_i x_v,i and sets acc_v,i += alpha_v a_i, v = 0, 1 — the
// triangle product for a block of two vectors reads each stored row once.
// The accumulators must not overlap each other or a, x0, x1.
func DotAxpy2(acc0, acc1 []float64, alpha0, alpha1 float64, a, x0, x1 []float64) (d0, d1 float64) {
	n := len(a)
	if n == 0 {
		return 0, 0
	}
	acc0, acc1, x0, x1 = acc0[:n], acc1[:n], x0[:n], x1[:n]
	m := 0
	if useAsm && n >= 8 {
		m = n &^ 7
		d0, d1 = dotAxpy2Asm(&acc0[0], &acc1[0], alpha0, alpha1, &a[0], &x0[0], &x1[0], m)
	}
	for i := m; i < n; i++ {
		d0 += a[i] * x0[i]
		d1 += a[i] * x1[i]
		acc0[i] += alpha0 * a[i]
		acc1[i] += alpha1 * a[i]
	}
	return d0, d1
}

// SumAdd adds a to acc (acc_j += a_j) and returns Σ_j a_j: the row sums and
// column sums of a symmetric matrix from one pass over its stored triangle.
// len(acc) must be at least len(a).
func SumAdd(acc, a []float64) float64 {
	n := len(a)
	if n == 0 {
		return 0
	}
	acc = acc[:n]
	m := 0
	s := 0.0
	if useAsm && n >= 16 {
		m = n &^ 15
		s = sumAddAsm(&acc[0], &a[0], m)
	}
	for j := m; j < n; j++ {
		s += a[j]
		acc[j] += a[j]
	}
	return s
}

// AddSqDiff adds (col_j − c)² to d_j: one coordinate's share of the squared
// distances from a point with coordinate c to the points whose coordinates
// are col. len(d) must be at least len(col).
func AddSqDiff(d, col []float64, c float64) {
	n := len(col)
	if n == 0 {
		return
	}
	d = d[:n]
	m := 0
	if useAsm && n >= 8 {
		m = n &^ 7
		addSqDiffAsm(&d[0], &col[0], c, m)
	}
	for j := m; j < n; j++ {
		t := col[j] - c
		d[j] += t * t
	}
}
