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

// Sum returns Σ_i x_i, added in index order whatever the address of x.
// gonum's floats.Sum (SSE2 assembly) first adds one element on its own
// when x is not 16-byte aligned, so its order of
// summation — and the last bits of the sum — followed where the allocator
// had placed x: a 24-byte slice of three float64 sits in a size class not
// aligned to 16, and its place depends on every earlier allocation. An
// unrelated edit to another file had moved MEU's and the density
// network's scores in figure X8.3.
func Sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
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

// Transpose sets dst[j·r+i] = x[i·ld+j] for i < r and j0 ≤ j < j1: columns
// j0 … j1−1 of the r-row matrix x (leading dimension ld) as rows of its
// transpose dst (row-major, leading dimension r). On AVX-512, eight
// columns at a time are gathered in blocks of 256 rows (32 KB of x in L1);
// otherwise it copies blocks of 32×32.
func Transpose(dst, x []float64, ld, r, j0, j1 int) {
	if r == 0 || j0 >= j1 {
		return
	}
	_, _ = x[(r-1)*ld+j1-1], dst[(j1-1)*r+r-1]
	j := j0
	if useAvx512 && r >= 8 {
		var idx [8]int64
		for l := range idx {
			idx[l] = int64(l * ld)
		}
		r8 := r &^ 7
		for ; j+8 <= j1; j += 8 {
			for i0 := 0; i0 < r8; i0 += 256 {
				transpose8Avx512(&dst[j*r+i0], r, &x[i0*ld+j], ld, &idx[0], min(256, r8-i0))
			}
			for q := j; q < j+8; q++ {
				for i := r8; i < r; i++ {
					dst[q*r+i] = x[i*ld+q]
				}
			}
		}
	}
	// Otherwise (and the last columns) in blocks of 32×32, four rows of x
	// at a time giving four adjacent entries of a row of dst.
	const blk = 32
	for jb := j; jb < j1; jb += blk {
		je := min(j1, jb+blk)
		for i0 := 0; i0 < r; i0 += blk {
			i1 := min(r, i0+blk)
			i := i0
			for ; i+4 <= i1; i += 4 {
				r0 := x[i*ld+jb : i*ld+je]
				r1 := x[(i+1)*ld+jb : (i+1)*ld+je]
				r2 := x[(i+2)*ld+jb : (i+2)*ld+je]
				r3 := x[(i+3)*ld+jb : (i+3)*ld+je]
				r1, r2, r3 = r1[:len(r0)], r2[:len(r0)], r3[:len(r0)]
				for q, v := range r0 {
					o := dst[(jb+q)*r+i : (jb+q)*r+i+4]
					o[0], o[1], o[2], o[3] = v, r1[q], r2[q], r3[q]
				}
			}
			for ; i < i1; i++ {
				for q, v := range x[i*ld+jb : i*ld+je] {
					dst[(jb+q)*r+i] = v
				}
			}
		}
	}
}
