//go:build amd64 && !purego

package datasets

import "golang.org/x/sys/cpu"

// useShortTextAVX512 selects shortTextAVX512 (a CPU without these AVX-512 subsets uses
// shortTextGo).
var useShortTextAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512BW &&
	cpu.X86.HasAVX512CD

// shortTextAVX512 is shortTextGo for the first 8·blocks decimals of w in AVX-512 assembly
// (shorttext_amd64.s), eight per 512-bit vector.
//
//go:noescape
func shortTextAVX512(w *shortWords, blocks int)
