// Package mdavtest generates the test tables on which MDAV's exact search engine
// (internal/mdavindex) and the methods built on it (methods/microagg) are checked against plain
// scans: tables with exact distance ties, repeated rows and near ties, where an index that
// bends a tie rule or drops a candidate would give other answers. It is for tests only.
package mdavtest

import (
	"math"
	"math/rand/v2"
)

// Tables returns z-scored-like test tables of n rows and d columns, row-major, keyed by name:
// "normal", "clustered" (8 centres), "grid" (integers 0..4: exact distance ties everywhere) and
// "dup" (normal rows repeated three times).
func Tables(n, d int, seed uint64) map[string][]float64 {
	r := rand.New(rand.NewPCG(seed, 11))
	norm, grid, clus, dup := make([]float64, n*d), make([]float64, n*d), make([]float64, n*d), make([]float64, n*d)
	cent := make([]float64, 8*d)
	for i := range cent {
		cent[i] = 10 * r.NormFloat64()
	}
	for i := 0; i < n; i++ {
		c := r.IntN(8)
		for j := 0; j < d; j++ {
			norm[i*d+j] = r.NormFloat64()
			grid[i*d+j] = float64(r.IntN(5))
			clus[i*d+j] = cent[c*d+j] + r.NormFloat64()
		}
	}
	for i := 0; i < n; i++ {
		copy(dup[i*d:(i+1)*d], norm[(i/3)*d:(i/3+1)*d])
	}
	return map[string][]float64{"normal": norm, "grid": grid, "clustered": clus, "dup": dup}
}

// NearTieTable returns an n×d integer grid whose values are moved by 0..3 ulps: squared
// distances then differ by a few ulps, and many distinct ones share a rounded square root
// (the din ties of VMDAV).
func NearTieTable(n, d int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 13))
	z := make([]float64, n*d)
	for i := range z {
		v := float64(1 + r.IntN(4))
		z[i] = v + float64(r.IntN(4))*(math.Nextafter(v, 5)-v)
	}
	return z
}

// IndexTables is Tables plus the near-tie table, keyed "neartie".
func IndexTables(n, d int, seed uint64) map[string][]float64 {
	tabs := Tables(n, d, seed)
	tabs["neartie"] = NearTieTable(n, d, seed)
	return tabs
}
