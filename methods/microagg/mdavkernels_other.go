//go:build !amd64 || purego

package microagg

func sumBlocks8AVX2(out, rows *float64, d int) { panic("unreachable") }

func scanLanesAVX2(dist, rows, qb *float64, dead *bool, bm *uint64, best *float64, arg *int, d, groups, first, limit int, tau float64) {
	panic("unreachable")
}

func compactLanesAVX2(rows *float64, act *int32, dead *bool, d, w, m int) int {
	panic("unreachable")
}
