//go:build amd64 && !purego

#include "textflag.h"

// SUMQUAD adds column (off bytes into the lane group at p) of the four blocks at p, p+R9,
// p+2·R9, p+R11 to acc: their four vectors (one per block, its four rows in the lanes) are
// transposed so that each holds one row of the four blocks, and the rows are added in order
// with the accumulator as VADDPD's first operand, as the scalar loop's ADDSD.
#define SUMQUAD(off, p, acc) \
	VMOVUPD    off(p), Y0 \
	VMOVUPD    off(p)(R9*1), Y1 \
	VMOVUPD    off(p)(R9*2), Y2 \
	VMOVUPD    off(p)(R11*1), Y3 \
	VUNPCKLPD  Y1, Y0, Y8 \
	VUNPCKHPD  Y1, Y0, Y9 \
	VUNPCKLPD  Y3, Y2, Y10 \
	VUNPCKHPD  Y3, Y2, Y11 \
	VPERM2F128 $0x20, Y10, Y8, Y0 \
	VPERM2F128 $0x20, Y11, Y9, Y1 \
	VPERM2F128 $0x31, Y10, Y8, Y2 \
	VPERM2F128 $0x31, Y11, Y9, Y3 \
	VADDPD     Y0, acc, acc \
	VADDPD     Y1, acc, acc \
	VADDPD     Y2, acc, acc \
	VADDPD     Y3, acc, acc

// func sumBlocks8AVX2(out, rows *float64, d int)
//
// The column sums of the eight sum blocks of 64 rows that start at rows (a lane buffer of d
// columns, mdavindex.LaneOffset): out[8j+i] = Σ_t rows[block i, row t, column j], added in
// row order t = 0..63 from +0. Lane i of an accumulator runs the sum of block i (of blocks
// 0–3 or 4–7) and column j alone (SUMQUAD), so every block's additions are the scalar loop's.
// Two columns at a time keep four chains of additions in flight; an odd last column is
// summed alone.
TEXT ·sumBlocks8AVX2(SB), NOSPLIT, $0-24
	MOVQ out+0(FP), DI
	MOVQ rows+8(FP), SI
	MOVQ d+16(FP), CX
	MOVQ CX, R8
	SHLQ $5, R8              // lane group stride: 4·d·8 bytes
	MOVQ CX, R9
	SHLQ $9, R9              // block stride: 64·d·8 bytes
	LEAQ (R9)(R9*2), R11     // three blocks
	LEAQ (SI)(R9*4), R10     // block 4

pair:
	CMPQ   CX, $2
	JLT    single
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	VXORPD Y15, Y15, Y15
	MOVQ   SI, AX
	MOVQ   R10, BX
	MOVQ   $16, DX

pairgrp:
	SUMQUAD(0, AX, Y12)
	SUMQUAD(0, BX, Y13)
	SUMQUAD(32, AX, Y14)
	SUMQUAD(32, BX, Y15)
	ADDQ R8, AX
	ADDQ R8, BX
	DECQ DX
	JNZ  pairgrp

	VMOVUPD Y12, (DI)
	VMOVUPD Y13, 32(DI)
	VMOVUPD Y14, 64(DI)
	VMOVUPD Y15, 96(DI)
	ADDQ    $128, DI
	ADDQ    $64, SI
	ADDQ    $64, R10
	SUBQ    $2, CX
	JMP     pair

single:
	TESTQ  CX, CX
	JEQ    sumsdone
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	MOVQ   SI, AX
	MOVQ   R10, BX
	MOVQ   $16, DX

grp:
	SUMQUAD(0, AX, Y12)
	SUMQUAD(0, BX, Y13)
	ADDQ R8, AX
	ADDQ R8, BX
	DECQ DX
	JNZ  grp

	VMOVUPD Y12, (DI)
	VMOVUPD Y13, 32(DI)

sumsdone:
	VZEROUPPER
	RET

// The lane constants of scanLanesAVX2: the lane numbers, the step of a lane group, and
// math.NaN()'s bits (the distance of a dead row, as maskDead writes it).
DATA scanIota<>+0(SB)/8, $0
DATA scanIota<>+8(SB)/8, $1
DATA scanIota<>+16(SB)/8, $2
DATA scanIota<>+24(SB)/8, $3
GLOBL scanIota<>(SB), RODATA|NOPTR, $32
DATA scanFour<>+0(SB)/8, $4
GLOBL scanFour<>(SB), RODATA|NOPTR, $8
DATA scanNaN<>+0(SB)/8, $0x7ff8000000000001
GLOBL scanNaN<>(SB), RODATA|NOPTR, $8
DATA scanMinus1<>+0(SB)/8, $-1.0
GLOBL scanMinus1<>(SB), RODATA|NOPTR, $8

// func scanLanesAVX2(dist, rows, qb *float64, dead *bool, bm *uint64, best *float64, arg *int, d, groups, first, limit int, tau float64)
//
// For each lane group g (rows first+4g … first+4g+3, of which those below limit and not
// dead are live): the squared distances to the point broadcast in qb, accumulated in column
// order with VSUBPD, VMULPD and VADDPD as distLanesAVX2 does, stored to dist with math.NaN()
// for the rows that are not live; lane l of best and arg keeps the largest distance of lane l
// (strictly larger replaces, so the lowest row on ties) and its row, from −1 and −1; bit
// 4g+l of the bitmap bm (words written in order) is set when the distance is ≤ tau (false for
// NaN).
TEXT ·scanLanesAVX2(SB), NOSPLIT, $0-96
	MOVQ dist+0(FP), DI
	MOVQ rows+8(FP), SI
	MOVQ qb+16(FP), DX
	MOVQ dead+24(FP), R9
	MOVQ bm+32(FP), R10
	MOVQ d+56(FP), R8
	SHLQ $5, R8 // bytes per lane group: d·4·8
	MOVQ groups+64(FP), BX
	VBROADCASTSD tau+88(FP), Y15
	VPBROADCASTQ first+72(FP), Y14
	VPADDQ       scanIota<>(SB), Y14, Y14
	VPBROADCASTQ scanFour<>(SB), Y13
	VBROADCASTSD scanMinus1<>(SB), Y12
	VPCMPEQQ     Y11, Y11, Y11
	VBROADCASTSD scanNaN<>(SB), Y10
	VPBROADCASTQ limit+80(FP), Y9
	VPXOR        Y8, Y8, Y8
	XORQ         R12, R12 // bits of the bitmap word being filled
	XORQ         CX, CX   // their count

group:
	VXORPD Y0, Y0, Y0
	XORQ   AX, AX

col:
	VMOVUPD (DX)(AX*1), Y4
	VMOVUPD (SI)(AX*1), Y5
	VSUBPD  Y4, Y5, Y5
	VMULPD  Y5, Y5, Y5
	VADDPD  Y5, Y0, Y0
	ADDQ    $32, AX
	CMPQ    AX, R8
	JLT     col

	VPMOVZXBQ (R9), Y6          // the four dead flags
	VPCMPEQQ  Y8, Y6, Y6        // not dead
	VPCMPGTQ  Y14, Y9, Y7       // below limit
	VPAND     Y7, Y6, Y6
	VBLENDVPD Y6, Y0, Y10, Y0   // live ? distance : NaN
	VMOVUPD   Y0, (DI)
	VCMPPD    $0x1e, Y12, Y0, Y7 // distance > best (false for NaN)
	VBLENDVPD Y7, Y0, Y12, Y12
	VBLENDVPD Y7, Y14, Y11, Y11
	VCMPPD    $0x12, Y15, Y0, Y7 // distance ≤ tau (false for NaN)
	VMOVMSKPD Y7, AX
	SHLQ      CL, AX
	ORQ       AX, R12
	ADDQ      $4, CX
	CMPQ      CX, $64
	JLT       next
	MOVQ      R12, (R10)
	ADDQ      $8, R10
	XORQ      R12, R12
	XORQ      CX, CX

next:
	VPADDQ Y13, Y14, Y14
	ADDQ   R8, SI
	ADDQ   $32, DI
	ADDQ   $4, R9
	DECQ   BX
	JNZ    group

	TESTQ CX, CX
	JEQ   done
	MOVQ  R12, (R10)

done:
	MOVQ    best+40(FP), AX
	VMOVUPD Y12, (AX)
	MOVQ    arg+48(FP), AX
	VMOVDQU Y11, (AX)
	VZEROUPPER
	RET

// func compactLanesAVX2(rows *float64, act *int32, dead *bool, d, w, m int) int
//
// The compaction of maintain from buffer row w (the first dead row) on: for t = w … m−1, row
// t's d values (lane stride 32 bytes) and act[t] are copied to row w, and w advances unless
// row t is dead; it returns the final w. Scalar moves, four columns at a time.
TEXT ·compactLanesAVX2(SB), NOSPLIT, $0-56
	MOVQ rows+0(FP), SI
	MOVQ act+8(FP), R9
	MOVQ dead+16(FP), R10
	MOVQ d+24(FP), CX
	MOVQ w+32(FP), DI
	MOVQ m+40(FP), R11
	MOVQ CX, R8
	SHLQ $5, R8 // bytes per lane group
	MOVQ CX, R15
	ANDQ $3, R15 // columns after the last four
	SHRQ $2, CX  // runs of four columns
	MOVQ DI, BX  // t

row:
	CMPQ BX, R11
	JGE  done
	MOVQ BX, AX
	SHRQ $2, AX
	IMULQ R8, AX
	MOVQ BX, DX
	ANDQ $3, DX
	LEAQ (AX)(DX*8), AX
	ADDQ SI, AX // &row t, column 0
	MOVQ DI, R12
	SHRQ $2, R12
	IMULQ R8, R12
	MOVQ DI, DX
	ANDQ $3, DX
	LEAQ (R12)(DX*8), R12
	ADDQ SI, R12 // &row w, column 0
	MOVQ CX, R13
	TESTQ R13, R13
	JEQ  rest

four:
	MOVQ 0(AX), R14
	MOVQ R14, 0(R12)
	MOVQ 32(AX), R14
	MOVQ R14, 32(R12)
	MOVQ 64(AX), R14
	MOVQ R14, 64(R12)
	MOVQ 96(AX), R14
	MOVQ R14, 96(R12)
	ADDQ $128, AX
	ADDQ $128, R12
	DECQ R13
	JNZ  four

rest:
	MOVQ R15, R13
	TESTQ R13, R13
	JEQ  copied

one:
	MOVQ 0(AX), R14
	MOVQ R14, 0(R12)
	ADDQ $32, AX
	ADDQ $32, R12
	DECQ R13
	JNZ  one

copied:
	MOVL    (R9)(BX*4), R14
	MOVL    R14, (R9)(DI*4)
	MOVBQZX (R10)(BX*1), R14
	XORQ    $1, R14
	ADDQ    R14, DI
	INCQ    BX
	JMP     row

done:
	MOVQ DI, ret+48(FP)
	RET
