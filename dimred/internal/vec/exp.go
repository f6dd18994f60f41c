package vec

import "math"

// ScaledExp sets dst_j = v·exp(a·x_j). dst and x may be the same slice;
// len(dst) must be at least len(x).
//
// Where a·x_j lies in [−708, 709] the AVX2 kernel computes exp to within
// about one unit in the last place (Cody–Waite reduction by ln 2 and the
// Taylor series of degree 13 on |r| ≤ ln 2 / 2); elsewhere — overflow,
// results below the normal range, NaN — the entry is math.Exp's.
func ScaledExp(dst, x []float64, a, v float64) {
	n := len(x)
	dst = dst[:n]
	m := 0
	if useAsm && n >= 4 {
		m = n &^ 3
		// Chunks through a copy of the arguments, so that dst may be x and
		// the entries the kernel flags can still be recomputed.
		var buf [512]float64
		for lo := 0; lo < m; lo += len(buf) {
			hi := min(m, lo+len(buf))
			b := buf[:hi-lo]
			copy(b, x[lo:hi])
			if scaledExpAsm(&dst[lo], &b[0], a, v, len(b)) != 0 {
				for j, xj := range b {
					if t := a * xj; !(t >= -708 && t <= 709) {
						dst[lo+j] = v * math.Exp(t)
					}
				}
			}
		}
	}
	for j := m; j < n; j++ {
		dst[j] = v * math.Exp(a*x[j])
	}
}
