//go:build amd64 && !purego

package microagg

import "golang.org/x/sys/cpu"

var useAVX2 = cpu.X86.HasAVX2

// distLanesAVX2 is distLanesGo in AVX2 assembly (kernel_amd64.s): one 256-bit vector holds
// column j of the four rows of a lane group; four groups are processed at once.
//
//go:noescape
func distLanesAVX2(out, rows, qb *float64, d, groups int)
