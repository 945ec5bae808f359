// Macros of numGroupAVX512 (csvscan_amd64.s), which includes this file.

// BLOCK loads the bytes [off, off+64) of the window (those before the line's end, CX; the
// rest zero) into R, stores its masks of commas, points and minus signs at w(SP), 32+w(SP)
// and 64+w(SP), and adds its bytes that may not appear in a field of the kernel (anything
// but a digit, a comma, a point or a minus sign) to R8.
#define BLOCK(off, w, R) \
	MOVQ     CX, AX; \
	SUBQ     $off, AX; \
	XORL     DX, DX; \
	CMPQ     AX, DX; \
	CMOVQLT  DX, AX; \
	MOVL     $64, DX; \
	CMPQ     AX, DX; \
	CMOVQGT  DX, AX; \
	MOVQ     $-1, DX; \
	BZHIQ    AX, DX, DX; \
	KMOVQ    DX, K1; \
	VMOVDQU8.Z off(SI), K1, Z0; \
	VPSUBB   Z20, Z0, Z1; \
	VPCMPUB  $1, Z21, Z1, K2; \
	VPCMPEQB Z22, Z0, K3; \
	VPCMPEQB Z23, Z0, K4; \
	VPCMPEQB Z24, Z0, K5; \
	KORQ     K2, K3, K7; \
	KORQ     K4, K7, K7; \
	KORQ     K5, K7, K7; \
	KANDNQ   K1, K7, K7; \
	KMOVQ    K3, w(SP); \
	KMOVQ    K4, 32+w(SP); \
	KMOVQ    K5, 64+w(SP); \
	KMOVQ    K7, DX; \
	ORQ      DX, R8; \
	VMOVDQA64 Z0, R

// MERGE sets A to the first c bytes of A followed by B's (c a register, at most 255; only the
// first 16 bytes of A are needed), with Z26 the bytes 0 to 63.
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

// LIST sets L to the positions of the bits of the four mask words at m(SP) (Z26, Z13, Z14,
// Z15: the bytes 0–63, 64–127, 128–191, 192–255), the first 16 at least, and R10 to their
// count.
#define LIST(m, L, T1, T2, T3) \
	KMOVQ       m(SP), K1; \
	VPCOMPRESSB Z26, K1, L; \
	KMOVQ       8+m(SP), K1; \
	VPCOMPRESSB Z13, K1, T1; \
	KMOVQ       16+m(SP), K1; \
	VPCOMPRESSB Z14, K1, T2; \
	KMOVQ       24+m(SP), K1; \
	VPCOMPRESSB Z15, K1, T3; \
	POPCNTQ     m(SP), R10; \
	MERGE(L, T1, R10); \
	POPCNTQ     8+m(SP), DX; \
	ADDQ        DX, R10; \
	MERGE(L, T2, R10); \
	POPCNTQ     16+m(SP), DX; \
	ADDQ        DX, R10; \
	MERGE(L, T3, R10); \
	POPCNTQ     24+m(SP), DX; \
	ADDQ        DX, R10

// EXTRACT sets the words of W to the eight digits of a field that end at the positions in
// the words of T, the point skipped: Z17 copies each word's low byte to its eight bytes, Z18
// adds −8 to −1, and a position at or before the field's point (Z4, copied to each byte)
// moves one down (Z16: bytes −1). The bytes are looked up in Z27, Z28 (positions below 128)
// and Z29, Z22; bytes before the window's start are garbage, and are the field's only where
// a digit precedes them.
#define EXTRACT(T, W) \
	VPSHUFB   Z17, T, Z9; \
	VPADDB    Z18, Z9, Z9; \
	VPCMPUB   $2, Z4, Z9, K1; \
	VPADDB    Z16, Z9, K1, Z9; \
	VMOVDQA64 Z9, W; \
	VPERMI2B  Z28, Z27, W; \
	VMOVDQA64 Z9, Z5; \
	VPERMI2B  Z22, Z29, Z5; \
	VPMOVB2M  Z9, K1; \
	VMOVDQU8  Z5, K1, W

// SIGNS adds the minus signs of word w at the field starts in start to the bits of R12 (the
// count of earlier starts in CX; none once it reaches 64, beyond the sixteen fields a group
// has); it fails unless every minus sign of the word is at a field's start.
#define SIGNS(w, start) \
	MOVQ    64+w(SP), AX; \
	ANDNQ   AX, start, DX; \
	TESTQ   DX, DX; \
	JNZ     fail; \
	PEXTQ   start, AX, DX; \
	SHLXQ   CX, DX, DX; \
	XORL    AX, AX; \
	CMPQ    CX, $64; \
	CMOVQCC AX, DX; \
	ORQ     DX, R12; \
	POPCNTQ start, DX; \
	ADDQ    DX, CX

// LIST3 is LIST for a window of three blocks (mask words 0 to 2).
#define LIST3(m, L, T1, T2) \
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
