//go:build amd64 && !purego

#include "textflag.h"

// DIGITS8 turns the eight-digit values (< 10^8) in the qword lanes of X into their digit
// bytes, the first digit in the lowest byte, as digitBytes8 does in each lane: the quotient
// and remainder by 10^4 (a multiplication by ⌈2^40/10^4⌉), then by 100 in dword lanes and by
// 10 in word lanes; T1 and T2 are scratch.
#define DIGITS8(X, T1, T2) \
	VPMULUDQ Z28, X, T1 \
	VPSRLQ   $40, T1, T1 \
	VPMULUDQ Z27, T1, T2 \
	VPSUBQ   T2, X, T2 \
	VPSLLQ   $32, T2, T2 \
	VPORQ    T1, T2, X \
	VPMULLD  Z26, X, T1 \
	VPSRLD   $19, T1, T1 \
	VPMULLD  Z25, T1, T2 \
	VPSUBD   T2, X, T2 \
	VPSLLD   $16, T2, T2 \
	VPORD    T1, T2, X \
	VPMULLW  Z24, X, T1 \
	VPSRLW   $10, T1, T1 \
	VPMULLW  Z23, T1, T2 \
	VPSUBW   T2, X, T2 \
	VPSLLW   $8, T2, T2 \
	VPORQ    T1, T2, X

// func shortTextAVX512(w *shortWords, blocks int)
//
// For each of the first 8·blocks decimals d (10^15 ≤ d < 10^17) of w.d: the text words x0,
// x1, x2 and the digit count nd of shortTextGo, eight decimals per 512-bit vector. d's
// quotient by 10^8 is estimated in float64 (within one of the true one) and corrected from
// the remainder's sign; the rest is integer arithmetic exact in its range.
TEXT ·shortTextAVX512(SB), NOSPLIT, $0-16
	MOVQ w+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVQ $0x3e45798ee2308c3a, AX // 1e-8
	VPBROADCASTQ AX, Z31
	MOVQ $100000000, AX
	VPBROADCASTQ AX, Z30
	MOVQ $720575941, AX // ⌈2^56/10^8⌉: ⌊n/10^8⌋ = n·this >> 56 for n < 2^30
	VPBROADCASTQ AX, Z29
	MOVQ $109951163, AX // ⌈2^40/10^4⌉: ⌊n/10^4⌋ = n·this >> 40 for n < 10^8
	VPBROADCASTQ AX, Z28
	MOVQ $10000, AX
	VPBROADCASTQ AX, Z27
	MOVL $5243, AX
	VPBROADCASTD AX, Z26
	MOVL $100, AX
	VPBROADCASTD AX, Z25
	MOVL $103, AX
	VPBROADCASTW AX, Z24
	MOVL $10, AX
	VPBROADCASTW AX, Z23
	MOVQ $0x3030303030303030, AX
	VPBROADCASTQ AX, Z22
	MOVQ $17, AX
	VPBROADCASTQ AX, Z21
	MOVQ $0x30, AX
	VPBROADCASTQ AX, Z20
	MOVQ $1, AX
	VPBROADCASTQ AX, Z19

loop:
	TESTQ CX, CX
	JEQ   done
	VMOVDQU64 (SI), Z0        // d
	VCVTUQQ2PD Z0, Z1
	VMULPD     Z31, Z1, Z1
	VCVTTPD2UQQ Z1, Z2        // hi ≈ ⌊d/10^8⌋, within one
	VPMULUDQ   Z30, Z2, Z3
	VPSUBQ     Z3, Z0, Z3     // r = d − hi·10^8
	VPMOVQ2M   Z3, K1         // r < 0: hi one too large
	VPADDQ     Z30, Z3, K1, Z3
	VPSUBQ     Z19, Z2, K1, Z2
	VPSUBQ     Z30, Z3, Z4    // r − 10^8
	VPMOVQ2M   Z4, K2         // r < 10^8: hi right
	VPBLENDMQ  Z3, Z4, K2, Z3 // lo = d mod 10^8
	VPADDQ     Z19, Z2, Z5
	VPBLENDMQ  Z2, Z5, K2, Z2 // hi = ⌊d/10^8⌋
	VPMULUDQ   Z29, Z2, Z4
	VPSRLQ     $56, Z4, Z4    // top = ⌊d/10^16⌋
	VPMULUDQ   Z30, Z4, Z5
	VPSUBQ     Z5, Z2, Z5     // the middle eight digits
	DIGITS8(Z5, Z14, Z18)     // w1
	DIGITS8(Z3, Z16, Z17)     // w2
	VPLZCNTQ   Z3, Z8
	VPSRLQ     $3, Z8, Z8
	VPLZCNTQ   Z5, Z9
	VPSRLQ     $3, Z9, Z9
	VPTESTNMQ  Z3, Z3, K3     // w2 = 0
	VPADDQ     Z9, Z8, K3, Z8
	VPSUBQ     Z8, Z21, Z8
	VPORQ      Z22, Z5, Z5
	VPORQ      Z22, Z3, Z3
	VPSLLQ     $8, Z5, Z10
	VPORQ      Z4, Z10, Z10
	VPORQ      Z20, Z10, Z10  // x0 = top | '0' | w1<<8
	VPSRLQ     $56, Z5, Z11
	VPSLLQ     $8, Z3, Z12
	VPORQ      Z12, Z11, Z11  // x1 = w1>>56 | w2<<8
	VPSRLQ     $56, Z3, Z13   // x2
	VMOVDQU64  Z10, 128(SI)
	VMOVDQU64  Z11, 256(SI)
	VMOVDQU64  Z13, 384(SI)
	VMOVDQU64  Z8, 512(SI)
	ADDQ       $64, SI
	DECQ       CX
	JMP        loop

done:
	VZEROUPPER
	RET

// ROUNDODD sets R to ⌊g·x/2^128⌋ rounded to odd (roundOdd) for x in R and g = {0(G), 8(G)};
// AX, BX and DX are scratch.
#define ROUNDODD(G, R) \
	MOVQ  R, DX \
	MULXQ 0(G), AX, R \
	MULXQ 8(G), DX, BX \
	XORL  DX, DX \
	ADDQ  BX, AX \
	SETNE DL \
	ADCQ  $0, R \
	ORQ   DX, R

// func shortDigitsBMI2(w *shortWords, xs *float64, n int) int
//
// shortFrameDigitsGo for the n ≤ shortChunk values at xs: for a value from about 0.001 to 10
// (dp from −2 to 1) w.d[i] = shortestDigits's decimal and w.dp[i] = dp+2, for any other
// w.d[i] = 10^16 and w.dp[i] = −1; it returns the number of the former. The Schubfach steps
// of shortestDigits with MULX (no fixed registers) and the same comparisons.
TEXT ·shortDigitsBMI2(SB), NOSPLIT, $0-32
	MOVQ w+0(FP), DI
	MOVQ xs+8(FP), SI
	MOVQ n+16(FP), R9
	LEAQ (SI)(R9*8), R9 // the end of xs
	XORQ R8, R8         // values in the frame range

next:
	CMPQ SI, R9
	JAE  end
	MOVQ (SI), AX
	MOVQ AX, R10
	SHLQ $12, R10
	SHRQ $12, R10       // frac
	SHRQ $52, AX
	ANDL $0x7ff, AX     // the biased exponent
	LEAQ -1075(AX), BX  // q
	IMUL3Q $315652, BX, CX
	SARQ $20, CX        // k = ⌊log10 2^q⌋
	LEAQ 19(CX), AX     // dp+2
	CMPQ AX, $3
	JHI  other
	TESTQ R10, R10
	JEQ  other          // c = 2^52: the lower neighbour is nearer
	MOVQ AX, 640(DI)
	INCQ R8
	BTSQ $52, R10       // c
	MOVQ $292, R11
	SUBQ CX, R11
	SHLQ $4, R11
	LEAQ ·shortPows(SB), AX
	ADDQ AX, R11        // g = &shortPows[−k−shortPowMin]
	NEGQ CX
	IMUL3Q $1741646, CX, CX
	SARQ $19, CX
	LEAQ 1(BX)(CX*1), CX // h = q + ⌊log2 10^−k⌋ + 1
	LEAQ (R10*4), AX     // cb = 4c
	SHLXQ CX, AX, R12    // cb<<h
	LEAQ -2(AX), R13
	SHLXQ CX, R13, R13   // (cb−2)<<h
	LEAQ 2(AX), R14
	SHLXQ CX, R14, R14   // (cb+2)<<h
	ANDQ $1, R10         // out: an odd c leaves the ends out
	ROUNDODD(R11, R12)   // vb
	ROUNDODD(R11, R13)   // vbl
	ROUNDODD(R11, R14)   // vbr
	MOVQ R12, AX
	SHRQ $2, AX          // s
	MOVQ AX, BX
	ANDQ $1, BX
	ADDQ R12, BX         // vb + s&1
	MOVQ AX, CX
	SHLQ $2, CX          // 4s
	LEAQ 2(CX), R12      // 4s + 2
	MOVQ AX, DX          // d = s
	LEAQ 1(AX), R11      // s+1
	CMPQ BX, R12
	CMOVQHI R11, DX      // 4v > 4(s + ½), or equal with s odd: s+1
	ADDQ R10, R13        // vbl + out
	CMPQ R13, CX
	CMOVQHI R11, DX      // s is out
	LEAQ 4(CX)(R10*1), BX
	CMPQ BX, R14
	CMOVQHI AX, DX       // s+1 is out
	MOVQ DX, R12
	MOVQ $0xcccccccccccccccd, DX
	MULXQ AX, BX, CX
	SHRQ $3, CX          // ⌊s/10⌋
	LEAQ (CX)(CX*4), CX
	ADDQ CX, CX          // sp
	MOVQ CX, BX
	SHLQ $2, BX          // 4sp
	CMPQ R13, BX
	CMOVQLS CX, R12      // sp is in
	LEAQ 40(BX)(R10*1), BX
	ADDQ $10, CX
	CMPQ BX, R14
	CMOVQLS CX, R12      // sp+10 is in
	MOVQ R12, (DI)
	ADDQ $8, SI
	ADDQ $8, DI
	JMP  next

other:
	MOVQ $-1, 640(DI)
	MOVQ $10000000000000000, AX
	MOVQ AX, (DI)
	ADDQ $8, SI
	ADDQ $8, DI
	JMP  next

end:
	MOVQ R8, ret+24(FP)
	RET
