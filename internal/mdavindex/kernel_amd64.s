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

// func quantMaskAVX2(codes *uint64, prm *float32, d, groups int, t float32) uint64
//
// quantMaskGo in AVX2: for each group of 8 rows, over the columns j (8 code bytes each),
//   acc += (max(|float32(c) − v_j| − h_j, 0) · Δ_j)²
// in float32; bit 8g+l of the result is set unless acc_l > t.
TEXT ·quantMaskAVX2(SB), NOSPLIT, $0-48
	MOVQ codes+0(FP), SI
	MOVQ prm+8(FP), DX
	MOVQ d+16(FP), R8
	MOVQ groups+24(FP), BX
	VBROADCASTSS t+32(FP), Y15
	VPCMPEQD Y14, Y14, Y14
	VPSRLD   $1, Y14, Y14 // 0x7fffffff: the absolute-value mask
	VXORPS   Y13, Y13, Y13
	XORQ     R9, R9
	XORQ     CX, CX

qgroup:
	VXORPS Y0, Y0, Y0
	MOVQ   DX, DI
	MOVQ   R8, R10

qcol:
	VPMOVZXBD    (SI), Y1
	VCVTDQ2PS    Y1, Y1
	VBROADCASTSS (DI), Y2
	VSUBPS       Y2, Y1, Y1
	VANDPS       Y14, Y1, Y1
	VBROADCASTSS 4(DI), Y3
	VSUBPS       Y3, Y1, Y1
	VMAXPS       Y13, Y1, Y1
	VBROADCASTSS 8(DI), Y4
	VMULPS       Y4, Y1, Y1
	VMULPS       Y1, Y1, Y1
	VADDPS       Y1, Y0, Y0
	ADDQ         $8, SI
	ADDQ         $12, DI
	DECQ         R10
	JNZ          qcol

	VCMPPS    $0x0E, Y15, Y0, Y5 // acc > t
	VMOVMSKPS Y5, AX
	NOTL      AX
	ANDL      $0xff, AX
	SHLQ      CX, AX
	ORQ       AX, R9
	ADDQ      $8, CX
	DECQ      BX
	JNZ       qgroup

	VZEROUPPER
	MOVQ R9, ret+40(FP)
	RET

// func quantUpperMaskAVX2(codes *uint16, prm *float32, d, groups int, t float32) uint64
//
// quantUpperMaskGo in AVX2: for each group of 8 rows, over the columns j (8 codes of 16 bits),
//   acc += ((|float32(c) − v_j| + h_j) · Δ_j)²
// in float32; bit 8g+l of the result is set unless acc_l < t.
TEXT ·quantUpperMaskAVX2(SB), NOSPLIT, $0-48
	MOVQ codes+0(FP), SI
	MOVQ prm+8(FP), DX
	MOVQ d+16(FP), R8
	MOVQ groups+24(FP), BX
	VBROADCASTSS t+32(FP), Y15
	VPCMPEQD Y14, Y14, Y14
	VPSRLD   $1, Y14, Y14 // 0x7fffffff: the absolute-value mask
	XORQ     R9, R9
	XORQ     CX, CX

ugroup:
	VXORPS Y0, Y0, Y0
	MOVQ   DX, DI
	MOVQ   R8, R10

ucol:
	VPMOVZXWD    (SI), Y1
	VCVTDQ2PS    Y1, Y1
	VBROADCASTSS (DI), Y2
	VSUBPS       Y2, Y1, Y1
	VANDPS       Y14, Y1, Y1
	VBROADCASTSS 4(DI), Y3
	VADDPS       Y3, Y1, Y1
	VBROADCASTSS 8(DI), Y4
	VMULPS       Y4, Y1, Y1
	VMULPS       Y1, Y1, Y1
	VADDPS       Y1, Y0, Y0
	ADDQ         $16, SI
	ADDQ         $12, DI
	DECQ         R10
	JNZ          ucol

	VCMPPS    $0x01, Y15, Y0, Y5 // acc < t
	VMOVMSKPS Y5, AX
	NOTL      AX
	ANDL      $0xff, AX
	SHLQ      CX, AX
	ORQ       AX, R9
	ADDQ      $8, CX
	DECQ      BX
	JNZ       ugroup

	VZEROUPPER
	MOVQ R9, ret+40(FP)
	RET

// func prefetchChildren(lbox, rbox *uint64, rnode *laneNode, rcnt *int32)
TEXT ·prefetchChildren(SB), NOSPLIT, $0-32
	MOVQ lbox+0(FP), AX
	MOVQ rbox+8(FP), BX
	MOVQ rnode+16(FP), CX
	MOVQ rcnt+24(FP), DX
	PREFETCHT0 (AX)
	PREFETCHT0 64(AX)
	PREFETCHT0 128(AX)
	PREFETCHT0 192(AX)
	PREFETCHT0 256(AX)
	PREFETCHT0 320(AX)
	PREFETCHT0 (BX)
	PREFETCHT0 64(BX)
	PREFETCHT0 128(BX)
	PREFETCHT0 192(BX)
	PREFETCHT0 256(BX)
	PREFETCHT0 320(BX)
	PREFETCHT0 (CX)
	PREFETCHT0 (DX)
	RET

// func prefetchRange(p *uint64, n int)
TEXT ·prefetchRange(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	ADDQ AX, CX
loop:
	CMPQ AX, CX
	JAE done
	PREFETCHT0 (AX)
	ADDQ $64, AX
	JMP loop
done:
	RET
