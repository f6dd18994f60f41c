//go:build !noasm && !dimred_noasm

#include "textflag.h"

// func dot3x4Avx512(a *float64, lda int, b *float64, ldb int, k int, c *float64)
// c[4r+s] = Σ_{l<k} a[r·lda+l]·b[s·ldb+l] for r < 3, s < 4 (k a positive
// multiple of 8): twelve eight-lane accumulators, one FMA per loaded
// vector pair, reduced at the end.
TEXT ·dot3x4Avx512(SB), NOSPLIT, $0-48
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), AX
	MOVQ b+16(FP), DI
	MOVQ ldb+24(FP), BX
	MOVQ k+32(FP), CX
	MOVQ c+40(FP), DX
	SHLQ $3, AX
	SHLQ $3, BX
	LEAQ (SI)(AX*1), R8
	LEAQ (R8)(AX*1), R9
	LEAQ (DI)(BX*1), R10
	LEAQ (R10)(BX*1), R11
	LEAQ (R11)(BX*1), R12
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11

d34zloop:
	VMOVUPD     (SI), Z12
	VMOVUPD     (R8), Z13
	VMOVUPD     (R9), Z14
	VMOVUPD     (DI), Z15
	VFMADD231PD Z15, Z12, Z0
	VFMADD231PD Z15, Z13, Z4
	VFMADD231PD Z15, Z14, Z8
	VMOVUPD     (R10), Z15
	VFMADD231PD Z15, Z12, Z1
	VFMADD231PD Z15, Z13, Z5
	VFMADD231PD Z15, Z14, Z9
	VMOVUPD     (R11), Z15
	VFMADD231PD Z15, Z12, Z2
	VFMADD231PD Z15, Z13, Z6
	VFMADD231PD Z15, Z14, Z10
	VMOVUPD     (R12), Z15
	VFMADD231PD Z15, Z12, Z3
	VFMADD231PD Z15, Z13, Z7
	VFMADD231PD Z15, Z14, Z11
	ADDQ        $64, SI
	ADDQ        $64, R8
	ADDQ        $64, R9
	ADDQ        $64, DI
	ADDQ        $64, R10
	ADDQ        $64, R11
	ADDQ        $64, R12
	SUBQ        $8, CX
	JNZ         d34zloop

	// Fold each eight-lane accumulator to four lanes, then as for AVX2.
	VEXTRACTF64X4 $1, Z0, Y12
	VADDPD        Y12, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y12
	VADDPD        Y12, Y1, Y1
	VEXTRACTF64X4 $1, Z2, Y12
	VADDPD        Y12, Y2, Y2
	VEXTRACTF64X4 $1, Z3, Y12
	VADDPD        Y12, Y3, Y3
	VEXTRACTF64X4 $1, Z4, Y12
	VADDPD        Y12, Y4, Y4
	VEXTRACTF64X4 $1, Z5, Y12
	VADDPD        Y12, Y5, Y5
	VEXTRACTF64X4 $1, Z6, Y12
	VADDPD        Y12, Y6, Y6
	VEXTRACTF64X4 $1, Z7, Y12
	VADDPD        Y12, Y7, Y7
	VEXTRACTF64X4 $1, Z8, Y12
	VADDPD        Y12, Y8, Y8
	VEXTRACTF64X4 $1, Z9, Y12
	VADDPD        Y12, Y9, Y9
	VEXTRACTF64X4 $1, Z10, Y12
	VADDPD        Y12, Y10, Y10
	VEXTRACTF64X4 $1, Z11, Y12
	VADDPD        Y12, Y11, Y11

	// Row 0: Y0..Y3 → c[0:4].
	VHADDPD    Y1, Y0, Y12
	VHADDPD    Y3, Y2, Y13
	VPERM2F128 $0x20, Y13, Y12, Y14
	VPERM2F128 $0x31, Y13, Y12, Y15
	VADDPD     Y15, Y14, Y14
	VMOVUPD    Y14, (DX)
	// Row 1: Y4..Y7 → c[4:8].
	VHADDPD    Y5, Y4, Y12
	VHADDPD    Y7, Y6, Y13
	VPERM2F128 $0x20, Y13, Y12, Y14
	VPERM2F128 $0x31, Y13, Y12, Y15
	VADDPD     Y15, Y14, Y14
	VMOVUPD    Y14, 32(DX)
	// Row 2: Y8..Y11 → c[8:12].
	VHADDPD    Y9, Y8, Y12
	VHADDPD    Y11, Y10, Y13
	VPERM2F128 $0x20, Y13, Y12, Y14
	VPERM2F128 $0x31, Y13, Y12, Y15
	VADDPD     Y15, Y14, Y14
	VMOVUPD    Y14, 64(DX)
	VZEROUPPER
	RET

// func dot2x2x8Asm(a *float64, lda int, b *float64, ldb int, k int, c *float64)
// c[2r+s] = Σ_{l<k} a[r·lda+l]·b[s·ldb+l] for r, s < 2 (k a positive
// multiple of 8), summed in exactly the order of dot3x4Avx512: for each
// entry two four-wide accumulators stand for the low and high halves of
// the eight-lane one, folded low + high, then (y0 + y1) + (y2 + y3).
// Processors with AVX2 but not AVX-512 thus give bit-identical products.
TEXT ·dot2x2x8Asm(SB), NOSPLIT, $0-48
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), AX
	MOVQ b+16(FP), DI
	MOVQ ldb+24(FP), BX
	MOVQ k+32(FP), CX
	MOVQ c+40(FP), DX
	SHLQ $3, AX
	SHLQ $3, BX
	LEAQ (SI)(AX*1), R8
	LEAQ (DI)(BX*1), R10
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

d22loop:
	VMOVUPD     (DI), Y8
	VMOVUPD     32(DI), Y9
	VMOVUPD     (R10), Y10
	VMOVUPD     32(R10), Y11
	VMOVUPD     (SI), Y12
	VMOVUPD     32(SI), Y13
	VFMADD231PD Y8, Y12, Y0
	VFMADD231PD Y9, Y13, Y1
	VFMADD231PD Y10, Y12, Y2
	VFMADD231PD Y11, Y13, Y3
	VMOVUPD     (R8), Y12
	VMOVUPD     32(R8), Y13
	VFMADD231PD Y8, Y12, Y4
	VFMADD231PD Y9, Y13, Y5
	VFMADD231PD Y10, Y12, Y6
	VFMADD231PD Y11, Y13, Y7
	ADDQ        $64, SI
	ADDQ        $64, R8
	ADDQ        $64, DI
	ADDQ        $64, R10
	SUBQ        $8, CX
	JNZ         d22loop

	// Fold: y = low + high per entry (Y0 = a0·b0, Y2 = a0·b1, Y4 = a1·b0,
	// Y6 = a1·b1).
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y5, Y4, Y4
	VADDPD Y7, Y6, Y6
	// Row 0: [y0+y1 of b0, of b1, y2+y3 of b0, of b1], then halves added.
	VHADDPD      Y2, Y0, Y12
	VEXTRACTF128 $1, Y12, X13
	VADDPD       X13, X12, X12
	VMOVUPD      X12, (DX)
	VHADDPD      Y6, Y4, Y12
	VEXTRACTF128 $1, Y12, X13
	VADDPD       X13, X12, X12
	VMOVUPD      X12, 16(DX)
	VZEROUPPER
	RET

// func dot8Asm(x, y *float64, k int) float64
// Σ_{l<k} x_l y_l (k a positive multiple of 8) in dot8's order: two
// four-wide accumulators for lanes 0–3 and 4–7, folded low + high, then
// (y0 + y1) + (y2 + y3).
TEXT ·dot8Asm(SB), NOSPLIT, $0-32
	MOVQ   x+0(FP), SI
	MOVQ   y+8(FP), DI
	MOVQ   k+16(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1

d8loop:
	VMOVUPD     (SI), Y2
	VMOVUPD     32(SI), Y3
	VFMADD231PD (DI), Y2, Y0
	VFMADD231PD 32(DI), Y3, Y1
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $8, CX
	JNZ         d8loop

	VADDPD       Y1, Y0, Y0
	VHADDPD      Y0, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VZEROUPPER
	MOVSD        X0, ret+24(FP)
	RET

// func gemm6x4Packed(a, b *float64, k8, nb int, c *float64, ldc int, alpha float64, mode int)
// For each of nb packed strips of four rows of B (b: strip after strip,
// each [k8/8][4][8]) and the packed strip of six rows of A (a:
// [k8/8][6][8]), the 6×4 sums s_rs = Σ_l a_rl b_sl in dot8's order:
// twenty-four eight-lane accumulators, lane l summing the products
// l, l+8, l+16, … by fused multiply–adds, folded y_l = s_l + s_{l+4}, then
// (y_0 + y_1) + (y_2 + y_3). Then C[r][4j+s] += alpha·s_rs (a product and
// a sum, each rounded, as in Go); with mode 1 C[r][4j+s] = s_rs; with
// mode 2 (C known to be zero, not read) C[r][4j+s] = 0 + alpha·s_rs.
// C's rows are ldc elements apart; strip j writes columns 4j … 4j+3.
TEXT ·gemm6x4Packed(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), R13
	MOVQ b+8(FP), DI
	MOVQ k8+16(FP), R14
	MOVQ nb+24(FP), R9
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R8
	MOVQ mode+56(FP), R10
	SHLQ $3, R8
	SHRQ $3, R14

g64strip:
	MOVQ R13, SI
	MOVQ R14, CX
	// Fetch the rows of C two strips ahead while this one is summed.
	MOVQ       DX, R11
	PREFETCHT0 64(R11)
	ADDQ       R8, R11
	PREFETCHT0 64(R11)
	ADDQ       R8, R11
	PREFETCHT0 64(R11)
	ADDQ       R8, R11
	PREFETCHT0 64(R11)
	ADDQ       R8, R11
	PREFETCHT0 64(R11)
	ADDQ       R8, R11
	PREFETCHT0 64(R11)
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	VPXORQ Z14, Z14, Z14
	VPXORQ Z15, Z15, Z15
	VPXORQ Z16, Z16, Z16
	VPXORQ Z17, Z17, Z17
	VPXORQ Z18, Z18, Z18
	VPXORQ Z19, Z19, Z19
	VPXORQ Z20, Z20, Z20
	VPXORQ Z21, Z21, Z21
	VPXORQ Z22, Z22, Z22
	VPXORQ Z23, Z23, Z23

g64loop:
	VMOVUPD 0(SI), Z24
	VMOVUPD 64(SI), Z25
	VMOVUPD 128(SI), Z26
	VMOVUPD 192(SI), Z27
	VMOVUPD 256(SI), Z28
	VMOVUPD 320(SI), Z29
	VMOVUPD 0(DI), Z30
	VFMADD231PD Z30, Z24, Z0
	VFMADD231PD Z30, Z25, Z4
	VFMADD231PD Z30, Z26, Z8
	VFMADD231PD Z30, Z27, Z12
	VFMADD231PD Z30, Z28, Z16
	VFMADD231PD Z30, Z29, Z20
	VMOVUPD 64(DI), Z30
	VFMADD231PD Z30, Z24, Z1
	VFMADD231PD Z30, Z25, Z5
	VFMADD231PD Z30, Z26, Z9
	VFMADD231PD Z30, Z27, Z13
	VFMADD231PD Z30, Z28, Z17
	VFMADD231PD Z30, Z29, Z21
	VMOVUPD 128(DI), Z30
	VFMADD231PD Z30, Z24, Z2
	VFMADD231PD Z30, Z25, Z6
	VFMADD231PD Z30, Z26, Z10
	VFMADD231PD Z30, Z27, Z14
	VFMADD231PD Z30, Z28, Z18
	VFMADD231PD Z30, Z29, Z22
	VMOVUPD 192(DI), Z30
	VFMADD231PD Z30, Z24, Z3
	VFMADD231PD Z30, Z25, Z7
	VFMADD231PD Z30, Z26, Z11
	VFMADD231PD Z30, Z27, Z15
	VFMADD231PD Z30, Z28, Z19
	VFMADD231PD Z30, Z29, Z23
	ADDQ $384, SI
	ADDQ $256, DI
	DECQ CX
	JNZ g64loop

	// Fold every accumulator to four lanes (rows 4 and 5 into the low
	// registers rows 0 and 1 leave free), then each row's four entries.
	VEXTRACTF64X4 $1, Z0, Y31
	VADDPD        Y31, Y0, Y0
	VEXTRACTF64X4 $1, Z1, Y31
	VADDPD        Y31, Y1, Y1
	VEXTRACTF64X4 $1, Z2, Y31
	VADDPD        Y31, Y2, Y2
	VEXTRACTF64X4 $1, Z3, Y31
	VADDPD        Y31, Y3, Y3
	VHADDPD       Y1, Y0, Y0
	VHADDPD       Y3, Y2, Y2
	VPERM2F128    $0x20, Y2, Y0, Y1
	VPERM2F128    $0x31, Y2, Y0, Y3
	VADDPD        Y3, Y1, Y1
	VEXTRACTF64X4 $1, Z4, Y31
	VADDPD        Y31, Y4, Y4
	VEXTRACTF64X4 $1, Z5, Y31
	VADDPD        Y31, Y5, Y5
	VEXTRACTF64X4 $1, Z6, Y31
	VADDPD        Y31, Y6, Y6
	VEXTRACTF64X4 $1, Z7, Y31
	VADDPD        Y31, Y7, Y7
	VHADDPD       Y5, Y4, Y4
	VHADDPD       Y7, Y6, Y6
	VPERM2F128    $0x20, Y6, Y4, Y5
	VPERM2F128    $0x31, Y6, Y4, Y7
	VADDPD        Y7, Y5, Y5
	VEXTRACTF64X4 $1, Z8, Y31
	VADDPD        Y31, Y8, Y8
	VEXTRACTF64X4 $1, Z9, Y31
	VADDPD        Y31, Y9, Y9
	VEXTRACTF64X4 $1, Z10, Y31
	VADDPD        Y31, Y10, Y10
	VEXTRACTF64X4 $1, Z11, Y31
	VADDPD        Y31, Y11, Y11
	VHADDPD       Y9, Y8, Y8
	VHADDPD       Y11, Y10, Y10
	VPERM2F128    $0x20, Y10, Y8, Y9
	VPERM2F128    $0x31, Y10, Y8, Y11
	VADDPD        Y11, Y9, Y9
	VEXTRACTF64X4 $1, Z12, Y31
	VADDPD        Y31, Y12, Y12
	VEXTRACTF64X4 $1, Z13, Y31
	VADDPD        Y31, Y13, Y13
	VEXTRACTF64X4 $1, Z14, Y31
	VADDPD        Y31, Y14, Y14
	VEXTRACTF64X4 $1, Z15, Y31
	VADDPD        Y31, Y15, Y15
	VHADDPD       Y13, Y12, Y12
	VHADDPD       Y15, Y14, Y14
	VPERM2F128    $0x20, Y14, Y12, Y13
	VPERM2F128    $0x31, Y14, Y12, Y15
	VADDPD        Y15, Y13, Y13
	VEXTRACTF64X4 $1, Z16, Y31
	VADDPD        Y31, Y16, Y0
	VEXTRACTF64X4 $1, Z17, Y31
	VADDPD        Y31, Y17, Y2
	VEXTRACTF64X4 $1, Z18, Y31
	VADDPD        Y31, Y18, Y3
	VEXTRACTF64X4 $1, Z19, Y31
	VADDPD        Y31, Y19, Y4
	VHADDPD       Y2, Y0, Y0
	VHADDPD       Y4, Y3, Y3
	VPERM2F128    $0x20, Y3, Y0, Y2
	VPERM2F128    $0x31, Y3, Y0, Y4
	VADDPD        Y4, Y2, Y2
	VEXTRACTF64X4 $1, Z20, Y31
	VADDPD        Y31, Y20, Y6
	VEXTRACTF64X4 $1, Z21, Y31
	VADDPD        Y31, Y21, Y7
	VEXTRACTF64X4 $1, Z22, Y31
	VADDPD        Y31, Y22, Y8
	VEXTRACTF64X4 $1, Z23, Y31
	VADDPD        Y31, Y23, Y10
	VHADDPD       Y7, Y6, Y6
	VHADDPD       Y10, Y8, Y8
	VPERM2F128    $0x20, Y8, Y6, Y7
	VPERM2F128    $0x31, Y8, Y6, Y10
	VADDPD        Y10, Y7, Y7
	MOVQ         DX, R11
	VBROADCASTSD alpha+48(FP), Y24
	CMPQ         R10, $1
	JEQ          g64store
	JGT          g64set
	VMULPD  Y24, Y1, Y1
	VADDPD  (R11), Y1, Y1
	VMOVUPD Y1, (R11)
	ADDQ    R8, R11
	VMULPD  Y24, Y5, Y5
	VADDPD  (R11), Y5, Y5
	VMOVUPD Y5, (R11)
	ADDQ    R8, R11
	VMULPD  Y24, Y9, Y9
	VADDPD  (R11), Y9, Y9
	VMOVUPD Y9, (R11)
	ADDQ    R8, R11
	VMULPD  Y24, Y13, Y13
	VADDPD  (R11), Y13, Y13
	VMOVUPD Y13, (R11)
	ADDQ    R8, R11
	VMULPD  Y24, Y2, Y2
	VADDPD  (R11), Y2, Y2
	VMOVUPD Y2, (R11)
	ADDQ    R8, R11
	VMULPD  Y24, Y7, Y7
	VADDPD  (R11), Y7, Y7
	VMOVUPD Y7, (R11)
	JMP g64next

g64set:
	// C was zero: C = 0 + alpha·s, the same two roundings without reading C.
	VXORPD  Y25, Y25, Y25
	VMULPD  Y24, Y1, Y1
	VADDPD  Y25, Y1, Y1
	VMOVUPD Y1, (R11)
	ADDQ    R8, R11
	VMULPD  Y24, Y5, Y5
	VADDPD  Y25, Y5, Y5
	VMOVUPD Y5, (R11)
	ADDQ    R8, R11
	VMULPD  Y24, Y9, Y9
	VADDPD  Y25, Y9, Y9
	VMOVUPD Y9, (R11)
	ADDQ    R8, R11
	VMULPD  Y24, Y13, Y13
	VADDPD  Y25, Y13, Y13
	VMOVUPD Y13, (R11)
	ADDQ    R8, R11
	VMULPD  Y24, Y2, Y2
	VADDPD  Y25, Y2, Y2
	VMOVUPD Y2, (R11)
	ADDQ    R8, R11
	VMULPD  Y24, Y7, Y7
	VADDPD  Y25, Y7, Y7
	VMOVUPD Y7, (R11)
	JMP g64next

g64store:
	VMOVUPD Y1, (R11)
	ADDQ    R8, R11
	VMOVUPD Y5, (R11)
	ADDQ    R8, R11
	VMOVUPD Y9, (R11)
	ADDQ    R8, R11
	VMOVUPD Y13, (R11)
	ADDQ    R8, R11
	VMOVUPD Y2, (R11)
	ADDQ    R8, R11
	VMOVUPD Y7, (R11)

g64next:
	ADDQ $32, DX
	DECQ R9
	JNZ  g64strip
	VZEROUPPER
	RET

// func packStripAvx512(dst, x *float64, ld, rs, k8 int)
// dst[8(rs·t + r) + l] = x[r·ld + 8t + l] for r < rs, t < k8/8, l < 8: a
// strip of rs rows of x (leading dimension ld) interleaved eight columns
// at a time (k8 a positive multiple of 8).
TEXT ·packStripAvx512(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ ld+16(FP), AX
	MOVQ rs+24(FP), BX
	MOVQ k8+32(FP), CX
	SHLQ $3, AX
	SHRQ $3, CX

pkstep:
	MOVQ SI, R11
	MOVQ BX, R12

pkrow:
	VMOVUPD (R11), Z0
	VMOVUPD Z0, (DI)
	ADDQ    $64, DI
	ADDQ    AX, R11
	DECQ    R12
	JNZ     pkrow
	ADDQ    $64, SI
	DECQ    CX
	JNZ     pkstep
	VZEROUPPER
	RET

// func packStripTAvx512(dst, x *float64, ld, rows, rs, k8 int)
// dst[8(rs·t + r) + l] = x[(8t + l)·ld + r] for r < rows, 0 for
// rows ≤ r < rs (t < k8/8, l < 8; 4 ≤ rs ≤ 8, 1 ≤ rows ≤ rs): a strip of
// rs rows of the transpose of x (k8 rows of leading dimension ld, of which
// the first rows columns are read), packed as packStripAvx512 packs rows,
// its missing rows zero. Eight rows of x are loaded at a time (masked to
// rows columns, the others zero and not read) and transposed by three
// rounds of shuffles.
TEXT ·packStripTAvx512(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ ld+16(FP), R8
	MOVQ rows+24(FP), CX
	MOVQ rs+32(FP), BX
	MOVQ k8+40(FP), DX
	SHLQ $3, R8          // ld in bytes
	LEAQ (R8)(R8*2), R10 // 3·ld
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1         // the first rows lanes
	SHRQ $3, DX

ptstep:
	LEAQ     (SI)(R8*4), R11
	VMOVUPD.Z (SI), K1, Z0
	VMOVUPD.Z (SI)(R8*1), K1, Z1
	VMOVUPD.Z (SI)(R8*2), K1, Z2
	VMOVUPD.Z (SI)(R10*1), K1, Z3
	VMOVUPD.Z (R11), K1, Z4
	VMOVUPD.Z (R11)(R8*1), K1, Z5
	VMOVUPD.Z (R11)(R8*2), K1, Z6
	VMOVUPD.Z (R11)(R10*1), K1, Z7
	// Pairs of rows: Z8 = [x00 x10 | x02 x12 | x04 x14 | x06 x16] (xlc:
	// row l, column c), Z9 the odd columns; likewise rows 2–3, 4–5, 6–7.
	VUNPCKLPD Z1, Z0, Z8
	VUNPCKHPD Z1, Z0, Z9
	VUNPCKLPD Z3, Z2, Z10
	VUNPCKHPD Z3, Z2, Z11
	VUNPCKLPD Z5, Z4, Z12
	VUNPCKHPD Z5, Z4, Z13
	VUNPCKLPD Z7, Z6, Z14
	VUNPCKHPD Z7, Z6, Z15
	// Quads of rows: Z16 = [c0 of rows 0–1, c4 of 0–1, c0 of 2–3, c4 of 2–3],
	// Z17 columns 2 and 6, Z18 1 and 5, Z19 3 and 7; Z20–Z23 rows 4–7.
	VSHUFF64X2 $0x88, Z10, Z8, Z16
	VSHUFF64X2 $0xDD, Z10, Z8, Z17
	VSHUFF64X2 $0x88, Z11, Z9, Z18
	VSHUFF64X2 $0xDD, Z11, Z9, Z19
	VSHUFF64X2 $0x88, Z14, Z12, Z20
	VSHUFF64X2 $0xDD, Z14, Z12, Z21
	VSHUFF64X2 $0x88, Z15, Z13, Z22
	VSHUFF64X2 $0xDD, Z15, Z13, Z23
	// Columns: Z24 + c = column c of the eight rows.
	VSHUFF64X2 $0x88, Z20, Z16, Z24
	VSHUFF64X2 $0x88, Z22, Z18, Z25
	VSHUFF64X2 $0x88, Z21, Z17, Z26
	VSHUFF64X2 $0x88, Z23, Z19, Z27
	VSHUFF64X2 $0xDD, Z20, Z16, Z28
	VSHUFF64X2 $0xDD, Z22, Z18, Z29
	VSHUFF64X2 $0xDD, Z21, Z17, Z30
	VSHUFF64X2 $0xDD, Z23, Z19, Z31
	VMOVUPD Z24, (DI)
	VMOVUPD Z25, 64(DI)
	VMOVUPD Z26, 128(DI)
	VMOVUPD Z27, 192(DI)
	CMPQ    BX, $5
	JLT     ptnext
	VMOVUPD Z28, 256(DI)
	CMPQ    BX, $6
	JLT     ptnext
	VMOVUPD Z29, 320(DI)
	CMPQ    BX, $7
	JLT     ptnext
	VMOVUPD Z30, 384(DI)
	CMPQ    BX, $8
	JLT     ptnext
	VMOVUPD Z31, 448(DI)

ptnext:
	MOVQ BX, AX
	SHLQ $6, AX
	ADDQ AX, DI          // rs vectors on
	LEAQ (R11)(R8*4), SI // eight rows of x on
	DECQ DX
	JNZ  ptstep
	VZEROUPPER
	RET

// func transpose8Avx512(dst *float64, r int, x *float64, ld int, idx *int64, rows int)
// dst[q·r + i] = x[i·ld + q] for q < 8, i < rows (a positive multiple of
// 8): eight columns of x gathered eight rows at a time (idx holds
// 0, ld, …, 7·ld).
TEXT ·transpose8Avx512(SB), NOSPLIT, $0-48
	MOVQ      dst+0(FP), DI
	MOVQ      r+8(FP), R8
	MOVQ      x+16(FP), SI
	MOVQ      ld+24(FP), R9
	MOVQ      idx+32(FP), AX
	MOVQ      rows+40(FP), BX
	VMOVDQU64 (AX), Z1
	SHLQ      $3, R8
	SHLQ      $6, R9 // eight rows of x, in bytes
	SHRQ      $3, BX
	MOVQ      $8, DX

tpcol:
	MOVQ SI, R10
	MOVQ DI, R11
	MOVQ BX, CX

tprow:
	KXNORW     K1, K1, K1
	VGATHERQPD (R10)(Z1*8), K1, Z0
	VMOVUPD    Z0, (R11)
	ADDQ       $64, R11
	ADDQ       R9, R10
	DECQ       CX
	JNZ        tprow
	ADDQ       $8, SI
	ADDQ       R8, DI
	DECQ       DX
	JNZ        tpcol
	VZEROUPPER
	RET

// func gemm3x2Avx2(a, b *float64, k8, nb int, c *float64, ldc int, alpha float64, mode int)
// gemm6x4Packed's work on AVX2: a packed strip of three rows of A
// ([k8/8][3][8]) against nb packed strips of two rows of B ([k8/8][2][8]),
// each entry's eight lanes in two four-wide accumulators (lanes 0–3 and
// 4–7), folded low + high, then (y0 + y1) + (y2 + y3): dot8's order, as
// in dot2x2x8Asm. Modes as for gemm6x4Packed.
TEXT ·gemm3x2Avx2(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), R13
	MOVQ b+8(FP), DI
	MOVQ k8+16(FP), R14
	MOVQ nb+24(FP), R9
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R8
	MOVQ mode+56(FP), R10
	SHLQ $3, R8
	SHRQ $3, R14

g32strip:
	MOVQ       R13, SI
	MOVQ       R14, CX
	MOVQ       DX, R11
	PREFETCHT0 64(R11)
	ADDQ       R8, R11
	PREFETCHT0 64(R11)
	ADDQ       R8, R11
	PREFETCHT0 64(R11)
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11

g32loop:
	VMOVUPD     0(SI), Y12
	VMOVUPD     64(SI), Y13
	VMOVUPD     128(SI), Y14
	VMOVUPD     0(DI), Y15
	VFMADD231PD Y15, Y12, Y0
	VFMADD231PD Y15, Y13, Y4
	VFMADD231PD Y15, Y14, Y8
	VMOVUPD     64(DI), Y15
	VFMADD231PD Y15, Y12, Y2
	VFMADD231PD Y15, Y13, Y6
	VFMADD231PD Y15, Y14, Y10
	VMOVUPD     32(SI), Y12
	VMOVUPD     96(SI), Y13
	VMOVUPD     160(SI), Y14
	VMOVUPD     32(DI), Y15
	VFMADD231PD Y15, Y12, Y1
	VFMADD231PD Y15, Y13, Y5
	VFMADD231PD Y15, Y14, Y9
	VMOVUPD     96(DI), Y15
	VFMADD231PD Y15, Y12, Y3
	VFMADD231PD Y15, Y13, Y7
	VFMADD231PD Y15, Y14, Y11
	ADDQ        $192, SI
	ADDQ        $128, DI
	DECQ        CX
	JNZ         g32loop

	// Per row: low + high per entry, then (y0 + y1) + (y2 + y3) for both.
	VADDPD       Y1, Y0, Y0
	VADDPD       Y3, Y2, Y2
	VHADDPD      Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VADDPD       Y5, Y4, Y4
	VADDPD       Y7, Y6, Y6
	VHADDPD      Y6, Y4, Y4
	VEXTRACTF128 $1, Y4, X5
	VADDPD       X5, X4, X4
	VADDPD       Y9, Y8, Y8
	VADDPD       Y11, Y10, Y10
	VHADDPD      Y10, Y8, Y8
	VEXTRACTF128 $1, Y8, X9
	VADDPD       X9, X8, X8
	MOVQ         DX, R11
	VBROADCASTSD alpha+48(FP), Y12
	CMPQ         R10, $1
	JEQ          g32store
	JGT          g32set
	VMULPD  X12, X0, X0
	VADDPD  (R11), X0, X0
	VMOVUPD X0, (R11)
	ADDQ    R8, R11
	VMULPD  X12, X4, X4
	VADDPD  (R11), X4, X4
	VMOVUPD X4, (R11)
	ADDQ    R8, R11
	VMULPD  X12, X8, X8
	VADDPD  (R11), X8, X8
	VMOVUPD X8, (R11)
	JMP g32next

g32set:
	// C was zero: C = 0 + alpha·s, without reading C.
	VXORPD  X13, X13, X13
	VMULPD  X12, X0, X0
	VADDPD  X13, X0, X0
	VMOVUPD X0, (R11)
	ADDQ    R8, R11
	VMULPD  X12, X4, X4
	VADDPD  X13, X4, X4
	VMOVUPD X4, (R11)
	ADDQ    R8, R11
	VMULPD  X12, X8, X8
	VADDPD  X13, X8, X8
	VMOVUPD X8, (R11)
	JMP g32next

g32store:
	VMOVUPD X0, (R11)
	ADDQ    R8, R11
	VMOVUPD X4, (R11)
	ADDQ    R8, R11
	VMOVUPD X8, (R11)

g32next:
	ADDQ $16, DX
	DECQ R9
	JNZ  g32strip
	VZEROUPPER
	RET

// func packStripAvx2(dst, x *float64, ld, rs, k8 int)
// packStripAvx512 on four-wide registers.
TEXT ·packStripAvx2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ ld+16(FP), AX
	MOVQ rs+24(FP), BX
	MOVQ k8+32(FP), CX
	SHLQ $3, AX
	SHRQ $3, CX

pk2step:
	MOVQ SI, R11
	MOVQ BX, R12

pk2row:
	VMOVUPD (R11), Y0
	VMOVUPD 32(R11), Y1
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ    $64, DI
	ADDQ    AX, R11
	DECQ    R12
	JNZ     pk2row
	ADDQ    $64, SI
	DECQ    CX
	JNZ     pk2step
	VZEROUPPER
	RET
