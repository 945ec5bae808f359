//go:build amd64 && !purego

package datasets

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useAVX512 tells whether the processor (and the operating system) runs numGroupAVX512:
// AVX-512 F, BW, DQ, CD (VPLZCNTQ), VL, VBMI (VPERMB, VPERMI2B), VBMI2 (VPCOMPRESSB), BMI2
// (PEXT, BZHI, SHLX) and POPCNT.
var useAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512DQ &&
	cpu.X86.HasAVX512CD && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VBMI &&
	cpu.X86.HasAVX512VBMI2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT

// numGroupAVX512 parses up to cnt (1 to 16) fields of a numeric line from p[pos] on into
// out, in AVX-512 assembly (csvscan_amd64.s; docs/datapath.md describes it), and returns how
// many it took and where the last of them ends: a comma, or the line's end (p[end]) when last
// is 1 and it took all cnt. It reads the window of 256 bytes from p[pos], no byte at or after
// p[end] (masked loads). When fewer than cnt fields end in the window it takes those that do
// (never the last cell); it takes none (taken = 0) unless each of the fields it would take is
// a plain decimal with a point, [+-]digits.digits with at most seven integer digits and 1 to
// 19 digits in all (leading zeros counted), whose value parseDecimalPrefix gives as this
// computes it: Clinger's division for m ≤ 2^53, otherwise Eisel–Lemire's common case (its
// rare cases, the wider product and a possible halfway tie, make it take none). pow10 is
// clingerPow10, negPows eiselNegPows.
//
//go:noescape
func numGroupAVX512(p *byte, pos, end int, out *float64, cnt, last int, pow10 *float64, negPows *[2][24]uint64) (e, taken int)

// numericGroups parses the fields of a numeric line with numGroupAVX512 for numericLine (whose
// terminator check has been made; end is the line's end), from the first, and returns how
// many cells it took and where the next field starts. It stops where the kernel takes
// nothing; numericLineFrom reads on from there, so the result is the Go loop's
// (TestNumericLineKernel). The kernel's fields are a subset of the Go loop's usual ones, and
// any field it declines — a missing token, an exponent, text, a line with too many or too few
// fields — costs the call. With short ≥ 0 (a missing token may read as a number) it takes
// nothing.
func numericGroups(b []byte, end int, row []float64, short int) (taken, pos int) {
	if !useAVX512 || short >= 0 {
		return 0, 0
	}
	p := unsafe.SliceData(b)
	for taken < len(row) {
		g := min(16, len(row)-taken)
		last := 0
		if taken+g == len(row) {
			last = 1
		}
		e, k := numGroupAVX512(p, pos, end, &row[taken], g, last, &clingerPow10[0], &eiselNegPows)
		if k == 0 {
			break
		}
		taken += k
		pos = e + 1
	}
	return taken, pos
}
