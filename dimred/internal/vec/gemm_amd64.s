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
