package analysis

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/experiments/stats"
)

// SeedRow is one published number of a seed beside ours (docs/reproducing.md "What
// reproduced means").
type SeedRow struct {
	Table, Item string // the seed's table and the quoted cell, e.g. "Table 5.5", "(0.1, 0.1, 0.9)"
	// Source says what the row checks: resultsdir.SourceStudy (a number printed in the
	// publication) or resultsdir.SourceReference (sdcMicro's output, a formula, our defaults).
	Source       resultsdir.Source
	Stat, Metric string
	Where        string
	Published    string
	Ours         float64            // NaN when not numeric or not computable
	OursText     string             // ours as printed (a configuration for stat "best")
	Diff         float64            // Ours − Published, NaN when either is not a number
	Criterion    string             // exact, tolerance or pattern
	Tolerance    float64            // absolute, for criterion tolerance (optional for exact)
	Expect       string             // the pattern test, e.g. "<= 5", ">= 0.05", "= mdav"
	Verdict      resultsdir.Verdict // exact, within tolerance, pattern or not reproduced
	Note         string
}

var seedHeader = []string{"table", "item", "source", "stat", "metric", "where", "published", "ours", "difference", "criterion", "tolerance", "expect", "verdict", "note"}

func seedRows(rows []SeedRow) [][]string {
	out := make([][]string, len(rows))
	for i, s := range rows {
		tol := ""
		if s.Tolerance != 0 {
			tol = ftoa(s.Tolerance)
		}
		out[i] = []string{s.Table, s.Item, string(s.Source), s.Stat, s.Metric, s.Where, s.Published, s.OursText, ftoaOrEmpty(s.Diff), s.Criterion, tol, s.Expect, string(s.Verdict), s.Note}
	}
	return out
}

func ftoaOrEmpty(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return ftoa(v)
}

// CompareSeed reads a seed file and computes our value and the verdict of each row.
//
// The file is a CSV with a header naming at least table, item, source, stat, metric, published
// and criterion, and optionally where, tolerance, expect and note. item must not be empty; source
// is study (a number printed in the publication) or reference (sdcMicro's output, a formula, our
// own defaults), as in verdicts.csv. stat is one of
//
//   - n, mean, median, sd, min, max, q1, q3: over the ok runs selected by where;
//   - wins, win_pct: from wins.csv (summed over the rows where selects);
//   - gap_min, gap_median, gap_mean, gap_sd, gap_max: from gaps.csv (one row);
//   - rank, p_vs_best, same_as_best (1 or 0): from best.csv, on the instance where selects (its
//     dataset, k, …), else the first; best: the best configuration's label there;
//   - friedman_rank, friedman_p: from friedman.csv;
//   - pairs_rejected, pairs_not_rejected: pairwise tests of the metric with p < alpha, or not.
//
// where is "key=value;key=value" over runs.csv columns (parameters with or without param_) and
// "config=<label>". criterion is exact (ours rounded to the published decimals equals it; a
// tolerance, if given, grants "within tolerance"), tolerance (|ours − published| ≤ tolerance) or
// pattern (the expect test, "<= 5", "< 0.05", "= mdav", holds for ours).
func CompareSeed(r *Result, path string) ([]SeedRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.Comment = '#'
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("analysis: %s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, nil
	}
	hdr := recs[0]
	for _, need := range []string{"table", "item", "source", "stat", "metric", "published", "criterion"} {
		if !slices.Contains(hdr, need) {
			return nil, fmt.Errorf("analysis: %s: no %q column", path, need)
		}
	}
	var out []SeedRow
	for line, rec := range recs[1:] {
		get := func(c string) string {
			if i := slices.Index(hdr, c); i >= 0 {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		s := SeedRow{Table: get("table"), Item: get("item"), Stat: get("stat"), Metric: get("metric"), Where: get("where"),
			Published: get("published"), Criterion: get("criterion"), Expect: get("expect"), Note: get("note"), Diff: math.NaN()}
		if t := get("tolerance"); t != "" {
			if s.Tolerance, err = strconv.ParseFloat(t, 64); err != nil {
				return nil, fmt.Errorf("analysis: %s:%d: tolerance: %w", path, line+2, err)
			}
		}
		s.Source = resultsdir.Source(get("source"))
		if s.Source != resultsdir.SourceStudy && s.Source != resultsdir.SourceReference {
			return nil, fmt.Errorf("analysis: %s:%d: source must be %s or %s, have %q", path, line+2, resultsdir.SourceStudy, resultsdir.SourceReference, s.Source)
		}
		if s.Item == "" {
			return nil, fmt.Errorf("analysis: %s:%d: empty item", path, line+2)
		}
		switch s.Criterion {
		case "exact", "tolerance", "pattern":
		default:
			return nil, fmt.Errorf("analysis: %s:%d: criterion must be exact, tolerance or pattern, have %q", path, line+2, s.Criterion)
		}
		ours, text, err := r.seedValue(s)
		if err != nil {
			s.Note = strings.TrimSpace(s.Note + " " + err.Error())
			ours, text = math.NaN(), "n/a"
		}
		s.Ours, s.OursText = ours, text
		s.Verdict = verdict(&s)
		out = append(out, s)
	}
	return out, nil
}

// verdict decides one row and sets its Diff.
func verdict(s *SeedRow) resultsdir.Verdict {
	pub, perr := strconv.ParseFloat(s.Published, 64)
	if perr == nil && !math.IsNaN(s.Ours) {
		s.Diff = s.Ours - pub
	}
	switch s.Criterion {
	case "exact":
		if perr == nil && !math.IsNaN(s.Ours) {
			scale := math.Pow(10, float64(decimals(s.Published)))
			if math.Round(s.Ours*scale) == math.Round(pub*scale) {
				return resultsdir.Exact
			}
		} else if perr != nil && s.OursText == s.Published {
			return resultsdir.Exact
		}
		if !math.IsNaN(s.Diff) && s.Tolerance > 0 && math.Abs(s.Diff) <= s.Tolerance {
			return resultsdir.Tolerance
		}
	case "tolerance":
		if !math.IsNaN(s.Diff) && math.Abs(s.Diff) <= s.Tolerance {
			return resultsdir.Tolerance
		}
	case "pattern":
		if holds(s.Expect, s.Ours, s.OursText) {
			return resultsdir.Pattern
		}
	}
	return resultsdir.NotReproduced
}

// decimals returns the number of digits after the decimal point of a published number.
func decimals(s string) int {
	s, _, _ = strings.Cut(strings.ToLower(s), "e")
	if _, frac, ok := strings.Cut(s, "."); ok {
		return len(frac)
	}
	return 0
}

// holds evaluates an expect test such as "<= 5" or "= mdav" on ours.
func holds(expect string, ours float64, text string) bool {
	expect = strings.TrimSpace(expect)
	for _, op := range []string{"<=", ">=", "==", "!=", "<", ">", "="} {
		if !strings.HasPrefix(expect, op) {
			continue
		}
		arg := strings.TrimSpace(expect[len(op):])
		v, err := strconv.ParseFloat(arg, 64)
		if err != nil || math.IsNaN(ours) {
			eq := text == arg
			return (op == "=" || op == "==") && eq || op == "!=" && !eq
		}
		switch op {
		case "<=":
			return ours <= v
		case ">=":
			return ours >= v
		case "<":
			return ours < v
		case ">":
			return ours > v
		case "!=":
			return ours != v
		}
		return ours == v
	}
	return false
}

// parseWhere splits "a=1;b=x" into pairs, mapping parameter names to their columns.
func (r *Result) parseWhere(w string) ([][2]string, error) {
	var out [][2]string
	for _, part := range strings.Split(w, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("where: %q is not key=value", part)
		}
		k = strings.TrimSpace(k)
		if k != "config" {
			k = paramName(r.Runs.Header, k)
			if r.Runs.Col(k) < 0 {
				return nil, fmt.Errorf("where: no column %q", k)
			}
		}
		out = append(out, [2]string{k, strings.TrimSpace(v)})
	}
	return out, nil
}

// configMatches reports whether configuration label c agrees with the where pairs on the
// configuration's columns and label; by gives the WinsBy values (nil to ignore them).
func (r *Result) configMatches(c string, by []string, where [][2]string) bool {
	ci := slices.Index(r.Plan.Configs, c)
	for _, kv := range where {
		switch {
		case kv[0] == "config":
			if c != kv[1] {
				return false
			}
		case slices.Contains(r.Plan.ConfigCols, kv[0]):
			if ci < 0 || r.configValue(ci, kv[0]) != kv[1] {
				return false
			}
		case by != nil && slices.Contains(r.Plan.WinsBy, kv[0]):
			if by[slices.Index(r.Plan.WinsBy, kv[0])] != kv[1] {
				return false
			}
		}
	}
	return true
}

// instanceMatches reports whether the instance values by (Plan.Units) agree with the where
// conditions on the units' columns; best.csv's rows are per instance, and a seed row without
// such a condition takes the first instance.
func (r *Result) instanceMatches(by []string, where [][2]string) bool {
	for _, kv := range where {
		if i := slices.Index(r.Plan.Units, kv[0]); i >= 0 && i < len(by) && by[i] != kv[1] {
			return false
		}
	}
	return true
}

// configValue returns column col of configuration c (from its first run).
func (r *Result) configValue(c int, col string) string {
	for i, rc := range r.Plan.config {
		if rc == c {
			return r.Runs.Get(i, col)
		}
	}
	return ""
}

// seedValue computes our number for a seed row.
func (r *Result) seedValue(s SeedRow) (float64, string, error) {
	where, err := r.parseWhere(s.Where)
	if err != nil {
		return 0, "", err
	}
	num := func(v float64) (float64, string, error) { return v, ftoa(v), nil }
	m := s.Metric
	switch s.Stat {
	case "n", "mean", "median", "sd", "min", "max", "q1", "q3":
		j := r.Runs.ValueCol(m)
		if j < 0 {
			return 0, "", fmt.Errorf("no column %q", m)
		}
		var v []float64
	rows:
		for i, run := range r.Runs.Rows {
			if !run.OK {
				continue
			}
			for _, kv := range where {
				if kv[0] == "config" {
					if c := r.Plan.config[i]; r.Plan.Configs[c] != kv[1] {
						continue rows
					}
				} else if r.Runs.Get(i, kv[0]) != kv[1] {
					continue rows
				}
			}
			v = append(v, run.Values[j])
		}
		sum := stats.NewSample(v).Summary()
		if sum.N == 0 && s.Stat != "n" {
			return 0, "", fmt.Errorf("no ok run with a finite %s matches", m)
		}
		return num(map[string]float64{"n": float64(sum.N), "mean": sum.Mean, "median": sum.Median, "sd": sum.SD,
			"min": sum.Min, "max": sum.Max, "q1": sum.Q1, "q3": sum.Q3}[s.Stat])
	case "wins", "win_pct":
		var wins, inst, found int
		for _, w := range r.Wins {
			if w.Metric == m && r.configMatches(w.Config, w.By, where) {
				wins, inst, found = wins+w.Wins, inst+w.Instances, found+1
			}
		}
		if found == 0 {
			return 0, "", fmt.Errorf("no wins row")
		}
		if s.Stat == "wins" {
			return num(float64(wins))
		}
		return num(100 * float64(wins) / float64(inst))
	case "gap_min", "gap_median", "gap_mean", "gap_sd", "gap_max":
		var hit []GapRow
		for _, g := range r.Gaps {
			if g.Metric == m && r.configMatches(g.Config, g.By, where) {
				hit = append(hit, g)
			}
		}
		if len(hit) != 1 {
			return 0, "", fmt.Errorf("%d gap rows match", len(hit))
		}
		g := hit[0]
		return num(map[string]float64{"gap_min": g.Min, "gap_median": g.Median, "gap_mean": g.Mean, "gap_sd": g.SD, "gap_max": g.Max}[s.Stat])
	case "rank", "p_vs_best", "same_as_best", "best":
		for _, b := range r.Best {
			if b.Metric != m || !r.instanceMatches(b.Instance, where) {
				continue
			}
			if s.Stat == "best" {
				return math.NaN(), b.Config, nil
			}
			if r.configMatches(b.Config, nil, where) {
				switch s.Stat {
				case "rank":
					return num(float64(b.Rank))
				case "p_vs_best":
					return num(b.P)
				}
				if b.SameAsBest {
					return num(1)
				}
				return num(0)
			}
		}
		return 0, "", fmt.Errorf("no configuration of best.csv (%s) matches", m)
	case "friedman_rank", "friedman_p":
		for _, f := range r.Friedman {
			if f.Metric == m && r.configMatches(f.Config, nil, where) {
				if s.Stat == "friedman_p" {
					return num(f.P)
				}
				return num(f.MeanRank)
			}
		}
		return 0, "", fmt.Errorf("no friedman.csv row")
	case "pairs_rejected", "pairs_not_rejected":
		var rej, not int
		for _, p := range r.Pairs {
			if p.Metric == m {
				if p.P < r.Plan.Alpha {
					rej++
				} else {
					not++
				}
			}
		}
		if s.Stat == "pairs_rejected" {
			return num(float64(rej))
		}
		return num(float64(not))
	}
	return 0, "", fmt.Errorf("unknown stat %q", s.Stat)
}
