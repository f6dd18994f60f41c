//go:build !noasm && !dimred_noasm

package vec

import "golang.org/x/sys/cpu"

// useAsm reports whether the AVX2/FMA kernels run (the operating system
// must also save the wide registers, which cpu.X86.HasAVX2 includes).
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotAsm returns Σ x_i y_i over the first n entries; n is a positive
// multiple of 16.
//
//go:noescape
func dotAsm(x, y *float64, n int) float64

// dotAxpyAsm returns Σ a_i x_i and adds alpha a_i to acc_i over the first
// n entries; n is a positive multiple of 16.
//
//go:noescape
func dotAxpyAsm(acc *float64, alpha float64, a, x *float64, n int) float64

// scaledExpAsm sets dst_j = v exp(a x_j) over the first n entries (n a
// positive multiple of 4) and returns a non-zero mask if some a x_j was
// outside [−708, 709] or NaN (those entries must be recomputed).
//
//go:noescape
func scaledExpAsm(dst, x *float64, a, v float64, n int) int

// sumAddAsm adds a to acc over the first n entries (n a positive multiple
// of 16) and returns their sum.
//
//go:noescape
func sumAddAsm(acc, a *float64, n int) float64

// addSqDiffAsm adds (col_j − c)² to d_j over the first n entries (n a
// positive multiple of 8).
//
//go:noescape
func addSqDiffAsm(d, col *float64, c float64, n int)

// axpyAsm adds alpha x to dst over the first n entries (n a positive
// multiple of 16).
//
//go:noescape
func axpyAsm(dst *float64, alpha float64, x *float64, n int)

// maxAbsAsm returns max |x_i| over the first n entries (n a positive
// multiple of 8) and a non-zero nan if one of them is NaN.
//
//go:noescape
func maxAbsAsm(x *float64, n int) (m float64, nan int)

// useAvx512 reports whether GemmNT's eight-lane kernels run (AVX-512
// Foundation and Vector Length, with the operating system saving the wide
// registers).
var useAvx512 = useAsm && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL

// dot3x4Avx512 sets c[4r+s] = Σ_{l<k} a[r·lda+l] b[s·ldb+l] for r < 3,
// s < 4 on eight-lane registers (k a positive multiple of 8; lda, ldb in
// elements).
//
//go:noescape
func dot3x4Avx512(a *float64, lda int, b *float64, ldb int, k int, c *float64)

// gemm6x4Packed computes, for the packed strip a of six rows of A and nb
// packed strips b of four rows of B (k8 columns, a positive multiple of 8),
// the 6×4 blocks of sums in dot8's order, and adds alpha times them to C
// at c, rows ldc elements apart; mode 1 stores the sums instead, mode 2
// sets C to 0 + alpha times them (C zero, not read).
//
//go:noescape
func gemm6x4Packed(a, b *float64, k8, nb int, c *float64, ldc int, alpha float64, mode int)

// packStripAvx512 copies a strip of rs rows of x (leading dimension ld,
// k8 columns, a positive multiple of 8) to dst interleaved eight columns
// at a time: [k8/8][rs][8].
//
//go:noescape
func packStripAvx512(dst, x *float64, ld, rs, k8 int)

// packStripTAvx512 packs a strip of rs rows (4 ≤ rs ≤ 8) of the
// transpose of x (k8 rows, a positive multiple of 8, of leading dimension
// ld) as packStripAvx512 packs rows of x: dst[8(rs·t+r)+l] =
// x[(8t+l)·ld+r] for r < rows (1 ≤ rows ≤ rs), zero for rows ≤ r < rs;
// only the first rows columns of x are read.
//
//go:noescape
func packStripTAvx512(dst, x *float64, ld, rows, rs, k8 int)

// transpose8Avx512 sets dst[q·r+i] = x[i·ld+q] for q < 8 and i < rows
// (a positive multiple of 8); idx holds 0, ld, …, 7·ld.
//
//go:noescape
func transpose8Avx512(dst *float64, r int, x *float64, ld int, idx *int64, rows int)

// gemm3x2Avx2 is gemm6x4Packed on AVX2: a packed strip of three rows of A
// against nb packed strips of two rows of B, in the same order of
// summation and with the same modes.
//
//go:noescape
func gemm3x2Avx2(a, b *float64, k8, nb int, c *float64, ldc int, alpha float64, mode int)

// packStripAvx2 is packStripAvx512 on four-wide registers.
//
//go:noescape
func packStripAvx2(dst, x *float64, ld, rs, k8 int)

// dot2x2x8Asm sets c[2r+s] = Σ_{l<k} a[r·lda+l] b[s·ldb+l] for r, s < 2 (k
// a positive multiple of 8) in dot3x4Avx512's order of summation.
//
//go:noescape
func dot2x2x8Asm(a *float64, lda int, b *float64, ldb int, k int, c *float64)

// dot8Asm returns Σ_{l<k} x_l y_l (k a positive multiple of 8) in dot8's
// order of summation.
//
//go:noescape
func dot8Asm(x, y *float64, k int) float64

// maxNonNegAsm returns max x_i over the first n entries (n a positive
// multiple of 8) and a non-zero bad if one is outside [0, MaxFloat64].
//
//go:noescape
func maxNonNegAsm(x *float64, n int) (m float64, bad int)

// dotAxpy2Asm is DotAxpy for two vectors in one pass over a (n a positive
// multiple of 8).
//
//go:noescape
func dotAxpy2Asm(acc0, acc1 *float64, alpha0, alpha1 float64, a, x0, x1 *float64, n int) (d0, d1 float64)

// distStrips14x16Avx512 is DistStrips' kernel on AVX-512 (see
// dist_amd64.s).
//
//go:noescape
func distStrips14x16Avx512(a, b *float64, p, nb int, sqa, thra, sqb, thrb, d *float64, mask *uint16)

// distStrips14x16Avx2 is DistStrips' kernel on AVX2 (see dist_amd64.s).
//
//go:noescape
func distStrips14x16Avx2(a, b *float64, p, nb int, sqa, thra, sqb, thrb, d *float64, mask *uint16)
