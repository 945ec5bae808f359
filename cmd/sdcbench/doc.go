// Command sdcbench runs statistical disclosure control experiments: it protects microdata
// with the registered methods, measures information loss and disclosure risk, and analyses
// the results.
//
// Usage (every command, as its -h prints it; `sdcbench COMMAND -h` also lists the flags):
//
//	sdcbench COMMAND [flags] [args]
//
// Look around:
//
//	sdcbench list datasets|methods|metrics|experiments
//
// Run an experiment (a bundled spec by name, or a TOML file), here or split over a cluster:
//
//	sdcbench run [--out DIR] [--workers N] [--shard i/n] [--quiet] [--fresh] [--keep-timeouts] [--keep-releases] [--no-analyze] SPEC
//	sdcbench slurm --shards N [--cpus-per-task C] [--time T] [--partition P] [--mem M] [--out DIR] SPEC
//	sdcbench merge [--fresh] --out DIR DIR...
//
// Add measures to a finished folder from the releases run --keep-releases stored, without
// protecting again:
//
//	sdcbench rescore --metrics a,b [--quiet] [--no-analyze] DIR
//
// Analyse a results folder, write its study report, and the reproduction status page:
//
//	sdcbench analyze [--metrics a,b] [--blocks a,b|none] [--configs a,b] [--test auto|signed-rank|rank-sum]
//	    [--alpha A] [--adjust none|holm|BH] [--replicate-agg mean|median] [--tradeoff loss,risk]
//	    [--baseline OLD_DIR]... [--no-plots] [--seed FILE] [--out DIR] [more: analyze -h] DIR
//	sdcbench report DIR...
//	sdcbench status [--results DIR] [--out FILE]
//
// status prints the page on standard output unless --out names the file (make reproduce writes
// docs/reproductions.md).
//
// One shot: protect one dataset or file, measure a masked file, run one statistical test on a
// CSV (the numbers of R's wilcox.test, p.adjust and friedman.test, as JSON):
//
//	sdcbench protect --method NAME [--param name=value]... (--dataset NAME | --in FILE) --out FILE
//	    [--columns a,b] [--keep c,d] [--drop e,f] [--strata COL] [--keys k1,k2] [--seed S] [--groups FILE] [--quiet]
//	    [--report FILE.html|FILE.json]... [--report-external]
//	sdcbench eval [--dataset NAME | --orig FILE] --masked FILE --metrics a,b,...
//	    [--columns a,b] [--keep c,d] [--keys k1,k2] [--weight W] [--household H] [--sensitive S]
//	    [--categorical c,d] [--control FILE] [--metric-opt key=value]... [--per-record FILE]
//	sdcbench stats wilcoxon [--paired] [--exact auto|yes|no] [--no-correct] [--conf-int [--conf-level L]] FILE
//	    | stats adjust [--method holm|BH] FILE | stats friedman [--alpha A] FILE
//
// eval needs no original (--dataset or --orig) when every measure reads the release alone (the
// categorical risk measures; docs/own-data.md §2).
//
// Flags come before positional arguments. See README.md for a tour and docs/harness.md for the
// details. Each command registers itself in commands from an init function in its own file; a
// test fails when a command's usage line is missing here.
package main
