//go:build amd64 && !purego

#include "textflag.h"

// func distLanesAVX2(out, rows, qb *float64, d, groups int)
//
// For each lane group g (4 rows × d columns, column-interleaved) and lane l:
//   out[4g+l] = Σ_j (rows[g][j][l] − qb[j][l])²  accumulated in column order,
// with VSUBPD, VMULPD and VADDPD (no FMA), exactly as the portable kernel rounds.
TEXT ·distLanesAVX2(SB), NOSPLIT, $0-40
	MOVQ out+0(FP), DI
	MOVQ rows+8(FP), SI
	MOVQ qb+16(FP), DX
	MOVQ d+24(FP), R8
	MOVQ groups+32(FP), BX
	SHLQ $5, R8 // bytes per lane group: d·4·8

four:
	CMPQ BX, $4
	JLT  one
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	LEAQ (SI)(R8*1), R10
	LEAQ (R10)(R8*1), R11
	LEAQ (R11)(R8*1), R12
	XORQ AX, AX

col4:
	VMOVUPD (DX)(AX*1), Y4
	VMOVUPD (SI)(AX*1), Y5
	VMOVUPD (R10)(AX*1), Y6
	VMOVUPD (R11)(AX*1), Y7
	VMOVUPD (R12)(AX*1), Y8
	VSUBPD  Y4, Y5, Y5
	VSUBPD  Y4, Y6, Y6
	VSUBPD  Y4, Y7, Y7
	VSUBPD  Y4, Y8, Y8
	VMULPD  Y5, Y5, Y5
	VMULPD  Y6, Y6, Y6
	VMULPD  Y7, Y7, Y7
	VMULPD  Y8, Y8, Y8
	VADDPD  Y5, Y0, Y0
	VADDPD  Y6, Y1, Y1
	VADDPD  Y7, Y2, Y2
	VADDPD  Y8, Y3, Y3
	ADDQ    $32, AX
	CMPQ    AX, R8
	JLT     col4

	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ    $128, DI
	LEAQ    (R12)(R8*1), SI
	SUBQ    $4, BX
	JMP     four

one:
	CMPQ BX, $0
	JEQ  done
	VXORPD Y0, Y0, Y0
	XORQ AX, AX

col1:
	VMOVUPD (DX)(AX*1), Y4
	VMOVUPD (SI)(AX*1), Y5
	VSUBPD  Y4, Y5, Y5
	VMULPD  Y5, Y5, Y5
	VADDPD  Y5, Y0, Y0
	ADDQ    $32, AX
	CMPQ    AX, R8
	JLT     col1

	VMOVUPD Y0, (DI)
	ADDQ    $32, DI
	ADDQ    R8, SI
	DECQ    BX
	JMP     one

done:
	VZEROUPPER
	RET
