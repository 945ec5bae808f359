package stats_test

import (
	"fmt"

	"github.com/sdcbench/sdcbench/experiments/stats"
)

// The rank-sum test of docs/magga.md test 15, as R's wilcox.test(x, y).
func ExampleRankSum() {
	x := []float64{1.2, 3.4, 2.2, 5.0, 3.4, 0.7}
	y := []float64{2.8, 4.1, 3.4, 6.3, 5.5}
	c := stats.RankSum(x, y, nil)
	fmt.Printf("%s: W = %g, p = %.6f\n", c.Method, c.Statistic, c.P)
	c = stats.RankSum(x, y, &stats.WilcoxonOptions{NoCorrect: true})
	fmt.Printf("without correction: p = %.6f\n", c.P)
	// Output:
	// Wilcoxon rank sum test with continuity correction: W = 6, p = 0.117306
	// without correction: p = 0.097254
}

// Pairwise p-values adjusted as p.adjust(p, "holm") and p.adjust(p, "BH").
func ExampleAdjust() {
	p := []float64{0.01, 0.04, 0.03, 0.2}
	fmt.Printf("holm %.2f\n", stats.Adjust(nil, p, stats.Holm))
	fmt.Printf("BH   %.4f\n", stats.Adjust(nil, p, stats.BH))
	// Output:
	// holm [0.04 0.09 0.09 0.20]
	// BH   [0.0400 0.0533 0.0533 0.2000]
}
