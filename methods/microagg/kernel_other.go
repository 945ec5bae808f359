//go:build !amd64 || purego

package microagg

const useAVX2 = false

func distLanesAVX2(out, rows, qb *float64, d, groups int) { panic("unreachable") }
