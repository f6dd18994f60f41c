package vec

import "math"

// GemmNT sets C = alpha·A·Bᵀ + beta·C for row-major A (m×k, leading
// dimension lda), B (n×k, ldb) and C (m×n, ldc): every entry an inner
// product of a row of A with a row of B, the form of Gram matrices Y Yᵀ
// and of the cross terms of squared distances. As in BLAS, beta = 0 sets C
// without reading it. It runs on one core; callers split C by rows.
//
// Interior blocks of C are computed by register-blocked kernels over
// k-panels of gemmKC, B in panels of gemmNC rows that stay in cache: 3×4
// entries on eight-lane AVX-512 registers (71 GFlop/s on one core of the
// development machine; gonum's pure-Go Dgemm reached 19 on two), 2×2
// entries on AVX2. Every entry — in a
// block, on an edge, with or without either instruction set — is summed in
// one order (dot8's), so products are bit-identical on every amd64
// processor, whatever it supports.
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
	rb, cb := 0, 0 // register block, 0 for none
	switch {
	case useAvx512 && n >= 4:
		rb, cb = 3, 4
	case useAsm:
		rb, cb = 2, 2 // also AVX-512's choice for skinny C: same sums
	}
	var blk [12]float64
	for kb := 0; kb < k; kb += gemmKC {
		kl := min(gemmKC, k-kb)
		k8 := kl &^ 7
		// tail adds the panel's last kl − k8 products to s, in order.
		tail := func(s float64, ar, br []float64) float64 {
			for l := k8; l < kl; l++ {
				s += ar[l] * br[l]
			}
			return s
		}
		for jb := 0; jb < n; jb += gemmNC {
			jh := min(n, jb+gemmNC)
			i := 0
			if rb > 0 && k8 > 0 {
				for ; i+rb <= m; i += rb {
					j := jb
					for ; j+cb <= jh; j += cb {
						if rb == 3 {
							dot3x4Avx512(&a[i*lda+kb], lda, &b[j*ldb+kb], ldb, k8, &blk[0])
						} else {
							dot2x2x8Asm(&a[i*lda+kb], lda, &b[j*ldb+kb], ldb, k8, &blk[0])
						}
						for r := 0; r < rb; r++ {
							crow := c[(i+r)*ldc+j : (i+r)*ldc+j+cb]
							if k8 == kl {
								for s := range crow {
									crow[s] += alpha * blk[cb*r+s]
								}
								continue
							}
							ar := a[(i+r)*lda+kb:]
							for s := range crow {
								crow[s] += alpha * tail(blk[cb*r+s], ar, b[(j+s)*ldb+kb:])
							}
						}
					}
					for ; j < jh; j++ {
						for r := 0; r < rb; r++ {
							ar, br := a[(i+r)*lda+kb:], b[j*ldb+kb:]
							c[(i+r)*ldc+j] += alpha * tail(dot8(ar[:k8], br), ar, br)
						}
					}
				}
			}
			for ; i < m; i++ {
				ar := a[i*lda+kb:]
				for j := jb; j < jh; j++ {
					br := b[j*ldb+kb:]
					c[i*ldc+j] += alpha * tail(dot8(ar[:k8], br), ar, br)
				}
			}
		}
	}
}

// dot8 returns Σ x_l y_l over len(x) (a multiple of 8) in the kernels'
// order: eight lanes, lane l accumulating x_l y_l, x_{l+8} y_{l+8}, … by
// fused multiply–adds, folded to four by y_l = s_l + s_{l+4}, then
// (y_0 + y_1) + (y_2 + y_3).
func dot8(x, y []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	if useAsm {
		return dot8Asm(&x[0], &y[0], len(x))
	}
	var s [8]float64
	y = y[:len(x)]
	for i := 0; i < len(x); i += 8 {
		for l := range s {
			s[l] = math.FMA(x[i+l], y[i+l], s[l])
		}
	}
	return ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]))
}

// Blocking of GemmNT: a k-panel of gemmKC columns of the block's rows of A
// (12 KB for three) stays in L1 while gemmNC rows of B (256 KB) stay in L2.
// Measured for 240×2000 by 784 (BenchmarkGemmNT): 65, 71.5 and 73 GFlop/s
// on one core for panels of 256, 512 and 1024; the panel width matters
// more than gemmNC (32 to 128 within 3 %).
const (
	gemmKC = 512
	gemmNC = 64
)

// HasGemmKernel reports whether GemmNT runs on a vector kernel (AVX2/FMA
// or AVX-512) on this processor and build.
func HasGemmKernel() bool { return useAsm }

// KernelName names the instruction set of the kernels in use: "AVX-512"
// (GemmNT's products; the rest AVX2), "AVX2+FMA" or "none" (plain Go).
func KernelName() string {
	switch {
	case useAvx512:
		return "AVX-512"
	case useAsm:
		return "AVX2+FMA"
	}
	return "none"
}
