package microagg

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
)

// BenchmarkScanBlock times the fused pass of the scan MDAV (scanBlock) over every pass block
// of m rows of 5 normal columns, 1/16 of them dead, in ns a row: m = 1,024 stays in the L1
// and L2 caches, m = 50,000 (the mean buffer of 10^5 rows at k = 1,000) does not.
func BenchmarkScanBlock(b *testing.B) {
	const d = 5
	for _, m := range []int{1024, 50000} {
		b.Run(fmt.Sprintf("m=%d", m), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			z := make([]float64, m*d)
			for i := range z {
				z[i] = r.NormFloat64()
			}
			s := newMdavState(z, m, d, 1000, 1, true)
			for t := 0; t < m; t += 16 {
				s.kill(t)
			}
			q := []float64{0.1, 0.2, -0.3, 0.4, 0.5}
			copy(s.pt, q)
			mdavindex.BroadcastQuery(s.qb, q)
			nb := (m + blockRows - 1) / blockRows
			for b.Loop() {
				for blk := range nb {
					s.scanBlock(blk, blk*blockRows, min(m, (blk+1)*blockRows), 0.5)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(m), "ns/row")
		})
	}
}
