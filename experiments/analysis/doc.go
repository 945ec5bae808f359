// Package analysis turns a results folder into what a paper needs, as the "Analysis" part of
// docs/harness.md and the comparison measures of docs/metrics.md §6 describe.
//
// The pipeline, each step usable on its own:
//
//  1. [ReadRuns] reads DIR/runs.csv (or DIR/runs.csv.gz) and [ReadTraces] DIR/traces.csv;
//     [ReadManifest] gives the spec text, from which [LoadConfig] takes the [analysis] table.
//  2. [Config.Resolve] picks the metrics, the blocking factors (dataset, k, replicate), the
//     columns that make a configuration and the instances of the win counts.
//  3. [Analyze] computes per metric: summaries ([Summaries], R type-7 quartiles), the best
//     configuration of every instance (dataset and blocks) and the set not significantly
//     different from it by the test that fits the design ([Best], MAGGA study Table 5.5 per
//     instance, docs/analysis.md "Tests that fit the design"), pairwise Wilcoxon tests across
//     blocks with Holm and BH adjustment ([Pairwise]), win counts and gaps ([Wins], [Gaps],
//     metrics.md §6.1-6.2), the Friedman test with Nemenyi critical difference
//     ([FriedmanTable]), the Pareto fronts of every (loss, risk) pair ([ParetoOf]), the
//     recommendation under a risk bound ([Recommend]) and the risk measures that disagree
//     ([Disagreements]).
//  4. [Result.Write] writes summary.csv, wilcoxon.csv, best.csv, wins.csv, gaps.csv,
//     friedman.csv, pareto.csv, recommend.csv, the plots (PNG and SVG, gonum.org/v1/plot) and
//     REPORT.md, which leads with the answer per dataset and also puts a seed's published
//     numbers beside ours ([CompareSeed]), then report.html ([WriteHTML]): the same report
//     as one self-contained page, built from REPORT.md and the tables just written, which
//     [RefreshHTML] writes again after a study report (docs/analysis.md "report.html").
//
// Non-finite metric values are missing for every comparison (metrics.md §0.4): they never win,
// have a NaN gap, and are left out of summaries, tests and medians; the tables count them.
package analysis
