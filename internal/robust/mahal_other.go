//go:build !amd64 || purego

package robust

const hasMahalPairs = false

func mahalPairsSSE2(out, y, mu, l, x *float64, p, pairs int) { panic("unreachable") }
