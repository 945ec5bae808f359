//go:build amd64 && !purego

#include "textflag.h"
#include "csvscan_amd64.h"

// numGroupAVX512 parses up to sixteen fields of a numeric line at once (csvscan_amd64.go has
// the contract, docs/datapath.md the design). Frame layout (hardware SP), for the window of
// 256 bytes from the group's first field, four words a mask, bit i for byte i:
//   0: separators (commas, and the line's end)   32: points   64: minus signs
// 160: the first 16 separators' positions (bytes)   176: the first 32 points' positions
// 192: the values of the 16 fields (written after the points' positions are read).

// iota<>: the bytes 0 to 63.
DATA iota<>+0(SB)/8, $0x0706050403020100
DATA iota<>+8(SB)/8, $0x0f0e0d0c0b0a0908
DATA iota<>+16(SB)/8, $0x1716151413121110
DATA iota<>+24(SB)/8, $0x1f1e1d1c1b1a1918
DATA iota<>+32(SB)/8, $0x2726252423222120
DATA iota<>+40(SB)/8, $0x2f2e2d2c2b2a2928
DATA iota<>+48(SB)/8, $0x3736353433323130
DATA iota<>+56(SB)/8, $0x3f3e3d3c3b3a3938
GLOBL iota<>(SB), RODATA|NOPTR, $64

// lanes<>: the lane index j, 0 to 7.
DATA lanes<>+0(SB)/8, $0
DATA lanes<>+8(SB)/8, $1
DATA lanes<>+16(SB)/8, $2
DATA lanes<>+24(SB)/8, $3
DATA lanes<>+32(SB)/8, $4
DATA lanes<>+40(SB)/8, $5
DATA lanes<>+48(SB)/8, $6
DATA lanes<>+56(SB)/8, $7
GLOBL lanes<>(SB), RODATA|NOPTR, $64

// func numGroupAVX512(p *byte, pos, end int, out *float64, cnt, last int, pow10 *float64, negPows *[2][24]uint64) (e, taken int)
TEXT ·numGroupAVX512(SB), $320-80
	MOVQ p+0(FP), SI
	MOVQ pos+8(FP), AX
	ADDQ AX, SI
	MOVQ end+16(FP), CX
	SUBQ AX, CX // CX = n: the line's bytes from pos

	MOVL         $0x30, AX
	VPBROADCASTB AX, Z20
	MOVL         $10, AX
	VPBROADCASTB AX, Z21
	MOVL         $0x2c, AX // ','
	VPBROADCASTB AX, Z22
	MOVL         $0x2e, AX // '.'
	VPBROADCASTB AX, Z23
	MOVL         $0x2d, AX // '-'
	VPBROADCASTB AX, Z24
	XORQ         R8, R8

	VMOVDQU64 iota<>(SB), Z26
	BLOCK(0, 0, Z27)
	CMPQ      CX, $64
	JAE       blocks4

	// a line that ends within 64 bytes (the last fields of a line): one block
	MOVQ        0(SP), BX
	BTSQ        CX, BX // the line's end is a separator
	MOVQ        BX, 0(SP)
	XORL        AX, AX
	MOVQ        AX, 8(SP)
	MOVQ        AX, 16(SP)
	MOVQ        AX, 24(SP)
	MOVQ        AX, 40(SP)
	MOVQ        AX, 48(SP)
	MOVQ        AX, 56(SP)
	MOVQ        AX, 72(SP)
	MOVQ        AX, 80(SP)
	MOVQ        AX, 88(SP)
	KMOVQ       BX, K1
	VPCOMPRESSB Z26, K1, Z0
	POPCNTQ     BX, R9
	KMOVQ       32(SP), K1
	VPCOMPRESSB Z26, K1, Z1
	POPCNTQ     32(SP), R10
	JMP         lists

blocks4:
	BLOCK(64, 8, Z28)
	BLOCK(128, 16, Z29)
	CMPQ CX, $192
	JAE  block4

	// a line that ends within 192 bytes: three blocks
	XORL         AX, AX
	MOVQ         AX, 24(SP)
	MOVQ         AX, 56(SP)
	MOVQ         AX, 88(SP)
	MOVQ         CX, AX
	SHRQ         $6, AX
	LEAQ         0(SP), DI
	MOVQ         (DI)(AX*8), BX
	BTSQ         CX, BX // the line's end is a separator
	MOVQ         BX, (DI)(AX*8)
	MOVL         $64, AX
	VPBROADCASTB AX, Z9
	VPADDB       Z9, Z26, Z13
	VPADDB       Z9, Z13, Z14
	LIST3(0, Z0, Z1, Z2)
	MOVQ         R10, R9
	LIST3(32, Z1, Z2, Z3)
	JMP          lists

block4:
	BLOCK(192, 24, Z22)

	// the line's end is a separator when it lies in the window
	CMPQ CX, $256
	JAE  noend
	MOVQ CX, AX
	SHRQ $6, AX
	LEAQ 0(SP), DI
	MOVQ (DI)(AX*8), BX
	BTSQ CX, BX
	MOVQ BX, (DI)(AX*8)

noend:
	// the positions of the separators (Z0, R9 of them) and points (Z1, R10)
	MOVL         $64, AX
	VPBROADCASTB AX, Z9
	VPADDB       Z9, Z26, Z13
	VPADDB       Z9, Z13, Z14
	VPADDB       Z9, Z14, Z15
	LIST(0, Z0, Z1, Z2, Z3)
	MOVQ         R10, R9
	LIST(32, Z1, Z2, Z3, Z4)

lists:
	VMOVDQU8 X0, 160(SP)
	VMOVDQU8 Y1, 176(SP) // 32 bytes: the 17th point too
	TESTQ    R8, R8
	JNZ      fail // a byte that is not a digit, a comma, a point or a minus sign
	MOVQ     cnt+32(FP), BX
	CMPQ     R9, BX
	JGE      enough
	// fewer fields end in the window than asked for: the fields that do, not the last cell
	MOVQ     R9, BX
	TESTQ    BX, BX
	JZ       fail
	MOVQ     BX, cnt+32(FP)
	MOVQ     $0, last+40(FP)

enough:
	CMPQ    R10, BX
	JLT     fail
	MOVBQZX 159(SP)(BX*1), R11 // the last field's separator
	JEQ     points
	MOVBQZX 176(SP)(BX*1), AX // the first point after the group's fields
	CMPQ    AX, R11
	JLT     fail // a field with two points

points:
	MOVQ  last+40(FP), AX
	TESTQ AX, AX
	JZ    notlast
	CMPQ  R11, CX
	JNE   fail
	JMP   checks

notlast:
	CMPQ R11, CX
	JAE  fail

checks:
	// field starts: after each separator, and at 0 (R13, R9, R10, SI: words 0 to 3)
	MOVQ 0(SP), R12
	MOVQ 8(SP), R13
	MOVQ 16(SP), R9
	MOVQ 24(SP), SI
	SHLQ $1, SI
	MOVQ R9, DX
	SHRQ $63, DX
	ORQ  DX, SI
	MOVQ R9, R10
	SHLQ $1, R10
	MOVQ R13, DX
	SHRQ $63, DX
	ORQ  DX, R10
	MOVQ R13, R9
	SHLQ $1, R9
	MOVQ R12, DX
	SHRQ $63, DX
	ORQ  DX, R9
	MOVQ R12, R13
	SHLQ $1, R13
	ORQ  $1, R13

	// the fields' minus signs (R12, BX), bit j for field j
	XORQ R12, R12
	XORQ CX, CX
	SIGNS(0, R13)
	SIGNS(8, R9)
	SIGNS(16, R10)
	SIGNS(24, SI)
	MOVQ R12, BX

	// constants of the lanes
	VPXORQ       Z31, Z31, Z31
	MOVL         $1, AX
	VPBROADCASTQ AX, Z30
	MOVL         $64, AX
	VPBROADCASTQ AX, Z15
	MOVL         $8, AX
	VPBROADCASTQ AX, Z21
	VPTERNLOGQ   $0xff, Z16, Z16, Z16
	MOVQ         $0x0808080808080808, AX
	VPBROADCASTQ AX, Z17
	VPUNPCKLQDQ  Z17, Z31, Z17 // Intel order: the low word from Z31 (0), the high from Z17
	MOVQ         $0xfffefdfcfbfaf9f8, AX
	VPBROADCASTQ AX, Z18
	MOVL         $0x010a, AX
	VPBROADCASTW AX, Z23
	MOVL         $0x00010064, AX
	VPBROADCASTD AX, Z25
	MOVL         $10000, AX
	VPBROADCASTQ AX, Z26
	MOVW         $0x5555, AX
	KMOVW        AX, K5 // the low halves of the words
	VPXORQ       Z24, Z24, Z24 // E + 1 of the previous lanes
	MOVQ         pow10+48(FP), R9
	MOVQ         negPows+56(FP), R13
	MOVQ         cnt+32(FP), CX
	XORQ         R8, R8

	// eight fields at a time: E the separators, P the points, S the starts
half:
	MOVQ         CX, AX
	MOVL         $8, DX
	CMPQ         AX, DX
	CMOVQGT      DX, AX
	MOVL         $1, DX
	SHLXQ        AX, DX, DX
	DECQ         DX
	KMOVB        DX, K7 // the lanes of fields
	VPMOVZXBQ    X0, Z2 // E
	VPMOVZXBQ    X1, Z3 // P
	VPADDQ       Z30, Z2, Z8
	VALIGNQ      $7, Z24, Z8, Z10 // S
	VMOVDQA64    Z8, Z24
	VPBROADCASTQ R12, Z11
	VPSRLVQ      lanes<>+0(SB), Z11, Z11
	VPANDQ       Z30, Z11, Z11 // sgn
	VPSUBQ       Z10, Z3, Z6
	VPSUBQ       Z11, Z6, Z6 // integer digits
	VPSUBQ       Z3, Z2, Z7
	VPSUBQ       Z30, Z7, Z7 // fraction digits
	VPADDQ       Z6, Z7, Z8  // digits
	VPCMPQ       $5, Z31, Z6, K1 // int ≥ 0
	VPCMPQ       $5, Z31, Z7, K2 // frac ≥ 0
	KANDB        K1, K2, K1
	MOVL         $19, AX
	VPBROADCASTQ AX, Z9
	VPSUBQ       Z30, Z8, Z10
	VPCMPUQ      $1, Z9, Z10, K3 // 1 ≤ digits ≤ 19
	KANDB        K1, K3, K1
	KANDNB       K7, K1, K2
	KORTESTB     K2, K2
	JNZ          fail

	// the field's last 24 bytes without the point, as digit values, in three words
	VPSHUFB      Z17, Z3, Z4 // P in each byte
	EXTRACT(Z2, Z10)
	VPSUBQ       Z21, Z2, Z2
	EXTRACT(Z2, Z11)
	VPSUBQ       Z21, Z2, Z2
	EXTRACT(Z2, Z12)
	VPBROADCASTQ BX, Z2
	VPSRLVQ      lanes<>+0(SB), Z2, Z2
	VPSLLQ       $63, Z2, Z2 // the sign bit of a negative field
	VPSUBB       Z20, Z10, Z10
	VPSUBB       Z20, Z11, Z11
	VPSUBB       Z20, Z12, Z12

	// each word's digits of the field: its top min(L − 8i, 8) bytes
	VPSLLQ     $3, Z8, Z14
	VPSUBQ     Z14, Z15, Z14 // 64 − 8L
	VPMAXSQ    Z31, Z14, Z13
	VPSLLVQ    Z13, Z16, Z13
	VPANDQ     Z13, Z10, Z10
	VPADDQ     Z15, Z14, Z14
	VPMAXSQ    Z31, Z14, Z13
	VPSLLVQ    Z13, Z16, Z13
	VPANDQ     Z13, Z11, Z11
	VPADDQ     Z15, Z14, Z14
	VPMAXSQ    Z31, Z14, Z13
	VPSLLVQ    Z13, Z16, Z13
	VPANDQ     Z13, Z12, Z12

	// the value of each word's eight digits (the first in its lowest byte)
	VPMADDUBSW Z23, Z10, Z10
	VPMADDUBSW Z23, Z11, Z11
	VPMADDUBSW Z23, Z12, Z12
	VPMADDWD   Z25, Z10, Z10
	VPMADDWD   Z25, Z11, Z11
	VPMADDWD   Z25, Z12, Z12
	VPMULUDQ   Z26, Z10, Z13
	VPSRLQ     $32, Z10, Z10
	VPADDQ     Z13, Z10, Z10
	VPMULUDQ   Z26, Z11, Z13
	VPSRLQ     $32, Z11, Z11
	VPADDQ     Z13, Z11, Z11
	VPMULUDQ   Z26, Z12, Z13
	VPSRLQ     $32, Z12, Z12
	VPADDQ     Z13, Z12, Z12

	// m = W2·10^16 + W1·10^8 + W0 (< 10^19)
	MOVQ         $10000000000000000, AX
	VPBROADCASTQ AX, Z14
	VPMULLQ      Z14, Z12, Z12
	MOVL         $100000000, AX
	VPBROADCASTQ AX, Z14
	VPMULUDQ     Z14, Z11, Z11
	VPADDQ       Z12, Z11, Z11
	VPADDQ       Z10, Z11, Z11 // m
	VMOVDQA64    Z2, Z12       // the sign bits

	// Clinger: m ≤ 2^53, frac ≤ 19: float64(m) / 10^frac, exactly parseDecimalPrefix's
	VMOVUPD      (R9), Z19
	MOVL         $16, AX
	VPBROADCASTQ AX, Z6
	MOVQ         $0x20000000000000, AX
	VPBROADCASTQ AX, Z14
	VPCMPUQ      $2, Z14, Z11, K2 // m ≤ 2^53
	VCVTUQQ2PD   Z11, Z13
	VMOVDQA64    Z7, Z14
	VPERMI2PD    64(R9), Z19, Z14 // 10^frac for frac < 16
	VPERMPD      128(R9), Z7, Z10 // 10^frac for frac ≥ 16
	VPTESTMQ     Z6, Z7, K1
	VMOVAPD      Z10, K1, Z14
	VDIVPD       Z14, Z13, Z13
	VPORQ        Z12, Z13, Z13
	KANDNB       K7, K2, K6 // the lanes for Eisel–Lemire
	KORTESTB     K6, K6
	JZ           halfdone

	// Eisel–Lemire for m > 2^53 (eiselLemire's common case; its rare cases fail the group)
	VPTESTMQ     Z6, Z7, K2 // frac ≥ 16
	VMOVDQU64    (R13), Z3
	VMOVDQA64    Z7, Z14
	VPERMI2Q     64(R13), Z3, Z14
	VPERMQ       128(R13), Z7, Z2
	VMOVDQA64    Z2, K2, Z14 // the mantissa of 10^−frac
	VMOVDQU64    192(R13), Z3
	VMOVDQA64    Z7, Z4
	VPERMI2Q     256(R13), Z3, Z4
	VPERMQ       320(R13), Z7, Z2
	VMOVDQA64    Z2, K2, Z4 // its binary exponent
	VPLZCNTQ     Z11, Z19
	VPSLLVQ      Z19, Z11, Z11 // mm, m normalized
	VPSRLQ       $32, Z11, Z5
	VPSRLQ       $32, Z14, Z6
	VPMULUDQ     Z14, Z11, Z2 // the four products of the 32-bit halves
	VPMULUDQ     Z6, Z11, Z3
	VPMULUDQ     Z14, Z5, Z8
	VPMULUDQ     Z6, Z5, Z9
	VPSRLQ       $32, Z2, Z10
	VMOVDQA32.Z  Z3, K5, Z7
	VPADDQ       Z7, Z10, Z10
	VMOVDQA32.Z  Z8, K5, Z7
	VPADDQ       Z7, Z10, Z10 // the middle sum
	VMOVDQA32.Z  Z2, K5, Z2
	VPSLLQ       $32, Z10, Z7
	VPORQ        Z7, Z2, Z2 // xLo
	VPSRLQ       $32, Z3, Z3
	VPADDQ       Z3, Z9, Z9
	VPSRLQ       $32, Z8, Z8
	VPADDQ       Z8, Z9, Z9
	VPSRLQ       $32, Z10, Z10
	VPADDQ       Z10, Z9, Z9 // xHi
	VPSRLQ       $63, Z9, Z5 // msb
	MOVL         $9, AX
	VPBROADCASTQ AX, Z6
	VPADDQ       Z5, Z6, Z6
	VPSRLVQ      Z6, Z9, Z6 // mant
	MOVL         $1086, AX
	VPBROADCASTQ AX, Z3
	VPADDQ       Z3, Z4, Z4
	VPSUBQ       Z19, Z4, Z4
	VPXORQ       Z30, Z5, Z5
	VPSUBQ       Z5, Z4, Z4 // the biased exponent
	// fail: xHi&0x1FF == 0x1FF and xLo+mm carries (the wider product is needed)
	MOVL         $0x1ff, AX
	VPBROADCASTQ AX, Z3
	VPANDQ       Z3, Z9, Z8
	VPCMPEQQ     Z3, Z8, K1
	VPADDQ       Z11, Z2, Z10
	VPCMPUQ      $1, Z11, Z10, K2
	KANDB        K1, K2, K3
	// fail: xLo == 0, xHi&0x1FF == 0, mant&3 == 1 (a possible halfway tie)
	VPTESTNMQ    Z2, Z2, K1
	VPTESTNMQ    Z3, Z9, K2
	KANDB        K1, K2, K1
	MOVL         $3, AX
	VPBROADCASTQ AX, Z8
	VPANDQ       Z8, Z6, Z8
	VPCMPEQQ     Z30, Z8, K2
	KANDB        K1, K2, K1
	KORB         K1, K3, K3
	// round to 53 bits
	VPANDQ       Z30, Z6, Z8
	VPADDQ       Z8, Z6, Z6
	VPSRLQ       $54, Z6, Z8 // the rounding carried into a 54th bit
	VPADDQ       Z8, Z4, Z4
	VPADDQ       Z30, Z8, Z8
	VPSRLVQ      Z8, Z6, Z6
	// fail: not a normal number
	VPSUBQ       Z30, Z4, Z8
	MOVL         $0x7fe, AX
	VPBROADCASTQ AX, Z10
	VPCMPUQ      $5, Z10, Z8, K1
	KORB         K1, K3, K3
	KANDB        K6, K3, K3
	KORTESTB     K3, K3
	JNZ          fail
	VPSLLQ       $52, Z4, Z4
	MOVQ         $0xfffffffffffff, AX
	VPBROADCASTQ AX, Z10
	VPANDQ       Z10, Z6, Z6
	VPORQ        Z6, Z4, Z4
	VPORQ        Z12, Z4, Z4
	VMOVDQA64    Z4, K6, Z13

halfdone:
	VMOVDQU64 Z13, 192(SP)(R8*1)
	ADDQ      $64, R8
	SUBQ      $8, CX
	JLE       store
	SHRQ      $8, R12
	SHRQ      $8, BX
	VPSRLDQ   $8, X0, X0
	VPSRLDQ   $8, X1, X1
	JMP       half

store:
	// all fields taken: their values to out
	MOVQ      out+24(FP), DI
	MOVQ      cnt+32(FP), CX
	MOVQ      CX, AX
	MOVL      $8, DX
	CMPQ      AX, DX
	CMOVQGT   DX, AX
	MOVL      $1, DX
	SHLXQ     AX, DX, DX
	DECQ      DX
	KMOVB     DX, K1
	VMOVDQU64 192(SP), Z0
	VMOVDQU64 Z0, K1, (DI)
	SUBQ      $8, CX
	JLE       done
	MOVL      $1, DX
	SHLXQ     CX, DX, DX
	DECQ      DX
	KMOVB     DX, K1
	VMOVDQU64 256(SP), Z0
	VMOVDQU64 Z0, K1, 64(DI)

done:
	MOVQ pos+8(FP), AX
	ADDQ R11, AX
	MOVQ AX, e+64(FP)
	MOVQ cnt+32(FP), AX
	MOVQ AX, taken+72(FP)
	VZEROUPPER
	RET

fail:
	MOVQ $0, e+64(FP)
	MOVQ $0, taken+72(FP)
	VZEROUPPER
	RET
