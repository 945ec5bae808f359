//go:build amd64 && !purego

#include "textflag.h"

// func binLanesAVX2(h *int32, lanes, a *float64, d, groups int, base, invw, lo, hi float64)
//
// For each lane group g (4 rows × d columns, column-interleaved: lanes[g·4d + 4j + l]):
//   x_l = Σ_j lanes[g][j][l]·a[j]           (VMULPD, VADDPD, column order, from 0)
//   t_l = min(max((x_l − base)·invw, lo), hi) + 1
//   h[trunc(t_l)]++                          (lanes in order 0..3)
// exactly as binRows rounds (it computes the same operations in the same order).
TEXT ·binLanesAVX2(SB), NOSPLIT, $0-72
	MOVQ         h+0(FP), DI
	MOVQ         lanes+8(FP), SI
	MOVQ         a+16(FP), DX
	MOVQ         d+24(FP), R8
	MOVQ         groups+32(FP), BX
	VBROADCASTSD base+40(FP), Y10
	VBROADCASTSD invw+48(FP), Y11
	VBROADCASTSD lo+56(FP), Y12
	VBROADCASTSD hi+64(FP), Y13
	MOVQ         $0x3ff0000000000000, AX // 1.0
	MOVQ         AX, X14
	VBROADCASTSD X14, Y14

group:
	CMPQ   BX, $0
	JEQ    done
	VXORPD Y0, Y0, Y0
	XORQ   AX, AX

col:
	VBROADCASTSD (DX)(AX*8), Y1
	VMULPD       (SI), Y1, Y2
	VADDPD       Y2, Y0, Y0
	ADDQ         $32, SI
	INCQ         AX
	CMPQ         AX, R8
	JLT          col

	VSUBPD      Y10, Y0, Y0
	VMULPD      Y11, Y0, Y0
	VMAXPD      Y12, Y0, Y0
	VMINPD      Y13, Y0, Y0
	VADDPD      Y14, Y0, Y0
	VCVTTPD2DQY Y0, X0
	VMOVQ       X0, R10
	VPEXTRQ     $1, X0, R11
	MOVL        R10, R12
	SHRQ        $32, R10
	INCL        (DI)(R12*4)
	INCL        (DI)(R10*4)
	MOVL        R11, R12
	SHRQ        $32, R11
	INCL        (DI)(R12*4)
	INCL        (DI)(R11*4)
	DECQ        BX
	JMP         group

done:
	VZEROUPPER
	RET
