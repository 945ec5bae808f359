//go:build amd64 && !purego

#include "textflag.h"

// func colSumsAVX2(out, t *float64, mask *int64, d, rows, whole int)
//
// out[j] = Σ_b t[b·d + j] for j < d ≤ 16, added in row order from +0: lane j of the four
// accumulators Y0..Y3 (columns 0–3, 4–7, 8–11, 12–15) runs the sum of column j alone, so
// every column's additions are those of the scalar loop, in its order. The first whole rows
// are added with whole vectors, whose lanes past column d add the next row's values to sums
// that are not stored (the caller makes sure these reads stay in t); the other rows are read
// with masked loads (mask: 16 words, −1 for the columns below d, 0 above), which read
// nothing past the row. The sums are stored with the same masks.
TEXT ·colSumsAVX2(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ t+8(FP), SI
	MOVQ mask+16(FP), AX
	MOVQ d+24(FP), BX
	MOVQ rows+32(FP), R8
	MOVQ whole+40(FP), CX
	SUBQ CX, R8 // the rows read with masks
	VMOVDQU 0(AX), Y8
	VMOVDQU 32(AX), Y9
	VMOVDQU 64(AX), Y10
	VMOVDQU 96(AX), Y11
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	SHLQ $3, BX // row stride in bytes
	CMPQ BX, $32
	JLE  one
	CMPQ BX, $64
	JLE  two
	CMPQ BX, $96
	JLE  three

four:
	TESTQ CX, CX
	JZ   fourm
	VADDPD 0(SI), Y0, Y0
	VADDPD 32(SI), Y1, Y1
	VADDPD 64(SI), Y2, Y2
	VADDPD 96(SI), Y3, Y3
	ADDQ BX, SI
	DECQ CX
	JMP  four
fourm:
	TESTQ R8, R8
	JZ   store
	VMASKMOVPD 0(SI), Y8, Y4
	VMASKMOVPD 32(SI), Y9, Y5
	VMASKMOVPD 64(SI), Y10, Y6
	VMASKMOVPD 96(SI), Y11, Y7
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	VADDPD Y6, Y2, Y2
	VADDPD Y7, Y3, Y3
	ADDQ BX, SI
	DECQ R8
	JMP  fourm

three:
	TESTQ CX, CX
	JZ   threem
	VADDPD 0(SI), Y0, Y0
	VADDPD 32(SI), Y1, Y1
	VADDPD 64(SI), Y2, Y2
	ADDQ BX, SI
	DECQ CX
	JMP  three
threem:
	TESTQ R8, R8
	JZ   store
	VMASKMOVPD 0(SI), Y8, Y4
	VMASKMOVPD 32(SI), Y9, Y5
	VMASKMOVPD 64(SI), Y10, Y6
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	VADDPD Y6, Y2, Y2
	ADDQ BX, SI
	DECQ R8
	JMP  threem

two:
	TESTQ CX, CX
	JZ   twom
	VADDPD 0(SI), Y0, Y0
	VADDPD 32(SI), Y1, Y1
	ADDQ BX, SI
	DECQ CX
	JMP  two
twom:
	TESTQ R8, R8
	JZ   store
	VMASKMOVPD 0(SI), Y8, Y4
	VMASKMOVPD 32(SI), Y9, Y5
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y1, Y1
	ADDQ BX, SI
	DECQ R8
	JMP  twom

one:
	TESTQ CX, CX
	JZ   onem
	VADDPD 0(SI), Y0, Y0
	ADDQ BX, SI
	DECQ CX
	JMP  one
onem:
	TESTQ R8, R8
	JZ   store
	VMASKMOVPD 0(SI), Y8, Y4
	VADDPD Y4, Y0, Y0
	ADDQ BX, SI
	DECQ R8
	JMP  onem

store:
	VMASKMOVPD Y0, Y8, 0(DI)
	VMASKMOVPD Y1, Y9, 32(DI)
	VMASKMOVPD Y2, Y10, 64(DI)
	VMASKMOVPD Y3, Y11, 96(DI)
	VZEROUPPER
	RET
