//go:build amd64 && !purego

package microagg

import "golang.org/x/sys/cpu"

// useAVX2 selects binLanesAVX2 for madBelow's pass (a CPU without AVX2 uses binRows).
var useAVX2 = cpu.X86.HasAVX2

// binLanesAVX2 is binRows over lane groups in AVX2 assembly (ppkernel_amd64.s): one 256-bit
// vector holds the projections of the four rows of a group (lanes: toLanes), summed in column
// order with VMULPD and VADDPD (no FMA), then binned as binRows bins (VSUBPD, VMULPD, VMAXPD
// with lo = −1, VMINPD with hi = ppBins, VADDPD of 1, truncation), each bin counted in h.
//
//go:noescape
func binLanesAVX2(h *int32, lanes, a *float64, d, groups int, base, invw, lo, hi float64)
