//go:build !amd64 || purego

package microagg

const useAVX2 = false

func binLanesAVX2(h *int32, lanes, a *float64, d, groups int, base, invw, lo, hi float64) {
	panic("unreachable")
}
