//go:build amd64 && !purego

package datasets

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useAVX512 tells whether the processor runs numGroupAVX512: AVX-512 F, BW, DQ, CD, VL,
// VBMI2 (VPCOMPRESSB), VPOPCNTDQ and BMI2.
var useAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512DQ &&
	cpu.X86.HasAVX512CD && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VBMI2 &&
	cpu.X86.HasAVX512VPOPCNTDQ && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT

// numGroupAVX512 parses the cnt (1 to 8) fields of a numeric line that start at p[pos] into
// out[:cnt], in AVX-512 assembly (csvscan_amd64.s), and returns where the last of them ends
// (a comma, or end when last is 1), or −1 when it takes none of them. The line ends at
// p[end]; no byte from there on is read. It takes the cnt fields only when each is a plain
// decimal with a point, [+-]digits.digits with 1 to 19 digits in all (leading zeros
// counted), and its value is exactly parseDecimalPrefix's: Clinger's division for m ≤ 2^53,
// otherwise Eisel–Lemire's common case, whose rare cases (the wider product, a possible
// halfway tie) make it take none. pow10 is clingerPow10, pows eiselPows.
//
//go:noescape
func numGroupAVX512(p *byte, pos, end int, out *float64, cnt, last int, pow10 *float64, pows *eiselPow) int

// numericGroups parses the fields of a numeric line eight at a time with numGroupAVX512 for
// numericLine (whose terminator check has been made; end is the line's end), from the first,
// and returns how many cells it took and where the next field starts. It stops at the first
// group of eight (or of the cells left) that the kernel does not take whole, or that does not
// end as numericLine requires (a comma before the last cell, the line's end after it);
// numericLineFrom reads on from there. With short ≥ 0 (a missing token may read as a
// number) it takes nothing.
func numericGroups(b []byte, end int, row []float64, short int) (taken, pos int) {
	if !useAVX512 || short >= 0 {
		return 0, 0
	}
	p := unsafe.SliceData(b)
	for taken < len(row) {
		g := min(8, len(row)-taken)
		last := 0
		if taken+g == len(row) {
			last = 1
		}
		e := numGroupAVX512(p, pos, end, &row[taken], g, last, &clingerPow10[0], &eiselPows[0])
		if e < 0 {
			break
		}
		taken += g
		pos = e + 1
	}
	return taken, pos
}
