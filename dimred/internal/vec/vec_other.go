//go:build !amd64 || noasm || dimred_noasm

package vec

var useAsm = false

func dotAsm(x, y *float64, n int) float64 { panic("unreachable") }

func dotAxpyAsm(acc *float64, alpha float64, a, x *float64, n int) float64 {
	panic("unreachable")
}

func scaledExpAsm(dst, x *float64, a, v float64, n int) int { panic("unreachable") }

func sumAddAsm(acc, a *float64, n int) float64 { panic("unreachable") }

func addSqDiffAsm(d, col *float64, c float64, n int) { panic("unreachable") }

func axpyAsm(dst *float64, alpha float64, x *float64, n int) { panic("unreachable") }

func maxAbsAsm(x *float64, n int) (float64, int) { panic("unreachable") }

var useAvx512 = false

func dot3x4Avx512(a *float64, lda int, b *float64, ldb int, k int, c *float64) { panic("unreachable") }

func gemm6x4Packed(a, b *float64, k8, nb int, c *float64, ldc int, alpha float64, mode int) {
	panic("unreachable")
}

func packStripAvx512(dst, x *float64, ld, rs, k8 int) { panic("unreachable") }

func packStripTAvx512(dst, x *float64, ld, rows, rs, k8 int) { panic("unreachable") }

func transpose8Avx512(dst *float64, r int, x *float64, ld int, idx *int64, rows int) {
	panic("unreachable")
}

func gemm3x2Avx2(a, b *float64, k8, nb int, c *float64, ldc int, alpha float64, mode int) {
	panic("unreachable")
}

func packStripAvx2(dst, x *float64, ld, rs, k8 int) { panic("unreachable") }

func dot2x2x8Asm(a *float64, lda int, b *float64, ldb int, k int, c *float64) { panic("unreachable") }

func dot8Asm(x, y *float64, k int) float64 { panic("unreachable") }

func maxNonNegAsm(x *float64, n int) (float64, int) { panic("unreachable") }

func dotAxpy2Asm(acc0, acc1 *float64, alpha0, alpha1 float64, a, x0, x1 *float64, n int) (float64, float64) {
	panic("unreachable")
}

func distStrips14x16Avx512(a, b *float64, p, nb int, sqa, thra, sqb, thrb, d *float64, mask *uint16) {
	panic("unreachable")
}

func distStrips14x16Avx2(a, b *float64, p, nb int, sqa, thra, sqb, thrb, d *float64, mask *uint16) {
	panic("unreachable")
}
