//go:build !noasm && !dimred_noasm

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

DATA maxFinite<>+0(SB)/8, $0x7fefffffffffffff
DATA maxFinite<>+8(SB)/8, $0x7fefffffffffffff
DATA maxFinite<>+16(SB)/8, $0x7fefffffffffffff
DATA maxFinite<>+24(SB)/8, $0x7fefffffffffffff
GLOBL maxFinite<>(SB), RODATA|NOPTR, $32

// func maxNonNegAsm(x *float64, n int) (m float64, bad int)
// m = max x_i over i < n (n a positive multiple of 8); bad ≠ 0 if some x_i
// is outside [0, MaxFloat64] (negative, +Inf or NaN).
TEXT ·maxNonNegAsm(SB), NOSPLIT, $0-32
	MOVQ    x+0(FP), SI
	MOVQ    n+8(FP), CX
	VMOVUPD maxFinite<>(SB), Y8
	VXORPD  Y9, Y9, Y9
	VXORPD  Y0, Y0, Y0
	VXORPD  Y1, Y1, Y1
	VXORPD  Y4, Y4, Y4

nnloop:
	VMOVUPD (SI), Y2
	VMOVUPD 32(SI), Y3
	VCMPPD  $0x09, Y9, Y2, Y5
	VCMPPD  $0x06, Y8, Y2, Y6
	VORPD   Y5, Y4, Y4
	VORPD   Y6, Y4, Y4
	VCMPPD  $0x09, Y9, Y3, Y5
	VCMPPD  $0x06, Y8, Y3, Y6
	VORPD   Y5, Y4, Y4
	VORPD   Y6, Y4, Y4
	VMAXPD  Y2, Y0, Y0
	VMAXPD  Y3, Y1, Y1
	ADDQ    $64, SI
	SUBQ    $8, CX
	JNZ     nnloop

	VMAXPD       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPD       X1, X0, X0
	VPERMILPD    $1, X0, X1
	VMAXPD       X1, X0, X0
	VMOVMSKPD    Y4, AX
	VZEROUPPER
	MOVSD        X0, m+16(FP)
	MOVQ         AX, bad+24(FP)
	RET

// func dotAxpy2Asm(acc0, acc1 *float64, alpha0, alpha1 float64, a, x0, x1 *float64, n int) (d0, d1 float64)
// DotAxpy for two vectors in one pass over a (n a positive multiple of 8):
// d_v = Σ a_i x_v,i and acc_v,i += alpha_v a_i.
TEXT ·dotAxpy2Asm(SB), NOSPLIT, $0-80
	MOVQ         acc0+0(FP), DI
	MOVQ         acc1+8(FP), R8
	VBROADCASTSD alpha0+16(FP), Y14
	VBROADCASTSD alpha1+24(FP), Y15
	MOVQ         a+32(FP), SI
	MOVQ         x0+40(FP), DX
	MOVQ         x1+48(FP), R9
	MOVQ         n+56(FP), CX
	VXORPD       Y0, Y0, Y0
	VXORPD       Y1, Y1, Y1
	VXORPD       Y2, Y2, Y2
	VXORPD       Y3, Y3, Y3

da2loop:
	VMOVUPD     (SI), Y4
	VMOVUPD     32(SI), Y5
	VFMADD231PD (DX), Y4, Y0
	VFMADD231PD 32(DX), Y5, Y1
	VFMADD231PD (R9), Y4, Y2
	VFMADD231PD 32(R9), Y5, Y3
	VMOVUPD     (DI), Y6
	VMOVUPD     32(DI), Y7
	VFMADD231PD Y4, Y14, Y6
	VFMADD231PD Y5, Y14, Y7
	VMOVUPD     Y6, (DI)
	VMOVUPD     Y7, 32(DI)
	VMOVUPD     (R8), Y8
	VMOVUPD     32(R8), Y9
	VFMADD231PD Y4, Y15, Y8
	VFMADD231PD Y5, Y15, Y9
	VMOVUPD     Y8, (R8)
	VMOVUPD     Y9, 32(R8)
	ADDQ        $64, SI
	ADDQ        $64, DX
	ADDQ        $64, R9
	ADDQ        $64, DI
	ADDQ        $64, R8
	SUBQ        $8, CX
	JNZ         da2loop

	VADDPD       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VHADDPD      X0, X0, X0
	VADDPD       Y3, Y2, Y2
	VEXTRACTF128 $1, Y2, X3
	VADDPD       X3, X2, X2
	VHADDPD      X2, X2, X2
	VZEROUPPER
	MOVSD        X0, d0+64(FP)
	MOVSD        X2, d1+72(FP)
	RET

// func sumAddAsm(acc, a *float64, n int) float64
// acc_j += a_j for j < n (n a positive multiple of 16); returns Σ a_j.
TEXT ·sumAddAsm(SB), NOSPLIT, $0-32
	MOVQ   acc+0(FP), DI
	MOVQ   a+8(FP), SI
	MOVQ   n+16(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

sumloop:
	VMOVUPD (SI), Y4
	VMOVUPD 32(SI), Y5
	VMOVUPD 64(SI), Y6
	VMOVUPD 96(SI), Y7
	VADDPD  Y4, Y0, Y0
	VADDPD  Y5, Y1, Y1
	VADDPD  Y6, Y2, Y2
	VADDPD  Y7, Y3, Y3
	VADDPD  (DI), Y4, Y4
	VADDPD  32(DI), Y5, Y5
	VADDPD  64(DI), Y6, Y6
	VADDPD  96(DI), Y7, Y7
	VMOVUPD Y4, (DI)
	VMOVUPD Y5, 32(DI)
	VMOVUPD Y6, 64(DI)
	VMOVUPD Y7, 96(DI)
	ADDQ    $128, SI
	ADDQ    $128, DI
	SUBQ    $16, CX
	JNZ     sumloop

	VADDPD       Y1, Y0, Y0
	VADDPD       Y3, Y2, Y2
	VADDPD       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VHADDPD      X0, X0, X0
	VZEROUPPER
	MOVSD        X0, ret+24(FP)
	RET

// func addSqDiffAsm(d, col *float64, c float64, n int)
// d_j += (col_j − c)² for j < n (n a positive multiple of 8).
TEXT ·addSqDiffAsm(SB), NOSPLIT, $0-32
	MOVQ         d+0(FP), DI
	MOVQ         col+8(FP), SI
	VBROADCASTSD c+16(FP), Y8
	MOVQ         n+24(FP), CX

sqloop:
	VMOVUPD     (SI), Y0
	VMOVUPD     32(SI), Y1
	VSUBPD      Y8, Y0, Y0
	VSUBPD      Y8, Y1, Y1
	VMOVUPD     (DI), Y2
	VMOVUPD     32(DI), Y3
	VFMADD231PD Y0, Y0, Y2
	VFMADD231PD Y1, Y1, Y3
	VMOVUPD     Y2, (DI)
	VMOVUPD     Y3, 32(DI)
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $8, CX
	JNZ         sqloop
	VZEROUPPER
	RET
