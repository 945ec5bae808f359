// Package stats holds the statistics behind sdcbench's analysis step (docs/harness.md
// "Analysis"): descriptive summaries with R's type-7 quantiles, the two Wilcoxon tests, p-value
// adjustment, and the Friedman test with the Nemenyi critical difference.
//
// Every test reproduces R 4.2 (package stats) with its default arguments, so that a p-value
// printed by sdcbench can be checked with one R call:
//
//   - [RankSum] is wilcox.test(x, y): the Wilcoxon rank-sum (Mann-Whitney) test.
//   - [SignedRank] is wilcox.test(x, y, paired = TRUE), or wilcox.test(x) when y is nil.
//   - [OneSample] is wilcox.test(x, mu = v): a randomized method's replicates against a
//     deterministic method's value.
//   - [Adjust] is p.adjust(p, method) for "holm" and "BH".
//   - [Friedman] is friedman.test(y) on a blocks × treatments matrix, plus the average ranks and
//     the Nemenyi critical difference of Demšar (2006), qtukey(1-α, k, Inf)/√2·√(k(k+1)/(6N)).
//   - [Sample.Quantile] is quantile(x, p, type = 7).
//
// The shapes follow golang.org/x/perf/benchmath: a [Sample] is a sorted set of observations, a
// [Summary] describes one, and a [Comparison] carries a test's statistic, p-value, sizes, effect
// sizes (A12 and the rank-biserial r), the Hodges–Lehmann interval when asked, and the
// Warnings that explain why a result is weaker than it looks (ties that force the normal
// approximation, too few observations to ever reach alpha, dropped zeros).
//
// Missing values: the tests drop NaN as R drops NA (pairwise in the paired case) and keep ±Inf,
// which R ranks. [NewSample] leaves every non-finite value out and counts it, as the comparison
// measures of docs/metrics.md §0.4 require.
package stats
