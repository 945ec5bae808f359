//go:build amd64 && !purego

#include "textflag.h"

// numGroupAVX512 parses up to eight fields of a numeric line at once (csvscan_amd64.go has
// the contract; docs/datapath.md the design). Frame layout (hardware SP):
//   0: comma masks, 3 words (with the line's end as a separator)
//  24: point masks     48: sign masks ('+', '-')   72: minus masks
//  96: masks of bytes that may not appear in a field   120: digit masks
// 160: the first 16 separators' positions (bytes).

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

// lanes<>: the lane index j (0–7), then 2j+1, then 2^(j+1)−1.
DATA lanes<>+0(SB)/8, $0
DATA lanes<>+8(SB)/8, $1
DATA lanes<>+16(SB)/8, $2
DATA lanes<>+24(SB)/8, $3
DATA lanes<>+32(SB)/8, $4
DATA lanes<>+40(SB)/8, $5
DATA lanes<>+48(SB)/8, $6
DATA lanes<>+56(SB)/8, $7
DATA lanes<>+64(SB)/8, $1
DATA lanes<>+72(SB)/8, $3
DATA lanes<>+80(SB)/8, $5
DATA lanes<>+88(SB)/8, $7
DATA lanes<>+96(SB)/8, $9
DATA lanes<>+104(SB)/8, $11
DATA lanes<>+112(SB)/8, $13
DATA lanes<>+120(SB)/8, $15
DATA lanes<>+128(SB)/8, $1
DATA lanes<>+136(SB)/8, $3
DATA lanes<>+144(SB)/8, $7
DATA lanes<>+152(SB)/8, $15
DATA lanes<>+160(SB)/8, $31
DATA lanes<>+168(SB)/8, $63
DATA lanes<>+176(SB)/8, $127
DATA lanes<>+184(SB)/8, $255
GLOBL lanes<>(SB), RODATA|NOPTR, $192

// pow10q<>: 10^k as integers, k < 20.
DATA pow10q<>+0(SB)/8, $1
DATA pow10q<>+8(SB)/8, $10
DATA pow10q<>+16(SB)/8, $100
DATA pow10q<>+24(SB)/8, $1000
DATA pow10q<>+32(SB)/8, $10000
DATA pow10q<>+40(SB)/8, $100000
DATA pow10q<>+48(SB)/8, $1000000
DATA pow10q<>+56(SB)/8, $10000000
DATA pow10q<>+64(SB)/8, $100000000
DATA pow10q<>+72(SB)/8, $1000000000
DATA pow10q<>+80(SB)/8, $10000000000
DATA pow10q<>+88(SB)/8, $100000000000
DATA pow10q<>+96(SB)/8, $1000000000000
DATA pow10q<>+104(SB)/8, $10000000000000
DATA pow10q<>+112(SB)/8, $100000000000000
DATA pow10q<>+120(SB)/8, $1000000000000000
DATA pow10q<>+128(SB)/8, $10000000000000000
DATA pow10q<>+136(SB)/8, $100000000000000000
DATA pow10q<>+144(SB)/8, $1000000000000000000
DATA pow10q<>+152(SB)/8, $10000000000000000000
GLOBL pow10q<>(SB), RODATA|NOPTR, $160

// BLOCK loads the bytes [off, off+64) of the window (those before the line's end, CX; the
// rest zero) into R and stores its masks at w(SP) and on.
#define BLOCK(off, w, R) \
	MOVQ    CX, AX; \
	SUBQ    $off, AX; \
	XORL    DX, DX; \
	CMPQ    AX, DX; \
	CMOVQLT DX, AX; \
	MOVL    $64, DX; \
	CMPQ    AX, DX; \
	CMOVQGT DX, AX; \
	MOVQ    $-1, DX; \
	BZHIQ   AX, DX, DX; \
	KMOVQ   DX, K1; \
	VMOVDQU8.Z off(SI), K1, Z0; \
	VPSUBB   Z20, Z0, Z1; \
	VPCMPUB  $1, Z21, Z1, K2; \
	VPCMPEQB Z22, Z0, K3; \
	VPCMPEQB Z23, Z0, K4; \
	VPCMPEQB Z24, Z0, K5; \
	VPCMPEQB Z25, Z0, K6; \
	KORQ     K5, K6, K6; \
	KORQ     K2, K3, K7; \
	KORQ     K4, K7, K7; \
	KORQ     K6, K7, K7; \
	KANDNQ   K1, K7, K7; \
	KMOVQ    K3, w(SP); \
	KMOVQ    K4, 24+w(SP); \
	KMOVQ    K6, 48+w(SP); \
	KMOVQ    K5, 72+w(SP); \
	KMOVQ    K7, 96+w(SP); \
	KMOVQ    K2, 120+w(SP); \
	VMOVDQA64 Z0, R

// MERGE sets A to the first c bytes of A followed by B's (c a register, at most 128; only
// the first 16 bytes of A are needed), with Z26 the bytes 0 to 63.
#define MERGE(A, B, c) \
	VPBROADCASTB c, Z5; \
	VPCMPUB      $5, Z5, Z26, K1; \
	MOVL         $64, DX; \
	SUBL         c, DX; \
	VPBROADCASTB DX, Z5; \
	VMOVDQA64    Z26, Z9; \
	VPADDB       Z5, Z9, K1, Z9; \
	VPERMI2B     B, A, Z9; \
	VMOVDQA64    Z9, A

// LIST sets L to the positions of the bits of the three mask words at m(SP) (Z26, Z13, Z14:
// the bytes 0–63, 64–127, 128–191), the first 16 at least, and R to their count.
#define LIST(m, L, T1, T2) \
	KMOVQ       m(SP), K1; \
	VPCOMPRESSB Z26, K1, L; \
	KMOVQ       8+m(SP), K1; \
	VPCOMPRESSB Z13, K1, T1; \
	KMOVQ       16+m(SP), K1; \
	VPCOMPRESSB Z14, K1, T2; \
	POPCNTQ     m(SP), R10; \
	MERGE(L, T1, R10); \
	POPCNTQ     8+m(SP), DX; \
	ADDQ        DX, R10; \
	MERGE(L, T2, R10); \
	POPCNTQ     16+m(SP), DX; \
	ADDQ        DX, R10

// EXTRACT sets the words of W to the eight bytes of the window that end at the positions in
// the words of T (the low byte of each word; bytes before the window's start are garbage):
// Z17 copies each word's low byte to its eight bytes, Z18 adds −8 to −1, and the bytes are
// looked up in Z27, Z28 (positions below 128) and Z29.
#define EXTRACT(T, W) \
	VPSHUFB   Z17, T, Z9; \
	VPADDB    Z18, Z9, Z9; \
	VMOVDQA64 Z9, W; \
	VPERMI2B  Z28, Z27, W; \
	VPERMB    Z29, Z9, Z5; \
	VPMOVB2M  Z9, K1; \
	VMOVDQU8  Z5, K1, W

// CHECKWORD fails unless the bad bytes and the signs not at a field's start of word w, before
// the last separator (bit index AX within the word, clamped to [0, 64]), are none; it adds
// the word's points before that separator to R8 and keeps only the field starts before it in
// start (the word's starts).
#define CHECKWORD(w, start) \
	BZHIQ AX, 96+w(SP), DX; \
	TESTQ DX, DX; \
	JNZ   fail; \
	BZHIQ AX, 24+w(SP), DX; \
	POPCNTQ DX, DX; \
	ADDQ  DX, R8; \
	BZHIQ AX, start, start; \
	MOVQ  48+w(SP), DX; \
	ANDNQ DX, start, BX; \
	BZHIQ AX, BX, BX; \
	TESTQ BX, BX; \
	JNZ   fail

// func numGroupAVX512(p *byte, pos, end int, out *float64, cnt, last int, pow10 *float64, pows *eiselPow) int
TEXT ·numGroupAVX512(SB), $192-72
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
	MOVL         $0x2b, AX // '+'
	VPBROADCASTB AX, Z25

	VMOVDQU64 iota<>(SB), Z26
	BLOCK(0, 0, Z27)
	CMPQ      CX, $64
	JAE       blocks3

	// a line that ends within 64 bytes (the last fields of a line): one block
	MOVQ         0(SP), BX
	BTSQ         CX, BX // the line's end is a separator
	MOVQ         BX, 0(SP)
	XORL         AX, AX
	MOVQ         AX, 8(SP)
	MOVQ         AX, 16(SP)
	MOVQ         AX, 32(SP)
	MOVQ         AX, 40(SP)
	MOVQ         AX, 56(SP)
	MOVQ         AX, 64(SP)
	MOVQ         AX, 80(SP)
	MOVQ         AX, 88(SP)
	MOVQ         AX, 104(SP)
	MOVQ         AX, 112(SP)
	KMOVQ        BX, K1
	VPCOMPRESSB  Z26, K1, Z0
	POPCNTQ      BX, R9
	KMOVQ        24(SP), K1
	VPCOMPRESSB  Z26, K1, Z1
	POPCNTQ      24(SP), R10
	VMOVDQU8     X0, 160(SP)
	JMP          lists

blocks3:
	BLOCK(64, 8, Z28)
	BLOCK(128, 16, Z29)

	// the line's end is a separator when it lies in the window
	CMPQ CX, $192
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
	LIST(0, Z0, Z1, Z2)
	MOVQ         R10, R9
	LIST(24, Z1, Z2, Z3)
	VMOVDQU8     X0, 160(SP)

lists:
	MOVQ cnt+32(FP), BX
	CMPQ R9, BX
	JLT  fail
	CMPQ R10, BX
	JLT  fail
	MOVBQZX 159(SP)(BX*1), R11 // the last field's separator
	MOVQ    last+40(FP), AX
	TESTQ   AX, AX
	JZ      notlast
	CMPQ    R11, CX
	JNE     fail
	JMP     checks

notlast:
	CMPQ R11, CX
	JAE  fail

checks:
	// field starts: after each separator, and at 0
	MOVQ (SP), R12
	MOVQ 8(SP), R13
	MOVQ 16(SP), R9
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
	ORQ  $1, R13 // R13, R9, R10: the starts of words 0, 1, 2

	XORQ    R8, R8 // the points before the last separator
	MOVQ    R11, AX
	MOVL    $64, DX
	CMPQ    AX, DX
	CMOVQGT DX, AX
	CHECKWORD(0, R13)
	MOVQ    R11, AX
	SUBQ    $64, AX
	XORL    DX, DX
	CMPQ    AX, DX
	CMOVQLT DX, AX
	MOVL    $64, DX
	CMPQ    AX, DX
	CMOVQGT DX, AX
	CHECKWORD(8, R9)
	MOVQ    R11, AX
	SUBQ    $128, AX
	XORL    DX, DX
	CMPQ    AX, DX
	CMOVQLT DX, AX
	CHECKWORD(16, R10)
	CMPQ    R8, cnt+32(FP)
	JNE     fail // a field with two points

	// the fields' signs (R12) and minus signs (BX), bit j for field j
	MOVQ    48(SP), R12
	PEXTQ   R13, R12, R12
	MOVQ    72(SP), BX
	PEXTQ   R13, BX, BX
	POPCNTQ R13, CX
	MOVQ    56(SP), DX
	PEXTQ   R9, DX, DX
	SHLXQ   CX, DX, DX
	ORQ     DX, R12
	MOVQ    80(SP), DX
	PEXTQ   R9, DX, DX
	SHLXQ   CX, DX, DX
	ORQ     DX, BX
	POPCNTQ R9, DX
	ADDQ    DX, CX
	MOVQ    64(SP), DX
	PEXTQ   R10, DX, DX
	SHLXQ   CX, DX, DX
	ORQ     DX, R12
	MOVQ    88(SP), DX
	PEXTQ   R10, DX, DX
	SHLXQ   CX, DX, DX
	ORQ     DX, BX

	// lanes: E the separators, P the points, S the starts
	VPXORQ       Z31, Z31, Z31
	MOVL         $1, AX
	VPBROADCASTQ AX, Z30
	VPMOVZXBQ    X1, Z1
	VPMOVZXBQ    X0, Z0
	VPADDQ       Z30, Z0, Z2
	VALIGNQ      $7, Z31, Z2, Z2
	VMOVDQU64    lanes<>+0(SB), Z5
	VPBROADCASTQ R12, Z3
	VPSRLVQ      Z5, Z3, Z3
	VPANDQ       Z30, Z3, Z3 // sgn
	VPBROADCASTQ BX, Z4
	VPSRLVQ      Z5, Z4, Z4
	VPSLLQ       $63, Z4, Z4 // the sign bit of a negative field
	VPSUBQ       Z2, Z1, Z6
	VPSUBQ       Z3, Z6, Z6 // integer digits
	VPSUBQ       Z1, Z0, Z7
	VPSUBQ       Z30, Z7, Z7 // fraction digits
	VPADDQ       Z6, Z7, Z8  // digits
	MOVL         $8, AX
	VPBROADCASTQ AX, Z9
	VPCMPUQ      $1, Z9, Z6, K1 // 0 ≤ int < 8
	VPCMPQ       $5, Z31, Z7, K2 // frac ≥ 0
	KANDB        K1, K2, K1
	MOVL         $19, AX
	VPBROADCASTQ AX, Z9
	VPSUBQ       Z30, Z8, Z10
	VPCMPUQ      $1, Z9, Z10, K3 // 1 ≤ digits ≤ 19
	KANDB        K1, K3, K1
	MOVQ         cnt+32(FP), CX
	MOVL         $1, AX
	SHLXQ        CX, AX, AX
	DECQ         AX
	KMOVB        AX, K7 // the group's lanes
	KANDNB       K7, K1, K2
	KORTESTB     K2, K2
	JNZ          fail

	// the integer part's word (ending at P) and the fraction's three (ending at E)
	MOVQ         $0x0808080808080808, AX
	VPBROADCASTQ AX, Z17
	VPXORQ       Z9, Z9, Z9
	VPUNPCKLQDQ  Z17, Z9, Z17 // Intel: low qword from Z9 (0), high from Z17
	MOVQ         $0xfffefdfcfbfaf9f8, AX
	VPBROADCASTQ AX, Z18
	EXTRACT(Z1, Z19)
	EXTRACT(Z0, Z10)
	MOVL         $8, AX
	VPBROADCASTQ AX, Z16
	VPSUBQ       Z16, Z0, Z0
	EXTRACT(Z0, Z11)
	VPSUBQ       Z16, Z0, Z0
	EXTRACT(Z0, Z12)

	// digit values, and each word's digits of the field: the integer part's int, the fraction's
	// top min(frac − 8i, 8) bytes
	VPSUBB       Z20, Z19, Z19
	VPSUBB       Z20, Z10, Z10
	VPSUBB       Z20, Z11, Z11
	VPSUBB       Z20, Z12, Z12
	VPTERNLOGQ   $0xff, Z16, Z16, Z16
	MOVL         $64, AX
	VPBROADCASTQ AX, Z15
	VPSLLQ       $3, Z6, Z14
	VPSUBQ       Z14, Z15, Z14 // 64 − 8 int
	VPSLLVQ      Z14, Z16, Z14
	VPANDQ       Z14, Z19, Z19
	VPSLLQ       $3, Z7, Z14
	VPSUBQ       Z14, Z15, Z14 // 64 − 8 frac
	VPMAXSQ      Z31, Z14, Z13
	VPSLLVQ      Z13, Z16, Z13
	VPANDQ       Z13, Z10, Z10
	VPADDQ       Z15, Z14, Z14
	VPMAXSQ      Z31, Z14, Z13
	VPSLLVQ      Z13, Z16, Z13
	VPANDQ       Z13, Z11, Z11
	VPADDQ       Z15, Z14, Z14
	VPMAXSQ      Z31, Z14, Z13
	VPSLLVQ      Z13, Z16, Z13
	VPANDQ       Z13, Z12, Z12

	// the value of each word's eight digits (the first in its lowest byte)
	MOVL         $0x010a, AX
	VPBROADCASTW AX, Z17
	MOVL         $0x00010064, AX
	VPBROADCASTD AX, Z18
	MOVL         $10000, AX
	VPBROADCASTQ AX, Z14
	VPMADDUBSW   Z17, Z19, Z19
	VPMADDUBSW   Z17, Z10, Z10
	VPMADDUBSW   Z17, Z11, Z11
	VPMADDUBSW   Z17, Z12, Z12
	VPMADDWD     Z18, Z19, Z19
	VPMADDWD     Z18, Z10, Z10
	VPMADDWD     Z18, Z11, Z11
	VPMADDWD     Z18, Z12, Z12
	VPMULUDQ     Z14, Z19, Z13
	VPSRLQ       $32, Z19, Z19
	VPADDQ       Z13, Z19, Z19
	VPMULUDQ     Z14, Z10, Z13
	VPSRLQ       $32, Z10, Z10
	VPADDQ       Z13, Z10, Z10
	VPMULUDQ     Z14, Z11, Z13
	VPSRLQ       $32, Z11, Z11
	VPADDQ       Z13, Z11, Z11
	VPMULUDQ     Z14, Z12, Z13
	VPSRLQ       $32, Z12, Z12
	VPADDQ       Z13, Z12, Z12
	// m = int·10^frac + W2·10^16 + W1·10^8 + W0 (< 10^19)
	LEAQ         pow10q<>(SB), DI
	VPXORQ       Z13, Z13, Z13
	KMOVB        K7, K1
	VPGATHERQQ   (DI)(Z7*8), K1, Z13
	VPMULLQ      Z13, Z19, Z19
	MOVQ         $10000000000000000, AX
	VPBROADCASTQ AX, Z14
	VPMULLQ      Z14, Z12, Z12
	MOVL         $100000000, AX
	VPBROADCASTQ AX, Z14
	VPMULUDQ     Z14, Z11, Z11
	VPADDQ       Z12, Z11, Z11
	VPADDQ       Z10, Z11, Z11
	VPADDQ       Z19, Z11, Z11 // m

	// Clinger: m ≤ 2^53, frac ≤ 19: float64(m) / 10^frac
	MOVQ         pow10+48(FP), DI
	MOVQ         $0x20000000000000, AX
	VPBROADCASTQ AX, Z12
	VPCMPUQ      $2, Z12, Z11, K2 // m ≤ 2^53
	VCVTUQQ2PD   Z11, Z13
	VXORPD       Z14, Z14, Z14
	KMOVB        K7, K1
	VGATHERQPD   (DI)(Z7*8), K1, Z14
	VDIVPD       Z14, Z13, Z13
	VPORQ        Z4, Z13, Z13
	KANDNB       K7, K2, K6 // the lanes for Eisel–Lemire
	KORTESTB     K6, K6
	JZ           store

	// Eisel–Lemire for m > 2^53 (eiselLemire's common case; its rare cases fail the group)
	MOVQ         pows+56(FP), DI
	VPSUBQ       Z7, Z15, Z12 // 64 − frac
	VPADDQ       Z12, Z12, Z14
	VPADDQ       Z14, Z12, Z12 // ·3: eiselPow is three words
	VPXORQ       Z14, Z14, Z14
	VPXORQ       Z18, Z18, Z18
	KMOVB        K6, K1
	VPGATHERQQ   (DI)(Z12*8), K1, Z14 // hi
	KMOVB        K6, K1
	VPGATHERQQ   16(DI)(Z12*8), K1, Z18 // exp
	VPLZCNTQ     Z11, Z19
	VPSLLVQ      Z19, Z11, Z11 // mm
	VPSRLQ       $32, Z11, Z0
	VPSRLQ       $32, Z14, Z1
	VPMULUDQ     Z14, Z11, Z2 // p00
	VPMULUDQ     Z1, Z11, Z3  // p01
	VPMULUDQ     Z14, Z0, Z5  // p10
	VPMULUDQ     Z1, Z0, Z6   // p11
	MOVL         $0xffffffff, AX
	VPBROADCASTQ AX, Z9
	VPSRLQ       $32, Z2, Z10
	VPANDQ       Z9, Z3, Z8
	VPADDQ       Z8, Z10, Z10
	VPANDQ       Z9, Z5, Z8
	VPADDQ       Z8, Z10, Z10 // mid
	VPANDQ       Z9, Z2, Z2
	VPSLLQ       $32, Z10, Z8
	VPORQ        Z8, Z2, Z2 // xLo
	VPSRLQ       $32, Z3, Z3
	VPADDQ       Z3, Z6, Z6
	VPSRLQ       $32, Z5, Z5
	VPADDQ       Z5, Z6, Z6
	VPSRLQ       $32, Z10, Z10
	VPADDQ       Z10, Z6, Z6 // xHi
	VPSRLQ       $63, Z6, Z0 // msb
	MOVL         $9, AX
	VPBROADCASTQ AX, Z1
	VPADDQ       Z0, Z1, Z1
	VPSRLVQ      Z1, Z6, Z1 // mant
	MOVL         $1086, AX
	VPBROADCASTQ AX, Z3
	VPADDQ       Z3, Z18, Z18
	VPSUBQ       Z19, Z18, Z18
	VPXORQ       Z30, Z0, Z0
	VPSUBQ       Z0, Z18, Z18 // exp
	// fail: xHi&0x1FF == 0x1FF and xLo+mm carries
	MOVL         $0x1ff, AX
	VPBROADCASTQ AX, Z3
	VPANDQ       Z3, Z6, Z5
	VPCMPEQQ     Z3, Z5, K1
	VPADDQ       Z11, Z2, Z8
	VPCMPUQ      $1, Z11, Z8, K2
	KANDB        K1, K2, K3
	// fail: xLo == 0, xHi&0x1FF == 0, mant&3 == 1 (a possible halfway tie)
	VPTESTNMQ    Z2, Z2, K1
	VPTESTNMQ    Z3, Z6, K2
	KANDB        K1, K2, K1
	MOVL         $3, AX
	VPBROADCASTQ AX, Z5
	VPANDQ       Z5, Z1, Z5
	VPCMPEQQ     Z30, Z5, K2
	KANDB        K1, K2, K1
	KORB         K1, K3, K3
	// round to 53 bits
	VPANDQ       Z30, Z1, Z5
	VPADDQ       Z5, Z1, Z1
	VPSRLQ       $54, Z1, Z5 // overflow
	VPADDQ       Z5, Z18, Z18
	VPADDQ       Z30, Z5, Z5
	VPSRLVQ      Z5, Z1, Z1
	// fail: not a normal number
	VPSUBQ       Z30, Z18, Z5
	MOVL         $0x7fe, AX
	VPBROADCASTQ AX, Z8
	VPCMPUQ      $5, Z8, Z5, K1
	KORB         K1, K3, K3
	KANDB        K6, K3, K3
	KORTESTB     K3, K3
	JNZ          fail
	VPSLLQ       $52, Z18, Z18
	MOVQ         $0xfffffffffffff, AX
	VPBROADCASTQ AX, Z8
	VPANDQ       Z8, Z1, Z1
	VPORQ        Z1, Z18, Z18
	VPORQ        Z4, Z18, Z18
	VMOVDQA64    Z18, K6, Z13

store:
	MOVQ    out+24(FP), DI
	VMOVUPD Z13, K7, (DI)
	MOVQ    pos+8(FP), AX
	ADDQ    R11, AX
	MOVQ    AX, ret+64(FP)
	VZEROUPPER
	RET

fail:
	MOVQ $-1, ret+64(FP)
	VZEROUPPER
	RET
