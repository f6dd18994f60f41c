package vec

// GemmNT sets C = alpha·A·Bᵀ + beta·C for row-major A (m×k, leading
// dimension lda), B (n×k, ldb) and C (m×n, ldc): every entry an inner
// product of a row of A with a row of B, the form of Gram matrices Y Yᵀ
// and of the cross terms of squared distances. As in BLAS, beta = 0 sets C
// without reading it. It runs on one core; callers split C by rows.
//
// With AVX2/FMA the 3×4 blocks of C in the interior are computed by a
// register-blocked kernel (twelve accumulators over k-panels of
// gemmKC, B in panels of gemmNC rows that stay in cache), near a core's
// peak and about five times gonum's pure-Go Dgemm on this shape; with
// AVX-512 the same kernel runs on eight-lane registers. The edges and
// other processors use Dot.
func GemmNT(m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		switch beta {
		case 0:
			clear(row)
		case 1:
		default:
			for j := range row {
				row[j] *= beta
			}
		}
	}
	if k == 0 || alpha == 0 {
		return
	}
	var blk [12]float64
	for kb := 0; kb < k; kb += gemmKC {
		kl := min(gemmKC, k-kb)
		k4 := kl &^ 3
		if useAvx512 {
			k4 = kl &^ 7
		}
		for jb := 0; jb < n; jb += gemmNC {
			jh := min(n, jb+gemmNC)
			i := 0
			if useAsm && k4 > 0 {
				for ; i+3 <= m; i += 3 {
					j := jb
					for ; j+4 <= jh; j += 4 {
						if useAvx512 {
							dot3x4Avx512(&a[i*lda+kb], lda, &b[j*ldb+kb], ldb, k4, &blk[0])
						} else {
							dot3x4Asm(&a[i*lda+kb], lda, &b[j*ldb+kb], ldb, k4, &blk[0])
						}
						for l := kb + k4; l < kb+kl; l++ {
							for r := 0; r < 3; r++ {
								ar := a[(i+r)*lda+l]
								for s := 0; s < 4; s++ {
									blk[4*r+s] += ar * b[(j+s)*ldb+l]
								}
							}
						}
						for r := 0; r < 3; r++ {
							crow := c[(i+r)*ldc+j : (i+r)*ldc+j+4]
							for s := range crow {
								crow[s] += alpha * blk[4*r+s]
							}
						}
					}
					for ; j < jh; j++ {
						for r := 0; r < 3; r++ {
							c[(i+r)*ldc+j] += alpha * Dot(a[(i+r)*lda+kb:(i+r)*lda+kb+kl], b[j*ldb+kb:])
						}
					}
				}
			}
			for ; i < m; i++ {
				ar := a[i*lda+kb : i*lda+kb+kl]
				for j := jb; j < jh; j++ {
					c[i*ldc+j] += alpha * Dot(ar, b[j*ldb+kb:])
				}
			}
		}
	}
}

// Blocking of GemmNT: a k-panel of gemmKC columns of 3 rows of A (6 KB)
// stays in L1 while gemmNC rows of B (128 KB) stay in L2.
const (
	gemmKC = 256
	gemmNC = 64
)

// HasGemmKernel reports whether GemmNT runs on a vector kernel (AVX2/FMA
// or AVX-512) on this processor and build.
func HasGemmKernel() bool { return useAsm }
