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

// useShortDigitsBMI2 selects shortDigitsBMI2 (a CPU without BMI2 uses shortFrameDigitsGo).
var useShortDigitsBMI2 = cpu.X86.HasBMI2

// shortDigitsBMI2 is shortFrameDigitsGo for the n ≤ shortChunk values at xs, in assembly
// with BMI2's MULX and SHLX (shorttext_amd64.s).
//
//go:noescape
func shortDigitsBMI2(w *shortWords, xs *float64, n int) int
