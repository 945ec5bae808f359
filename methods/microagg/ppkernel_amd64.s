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

// BIN counts the four projections in register Y (X its lower half) in h (DI), lanes in order.
#define BIN(Y, X) \
	VSUBPD      Y10, Y, Y   \
	VMULPD      Y11, Y, Y   \
	VMAXPD      Y12, Y, Y   \
	VMINPD      Y13, Y, Y   \
	VADDPD      Y14, Y, Y   \
	VCVTTPD2DQY Y, X        \
	VMOVQ       X, R10      \
	VPEXTRQ     $1, X, R11  \
	MOVL        R10, R12    \
	SHRQ        $32, R10    \
	INCL        (DI)(R12*4) \
	INCL        (DI)(R10*4) \
	MOVL        R11, R12    \
	SHRQ        $32, R11    \
	INCL        (DI)(R12*4) \
	INCL        (DI)(R11*4)

	MOVQ R8, R9
	SHLQ $5, R9 // bytes per lane group: 4·d·8

four: // four groups at a time, each column's broadcast shared
	CMPQ   BX, $4
	JLT    group
	VXORPD Y0, Y0, Y0
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	LEAQ   (SI)(R9*2), R13 // groups 2 and 3: (R13), (R13)(R9*1)
	XORQ   AX, AX

col4:
	VBROADCASTSD (DX)(AX*8), Y1
	VMULPD       (SI), Y1, Y2
	VMULPD       (SI)(R9*1), Y1, Y6
	VMULPD       (R13), Y1, Y7
	VMULPD       (R13)(R9*1), Y1, Y8
	VADDPD       Y2, Y0, Y0
	VADDPD       Y6, Y3, Y3
	VADDPD       Y7, Y4, Y4
	VADDPD       Y8, Y5, Y5
	ADDQ         $32, SI
	ADDQ         $32, R13
	INCQ         AX
	CMPQ         AX, R8
	JLT          col4

	BIN(Y0, X0)
	BIN(Y3, X3)
	BIN(Y4, X4)
	BIN(Y5, X5)
	LEAQ (R13)(R9*1), SI
	SUBQ $4, BX
	JMP  four

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

	BIN(Y0, X0)
	DECQ BX
	JMP  group

done:
	VZEROUPPER
	RET
