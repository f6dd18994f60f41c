//go:build !noasm

#include "textflag.h"

// func dot3x4Asm(a *float64, lda int, b *float64, ldb int, k int, c *float64)
// c[4r+s] = Σ_{l<k} a[r·lda+l]·b[s·ldb+l] for r < 3, s < 4 (k a positive
// multiple of 4): twelve four-wide accumulators, one FMA per loaded
// vector pair, reduced by the horizontal-add transpose at the end.
TEXT ·dot3x4Asm(SB), NOSPLIT, $0-48
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

d34loop:
	VMOVUPD     (SI), Y12
	VMOVUPD     (R8), Y13
	VMOVUPD     (R9), Y14
	VMOVUPD     (DI), Y15
	VFMADD231PD Y15, Y12, Y0
	VFMADD231PD Y15, Y13, Y4
	VFMADD231PD Y15, Y14, Y8
	VMOVUPD     (R10), Y15
	VFMADD231PD Y15, Y12, Y1
	VFMADD231PD Y15, Y13, Y5
	VFMADD231PD Y15, Y14, Y9
	VMOVUPD     (R11), Y15
	VFMADD231PD Y15, Y12, Y2
	VFMADD231PD Y15, Y13, Y6
	VFMADD231PD Y15, Y14, Y10
	VMOVUPD     (R12), Y15
	VFMADD231PD Y15, Y12, Y3
	VFMADD231PD Y15, Y13, Y7
	VFMADD231PD Y15, Y14, Y11
	ADDQ        $32, SI
	ADDQ        $32, R8
	ADDQ        $32, R9
	ADDQ        $32, DI
	ADDQ        $32, R10
	ADDQ        $32, R11
	ADDQ        $32, R12
	SUBQ        $4, CX
	JNZ         d34loop

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
