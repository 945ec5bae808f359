package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/stats"
)

func init() {
	commands["stats"] = command{
		usage: "stats wilcoxon [--paired] [--exact auto|yes|no] [--no-correct] [--conf-int [--conf-level L]] FILE | stats adjust [--method holm|BH] FILE | stats friedman [--alpha A] FILE",
		run:   runStats,
	}
}

// runStats runs one test of package experiments/stats on a CSV file ("-" for stdin) and prints
// the result as JSON. The numbers are those of R's wilcox.test, p.adjust and friedman.test.
func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageErr("stats", "want a test: wilcoxon, adjust or friedman")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintf(stderr, "usage: sdcbench %s\n", commands["stats"].usage)
		return nil
	case "wilcoxon":
		return statsWilcoxon(ctx, args[1:], stdout, stderr)
	case "adjust":
		return statsAdjust(args[1:], stdout, stderr)
	case "friedman":
		return statsFriedman(args[1:], stdout, stderr)
	}
	return usageErr("stats", "unknown test %q (have wilcoxon, adjust, friedman)", args[0])
}

// jnum is a float64 that encodes NaN and ±Inf as JSON null.
type jnum float64

func (v jnum) MarshalJSON() ([]byte, error) {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return []byte(strconv.FormatFloat(f, 'g', -1, 64)), nil
}

func jnums(x []float64) []jnum {
	out := make([]jnum, len(x))
	for i, v := range x {
		out[i] = jnum(v)
	}
	return out
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// readColumns reads a CSV with a header and returns its numeric columns by name; empty cells
// and NA are NaN.
func readColumns(path string) (header []string, cols [][]float64, err error) {
	var r io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		r = f
	}
	cr := csv.NewReader(datasets.LimitRecords(r, path))
	cr.FieldsPerRecord = -1
	recs, err := cr.ReadAll()
	if errors.Is(err, datasets.ErrTooLarge) {
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, nil, fmt.Errorf("%s: empty file", path)
	}
	header = recs[0]
	first := map[string]int{}
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
		if j, dup := first[header[i]]; dup {
			return nil, nil, fmt.Errorf("%s: duplicate column name %q (columns %d and %d): rename one", path, header[i], j+1, i+1)
		}
		first[header[i]] = i
	}
	if len(recs) == 1 {
		return nil, nil, fmt.Errorf("%s: no data rows (only the header %s)", path, strings.Join(header, ","))
	}
	cols = make([][]float64, len(header))
	for line, rec := range recs[1:] {
		for j := range header {
			v := math.NaN()
			if j < len(rec) {
				s := strings.TrimSpace(rec[j])
				if s != "" && s != "NA" {
					if v, err = strconv.ParseFloat(s, 64); err != nil {
						return nil, nil, fmt.Errorf("%s:%d: column %s: not a number: %q", path, line+2, header[j], s)
					}
				}
			}
			cols[j] = append(cols[j], v)
		}
	}
	return header, cols, nil
}

// printWarnings writes each warning of a test to stderr (the JSON on stdout keeps them too).
func printWarnings(stderr io.Writer, test string, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(stderr, "sdcbench stats %s: warning: %s\n", test, w)
	}
}

func column(path string, header []string, cols [][]float64, name string) ([]float64, error) {
	j := slices.Index(header, name)
	if j < 0 {
		return nil, fmt.Errorf("%s: no column %q (have %s)", path, name, strings.Join(header, ", "))
	}
	return cols[j], nil
}

func statsWilcoxon(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	usage := "stats wilcoxon [--paired | --mu V] [--exact auto|yes|no] [--no-correct] [--conf-int [--conf-level L]] FILE"
	fs := newFlags("stats wilcoxon", usage, stderr)
	paired := fs.Bool("paired", false, "signed-rank test of the pairs (x, y) instead of the rank-sum test")
	mu := fs.Float64("mu", 0, "one-sample signed-rank test of column x against the value V (R's wilcox.test(x, mu = V)); no column y")
	exact := fs.String("exact", "auto", "exact p-value: auto (R's exact = NULL), yes or no")
	noCorrect := fs.Bool("no-correct", false, "no continuity correction (R's correct = FALSE)")
	alpha := fs.Float64("alpha", 0.05, "level for the warnings")
	confInt := fs.Bool("conf-int", false, "Hodges–Lehmann estimate and confidence interval (R's conf.int = TRUE)")
	confLevel := fs.Float64("conf-level", 0.95, "confidence level of --conf-int")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !(*confLevel > 0 && *confLevel < 1) {
		return usageErr("stats wilcoxon", "--conf-level must be in (0, 1) (got %v)", *confLevel)
	}
	if fs.NArg() != 1 {
		return usageErr("stats wilcoxon", "want one CSV FILE with columns x and y (\"-\" for stdin)")
	}
	opt := &stats.WilcoxonOptions{NoCorrect: *noCorrect, Alpha: *alpha, ConfInt: *confInt, ConfLevel: *confLevel, Context: ctx}
	switch *exact {
	case "auto":
	case "yes":
		opt.Exact = stats.ExactAlways
	case "no":
		opt.Exact = stats.ExactNever
	default:
		return usageErr("stats wilcoxon", "--exact must be auto, yes or no (got %q)", *exact)
	}
	if !(*alpha > 0 && *alpha < 1) {
		return usageErr("stats wilcoxon", "--alpha must be in (0, 1) (got %v)", *alpha)
	}
	oneSample := false
	fs.Visit(func(f *flag.Flag) { oneSample = oneSample || f.Name == "mu" })
	if oneSample && *paired {
		return usageErr("stats wilcoxon", "--mu and --paired exclude each other")
	}
	if oneSample && (math.IsNaN(*mu) || math.IsInf(*mu, 0)) {
		return usageErr("stats wilcoxon", "--mu must be a finite number (got %v)", *mu)
	}
	path := fs.Arg(0)
	header, cols, err := readColumns(path)
	if err != nil {
		return err
	}
	x, err := column(path, header, cols, "x")
	if err != nil {
		return err
	}
	var y []float64
	if !oneSample {
		if y, err = column(path, header, cols, "y"); err != nil {
			return err
		}
	}
	var c stats.Comparison
	name := "W"
	switch {
	case oneSample:
		c, name = stats.OneSample(x, *mu, opt), "V"
	case *paired:
		c, name = stats.SignedRank(x, y, opt), "V"
	default:
		c = stats.RankSum(x, y, opt)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("stats wilcoxon: interrupted before the exact distribution was complete: %w", err)
	}
	warnings := []string{}
	for _, w := range c.Warnings {
		warnings = append(warnings, strings.TrimPrefix(w.Error(), "stats: "))
	}
	printWarnings(stderr, "wilcoxon", warnings)
	out := struct {
		Method        string   `json:"method"`
		StatisticName string   `json:"statistic_name"`
		Statistic     jnum     `json:"statistic"`
		P             jnum     `json:"p_value"`
		Z             jnum     `json:"z"`
		Exact         bool     `json:"exact"`
		N1            int      `json:"n1"`
		N2            int      `json:"n2"`
		A12           jnum     `json:"a12"`
		R             jnum     `json:"r"`
		Estimate      *jnum    `json:"estimate,omitempty"`
		ConfInt       []jnum   `json:"conf_int,omitempty"`
		ConfLevel     *jnum    `json:"conf_level,omitempty"`
		Warnings      []string `json:"warnings"`
	}{Method: c.Method, StatisticName: name, Statistic: jnum(c.Statistic), P: jnum(c.P), Z: jnum(c.Z),
		Exact: c.Exact, N1: c.N1, N2: c.N2, A12: jnum(c.A12), R: jnum(c.R), Warnings: warnings}
	if s := c.Shift; s != nil {
		est, lvl := jnum(s.Estimate), jnum(s.Level)
		out.Estimate, out.ConfInt, out.ConfLevel = &est, []jnum{jnum(s.Lo), jnum(s.Hi)}, &lvl
	}
	return printJSON(stdout, out)
}

func statsAdjust(args []string, stdout, stderr io.Writer) error {
	usage := "stats adjust [--method holm|BH] FILE"
	fs := newFlags("stats adjust", usage, stderr)
	method := fs.String("method", "holm", "adjustment: holm or BH (R's p.adjust names)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErr("stats adjust", "want one CSV FILE with a column p")
	}
	m := stats.Adjustment(*method)
	if m != stats.Holm && m != stats.BH && m != stats.NoAdjust {
		return usageErr("stats adjust", "--method must be holm, BH or none (got %q)", *method)
	}
	header, cols, err := readColumns(fs.Arg(0))
	if err != nil {
		return err
	}
	p, err := column(fs.Arg(0), header, cols, "p")
	if err != nil {
		return err
	}
	return printJSON(stdout, struct {
		Method   string `json:"method"`
		P        []jnum `json:"p"`
		Adjusted []jnum `json:"p_adjusted"`
	}{*method, jnums(p), jnums(stats.Adjust(nil, p, m))})
}

func statsFriedman(args []string, stdout, stderr io.Writer) error {
	usage := "stats friedman [--alpha A] FILE"
	fs := newFlags("stats friedman", usage, stderr)
	alpha := fs.Float64("alpha", 0.05, "level of the Nemenyi critical difference")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErr("stats friedman", "want one CSV FILE: one column per treatment, one row per block")
	}
	if !(*alpha > 0 && *alpha < 1) {
		return usageErr("stats friedman", "--alpha must be in (0, 1) (got %v)", *alpha)
	}
	header, cols, err := readColumns(fs.Arg(0))
	if err != nil {
		return err
	}
	if len(cols) < 2 {
		return fmt.Errorf("%s: need at least two treatment columns", fs.Arg(0))
	}
	y := make([][]float64, len(cols[0]))
	for i := range y {
		y[i] = make([]float64, len(cols))
		for j := range cols {
			y[i][j] = cols[j][i]
		}
	}
	res := stats.Friedman(y, *alpha)
	var warnings []string
	for _, w := range res.Warnings {
		warnings = append(warnings, strings.TrimPrefix(w.Error(), "stats: "))
	}
	printWarnings(stderr, "friedman", warnings)
	ranks := map[string]jnum{}
	for j, h := range header {
		ranks[h] = jnum(res.MeanRanks[j])
	}
	return printJSON(stdout, struct {
		Method    string          `json:"method"`
		Statistic jnum            `json:"statistic"`
		DF        int             `json:"df"`
		P         jnum            `json:"p_value"`
		Blocks    int             `json:"blocks"`
		Ranks     map[string]jnum `json:"mean_ranks"`
		CD        jnum            `json:"nemenyi_cd"`
		Alpha     float64         `json:"alpha"`
	}{"Friedman rank sum test", jnum(res.Statistic), res.DF, jnum(res.P), res.N, ranks, jnum(res.CD), res.Alpha})
}
