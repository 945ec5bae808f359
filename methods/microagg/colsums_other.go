//go:build !amd64 || purego

package microagg

func colSumsAVX2(out, t *float64, mask *int64, d, rows, whole int) { panic("unreachable") }
