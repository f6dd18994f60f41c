//go:build !noasm

#include "textflag.h"

// func dotAsm(x, y *float64, n int) float64
// Sixteen entries per iteration into four four-wide accumulators (to cover
// the FMA latency), combined at the end in a fixed order.
TEXT ·dotAsm(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DX
	MOVQ n+16(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

dotloop:
	VMOVUPD (SI), Y4
	VMOVUPD 32(SI), Y5
	VMOVUPD 64(SI), Y6
	VMOVUPD 96(SI), Y7
	VFMADD231PD (DX), Y4, Y0
	VFMADD231PD 32(DX), Y5, Y1
	VFMADD231PD 64(DX), Y6, Y2
	VFMADD231PD 96(DX), Y7, Y3
	ADDQ $128, SI
	ADDQ $128, DX
	SUBQ $16, CX
	JNZ  dotloop

	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET

// func dotAxpyAsm(acc *float64, alpha float64, a, x *float64, n int) float64
TEXT ·dotAxpyAsm(SB), NOSPLIT, $0-48
	MOVQ acc+0(FP), DI
	VBROADCASTSD alpha+8(FP), Y8
	MOVQ a+16(FP), SI
	MOVQ x+24(FP), DX
	MOVQ n+32(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

dalloop:
	VMOVUPD (SI), Y4
	VMOVUPD 32(SI), Y5
	VMOVUPD 64(SI), Y6
	VMOVUPD 96(SI), Y7
	VFMADD231PD (DX), Y4, Y0
	VFMADD231PD 32(DX), Y5, Y1
	VFMADD231PD 64(DX), Y6, Y2
	VFMADD231PD 96(DX), Y7, Y3
	VMOVUPD (DI), Y9
	VMOVUPD 32(DI), Y10
	VMOVUPD 64(DI), Y11
	VMOVUPD 96(DI), Y12
	VFMADD231PD Y4, Y8, Y9
	VFMADD231PD Y5, Y8, Y10
	VFMADD231PD Y6, Y8, Y11
	VFMADD231PD Y7, Y8, Y12
	VMOVUPD Y9, (DI)
	VMOVUPD Y10, 32(DI)
	VMOVUPD Y11, 64(DI)
	VMOVUPD Y12, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DX
	ADDQ $128, DI
	SUBQ $16, CX
	JNZ  dalloop

	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VHADDPD X0, X0, X0
	VZEROUPPER
	MOVSD X0, ret+40(FP)
	RET

// func axpyAsm(dst *float64, alpha float64, x *float64, n int)
// dst_i += alpha x_i for i < n (n a positive multiple of 16).
TEXT ·axpyAsm(SB), NOSPLIT, $0-32
	MOVQ         dst+0(FP), DI
	VBROADCASTSD alpha+8(FP), Y8
	MOVQ         x+16(FP), SI
	MOVQ         n+24(FP), CX

axpyloop:
	VMOVUPD     (DI), Y0
	VMOVUPD     32(DI), Y1
	VMOVUPD     64(DI), Y2
	VMOVUPD     96(DI), Y3
	VFMADD231PD (SI), Y8, Y0
	VFMADD231PD 32(SI), Y8, Y1
	VFMADD231PD 64(SI), Y8, Y2
	VFMADD231PD 96(SI), Y8, Y3
	VMOVUPD     Y0, (DI)
	VMOVUPD     Y1, 32(DI)
	VMOVUPD     Y2, 64(DI)
	VMOVUPD     Y3, 96(DI)
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $16, CX
	JNZ         axpyloop
	VZEROUPPER
	RET

DATA absMask<>+0(SB)/8, $0x7fffffffffffffff
DATA absMask<>+8(SB)/8, $0x7fffffffffffffff
DATA absMask<>+16(SB)/8, $0x7fffffffffffffff
DATA absMask<>+24(SB)/8, $0x7fffffffffffffff
GLOBL absMask<>(SB), RODATA|NOPTR, $32

// func maxAbsAsm(x *float64, n int) (m float64, nan int)
// m = max |x_i| over i < n (n a positive multiple of 8); nan ≠ 0 if some
// x_i is NaN (m is then meaningless).
TEXT ·maxAbsAsm(SB), NOSPLIT, $0-32
	MOVQ    x+0(FP), SI
	MOVQ    n+8(FP), CX
	VMOVUPD absMask<>(SB), Y8
	VXORPD  Y0, Y0, Y0
	VXORPD  Y1, Y1, Y1
	VXORPD  Y4, Y4, Y4

maxloop:
	VANDPD  (SI), Y8, Y2
	VANDPD  32(SI), Y8, Y3
	VCMPPD  $3, Y2, Y2, Y5
	VCMPPD  $3, Y3, Y3, Y6
	VORPD   Y5, Y4, Y4
	VORPD   Y6, Y4, Y4
	VMAXPD  Y2, Y0, Y0
	VMAXPD  Y3, Y1, Y1
	ADDQ    $64, SI
	SUBQ    $8, CX
	JNZ     maxloop

	VMAXPD       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPD       X1, X0, X0
	VPERMILPD    $1, X0, X1
	VMAXPD       X1, X0, X0
	VMOVMSKPD    Y4, AX
	VZEROUPPER
	MOVSD        X0, m+16(FP)
	MOVQ         AX, nan+24(FP)
	RET
