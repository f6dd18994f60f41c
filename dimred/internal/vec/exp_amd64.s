//go:build !noasm && !dimred_noasm

#include "textflag.h"

// log2 e, −ln 2 (high, low parts), the kernel's input range [−708, 709]
DATA expConst<>+0(SB)/8, $0x3ff71547652b82fe
DATA expConst<>+8(SB)/8, $0x3ff71547652b82fe
DATA expConst<>+16(SB)/8, $0x3ff71547652b82fe
DATA expConst<>+24(SB)/8, $0x3ff71547652b82fe
DATA expConst<>+32(SB)/8, $0xbfe62e42fee00000
DATA expConst<>+40(SB)/8, $0xbfe62e42fee00000
DATA expConst<>+48(SB)/8, $0xbfe62e42fee00000
DATA expConst<>+56(SB)/8, $0xbfe62e42fee00000
DATA expConst<>+64(SB)/8, $0xbdea39ef35793c76
DATA expConst<>+72(SB)/8, $0xbdea39ef35793c76
DATA expConst<>+80(SB)/8, $0xbdea39ef35793c76
DATA expConst<>+88(SB)/8, $0xbdea39ef35793c76
DATA expConst<>+96(SB)/8, $0xc086200000000000
DATA expConst<>+104(SB)/8, $0xc086200000000000
DATA expConst<>+112(SB)/8, $0xc086200000000000
DATA expConst<>+120(SB)/8, $0xc086200000000000
DATA expConst<>+128(SB)/8, $0x4086280000000000
DATA expConst<>+136(SB)/8, $0x4086280000000000
DATA expConst<>+144(SB)/8, $0x4086280000000000
DATA expConst<>+152(SB)/8, $0x4086280000000000
GLOBL expConst<>(SB), RODATA|NOPTR, $160

// the exponent bias, as a 64-bit integer
DATA expBias<>+0(SB)/8, $0x00000000000003ff
DATA expBias<>+8(SB)/8, $0x00000000000003ff
DATA expBias<>+16(SB)/8, $0x00000000000003ff
DATA expBias<>+24(SB)/8, $0x00000000000003ff
GLOBL expBias<>(SB), RODATA|NOPTR, $32

// 1/i! for i = 13, 12, …, 0 (Taylor: |r|^14/14! < 2^−55 for |r| ≤ ln 2/2)
DATA expPoly<>+0(SB)/8, $0x3de6124613a86d09
DATA expPoly<>+8(SB)/8, $0x3de6124613a86d09
DATA expPoly<>+16(SB)/8, $0x3de6124613a86d09
DATA expPoly<>+24(SB)/8, $0x3de6124613a86d09
DATA expPoly<>+32(SB)/8, $0x3e21eed8eff8d898
DATA expPoly<>+40(SB)/8, $0x3e21eed8eff8d898
DATA expPoly<>+48(SB)/8, $0x3e21eed8eff8d898
DATA expPoly<>+56(SB)/8, $0x3e21eed8eff8d898
DATA expPoly<>+64(SB)/8, $0x3e5ae64567f544e4
DATA expPoly<>+72(SB)/8, $0x3e5ae64567f544e4
DATA expPoly<>+80(SB)/8, $0x3e5ae64567f544e4
DATA expPoly<>+88(SB)/8, $0x3e5ae64567f544e4
DATA expPoly<>+96(SB)/8, $0x3e927e4fb7789f5c
DATA expPoly<>+104(SB)/8, $0x3e927e4fb7789f5c
DATA expPoly<>+112(SB)/8, $0x3e927e4fb7789f5c
DATA expPoly<>+120(SB)/8, $0x3e927e4fb7789f5c
DATA expPoly<>+128(SB)/8, $0x3ec71de3a556c734
DATA expPoly<>+136(SB)/8, $0x3ec71de3a556c734
DATA expPoly<>+144(SB)/8, $0x3ec71de3a556c734
DATA expPoly<>+152(SB)/8, $0x3ec71de3a556c734
DATA expPoly<>+160(SB)/8, $0x3efa01a01a01a01a
DATA expPoly<>+168(SB)/8, $0x3efa01a01a01a01a
DATA expPoly<>+176(SB)/8, $0x3efa01a01a01a01a
DATA expPoly<>+184(SB)/8, $0x3efa01a01a01a01a
DATA expPoly<>+192(SB)/8, $0x3f2a01a01a01a01a
DATA expPoly<>+200(SB)/8, $0x3f2a01a01a01a01a
DATA expPoly<>+208(SB)/8, $0x3f2a01a01a01a01a
DATA expPoly<>+216(SB)/8, $0x3f2a01a01a01a01a
DATA expPoly<>+224(SB)/8, $0x3f56c16c16c16c17
DATA expPoly<>+232(SB)/8, $0x3f56c16c16c16c17
DATA expPoly<>+240(SB)/8, $0x3f56c16c16c16c17
DATA expPoly<>+248(SB)/8, $0x3f56c16c16c16c17
DATA expPoly<>+256(SB)/8, $0x3f81111111111111
DATA expPoly<>+264(SB)/8, $0x3f81111111111111
DATA expPoly<>+272(SB)/8, $0x3f81111111111111
DATA expPoly<>+280(SB)/8, $0x3f81111111111111
DATA expPoly<>+288(SB)/8, $0x3fa5555555555555
DATA expPoly<>+296(SB)/8, $0x3fa5555555555555
DATA expPoly<>+304(SB)/8, $0x3fa5555555555555
DATA expPoly<>+312(SB)/8, $0x3fa5555555555555
DATA expPoly<>+320(SB)/8, $0x3fc5555555555555
DATA expPoly<>+328(SB)/8, $0x3fc5555555555555
DATA expPoly<>+336(SB)/8, $0x3fc5555555555555
DATA expPoly<>+344(SB)/8, $0x3fc5555555555555
DATA expPoly<>+352(SB)/8, $0x3fe0000000000000
DATA expPoly<>+360(SB)/8, $0x3fe0000000000000
DATA expPoly<>+368(SB)/8, $0x3fe0000000000000
DATA expPoly<>+376(SB)/8, $0x3fe0000000000000
DATA expPoly<>+384(SB)/8, $0x3ff0000000000000
DATA expPoly<>+392(SB)/8, $0x3ff0000000000000
DATA expPoly<>+400(SB)/8, $0x3ff0000000000000
DATA expPoly<>+408(SB)/8, $0x3ff0000000000000
DATA expPoly<>+416(SB)/8, $0x3ff0000000000000
DATA expPoly<>+424(SB)/8, $0x3ff0000000000000
DATA expPoly<>+432(SB)/8, $0x3ff0000000000000
DATA expPoly<>+440(SB)/8, $0x3ff0000000000000
GLOBL expPoly<>(SB), RODATA|NOPTR, $448

// func scaledExpAsm(dst, x *float64, a, v float64, n int) int
// dst_j = v·exp(a·x_j) for j < n (n a positive multiple of 4), four lanes at
// a time: t = a x, k = round(t log2 e), r = t − k ln 2 (in two parts, each
// an exact FMA), exp(r) by Horner on the Taylor series to degree 13, then
// 2^k built in the exponent field. t outside [−708, 709] (or NaN) is
// clamped here and flagged: the result's bit i is set when lane i of some
// group was outside, and the caller recomputes those entries.
TEXT ·scaledExpAsm(SB), NOSPLIT, $0-48
	MOVQ         dst+0(FP), DI
	MOVQ         x+8(FP), SI
	VBROADCASTSD a+16(FP), Y14
	VBROADCASTSD v+24(FP), Y13
	MOVQ         n+32(FP), CX
	VXORPD       Y15, Y15, Y15
	VMOVUPD      expConst<>+0(SB), Y12
	VMOVUPD      expConst<>+32(SB), Y11
	VMOVUPD      expConst<>+64(SB), Y10
	VMOVUPD      expConst<>+96(SB), Y9
	VMOVUPD      expConst<>+128(SB), Y8
	VMOVDQU      expBias<>+0(SB), Y7

exploop:
	VMULPD      (SI), Y14, Y0
	VCMPPD      $0x09, Y9, Y0, Y1
	VCMPPD      $0x06, Y8, Y0, Y2
	VORPD       Y1, Y15, Y15
	VORPD       Y2, Y15, Y15
	VMAXPD      Y9, Y0, Y0
	VMINPD      Y8, Y0, Y0
	VMULPD      Y12, Y0, Y1
	VROUNDPD    $0, Y1, Y1
	VFMADD231PD Y11, Y1, Y0
	VFMADD231PD Y10, Y1, Y0
	VMOVUPD     expPoly<>+0(SB), Y2
	VFMADD213PD expPoly<>+32(SB), Y0, Y2
	VFMADD213PD expPoly<>+64(SB), Y0, Y2
	VFMADD213PD expPoly<>+96(SB), Y0, Y2
	VFMADD213PD expPoly<>+128(SB), Y0, Y2
	VFMADD213PD expPoly<>+160(SB), Y0, Y2
	VFMADD213PD expPoly<>+192(SB), Y0, Y2
	VFMADD213PD expPoly<>+224(SB), Y0, Y2
	VFMADD213PD expPoly<>+256(SB), Y0, Y2
	VFMADD213PD expPoly<>+288(SB), Y0, Y2
	VFMADD213PD expPoly<>+320(SB), Y0, Y2
	VFMADD213PD expPoly<>+352(SB), Y0, Y2
	VFMADD213PD expPoly<>+384(SB), Y0, Y2
	VFMADD213PD expPoly<>+416(SB), Y0, Y2
	VCVTPD2DQY  Y1, X3
	VPMOVSXDQ   X3, Y3
	VPADDQ      Y7, Y3, Y3
	VPSLLQ      $52, Y3, Y3
	VMULPD      Y3, Y2, Y2
	VMULPD      Y13, Y2, Y2
	VMOVUPD     Y2, (DI)
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $4, CX
	JNZ         exploop

	VMOVMSKPD Y15, AX
	VZEROUPPER
	MOVQ      AX, ret+40(FP)
	RET
