//go:build amd64 && !purego

#include "textflag.h"

// func mahalPairsSSE2(out, y, mu, l, x *float64, p, pairs int)
//
// For each pair r of consecutive rows of the p-column table y (one 128-bit vector holds the
// two rows' values of a column):
//   x_a = ((y_a − mu_a) − Σ_{b<a} l[a·p+b]·x_b) / l[a·p+a],  out[2r+l] = Σ_a x_a²
// with separately rounded SUBPD, MULPD, DIVPD and ADDPD in the order of factor.mahalanobisTo,
// so each lane equals the scalar result bit for bit. x is scratch of 2p values.
TEXT ·mahalPairsSSE2(SB), NOSPLIT, $0-56
	MOVQ out+0(FP), DI
	MOVQ y+8(FP), SI
	MOVQ mu+16(FP), R8
	MOVQ l+24(FP), R9
	MOVQ x+32(FP), R10
	MOVQ p+40(FP), CX
	MOVQ pairs+48(FP), DX
	MOVQ CX, R11
	SHLQ $3, R11 // bytes per row

pairloop:
	TESTQ DX, DX
	JEQ   done
	XORPD X7, X7
	XORQ  AX, AX
	MOVQ  R9, R13 // row a of l

aloop:
	CMPQ     AX, CX
	JGE      aend
	MOVSD    (SI)(AX*8), X0
	LEAQ     (SI)(R11*1), R12
	MOVHPD   (R12)(AX*8), X0
	MOVSD    (R8)(AX*8), X1
	UNPCKLPD X1, X1
	SUBPD    X1, X0
	XORQ     BX, BX
	MOVQ     R10, R14

bloop:
	CMPQ     BX, AX
	JGE      bend
	MOVSD    (R13)(BX*8), X2
	UNPCKLPD X2, X2
	MOVUPD   (R14), X3
	MULPD    X3, X2
	SUBPD    X2, X0
	INCQ     BX
	ADDQ     $16, R14
	JMP      bloop

bend:
	MOVSD    (R13)(AX*8), X2
	UNPCKLPD X2, X2
	DIVPD    X2, X0
	MOVUPD   X0, (R14)
	MULPD    X0, X0
	ADDPD    X0, X7
	INCQ     AX
	ADDQ     R11, R13
	JMP      aloop

aend:
	MOVUPD X7, (DI)
	ADDQ   $16, DI
	LEAQ   (SI)(R11*2), SI
	DECQ   DX
	JMP    pairloop

done:
	RET
