package analysis

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// ErrNotComparable is wrapped by Baseline's error when two folders measured different things.
var ErrNotComparable = errors.New("results not comparable")

// BaselineColumn is the parameter column that tells the two folders apart in a baseline
// comparison: "old" or "new".
const BaselineColumn = "param_from"

// BaselineOptions tune Baseline.
type BaselineOptions struct {
	// TrustUnversioned accepts an OLD folder written before sdcbench recorded metric versions
	// and dataset hashes (docs/analysis.md "Comparing against archived results"); otherwise such
	// a folder is refused.
	TrustUnversioned bool
}

// Baseline analyses the configurations of the results folder newDir against those of the
// archived folder oldDir without re-running either: the two runs tables are stacked, every
// configuration gets from=old or from=new, and the pairwise tests compare each new
// configuration with each old one, paired on the blocks (dataset, k) both folders have. The
// analysis settings are cfg (normally newDir's). It refuses, wrapping ErrNotComparable, when a
// metric both folders report has different definition versions or a dataset both use has
// different content hashes (manifest.json), and when oldDir predates those records unless
// opt.TrustUnversioned. The result's Dir is out, where Write should put it.
func Baseline(ctx context.Context, oldDir, newDir, out string, cfg Config, opt BaselineOptions) (*Result, error) {
	oldM, err := resultsdir.ReadManifest(oldDir)
	if err != nil {
		return nil, fmt.Errorf("analysis: baseline %s: %w", oldDir, err)
	}
	newM, err := resultsdir.ReadManifest(newDir)
	if err != nil {
		return nil, fmt.Errorf("analysis: baseline %s: %w", newDir, err)
	}
	oldRuns, err := ReadRuns(oldDir)
	if err != nil {
		return nil, err
	}
	newRuns, err := ReadRuns(newDir)
	if err != nil {
		return nil, err
	}
	if err := comparable(oldDir, newDir, oldM, newM, oldRuns, newRuns, opt); err != nil {
		return nil, err
	}
	merged, err := stackRuns(oldRuns, newRuns)
	if err != nil {
		return nil, err
	}
	man := *newM
	man.Name = fmt.Sprintf("%s vs baseline %s", filepath.Base(filepath.Clean(newDir)), filepath.Base(filepath.Clean(oldDir)))
	if cfg.Configs != nil && !slices.Contains(cfg.Configs, BaselineColumn) && !slices.Contains(cfg.Configs, short(BaselineColumn)) {
		cfg.Configs = append(slices.Clone(cfg.Configs), BaselineColumn)
	}
	cfg.Table = TableConfig{}
	cfg.Seed = ""
	cross := func(a, b string) bool { return isOld(a) != isOld(b) }
	res, err := analyzeRuns(ctx, out, merged, &man, cfg, cross)
	if err != nil {
		return nil, err
	}
	res.Plan.Warnings = append(res.Plan.Warnings, fmt.Sprintf("baseline comparison: configurations from=old are %s, from=new are %s; tests compare new with old only", oldDir, newDir))
	return res, nil
}

func isOld(config string) bool { return strings.Contains(config, short(BaselineColumn)+"=old") }

// comparable checks the metric versions and dataset hashes of the metrics and datasets both
// folders have.
func comparable(oldDir, newDir string, oldM, newM *resultsdir.Manifest, oldRuns, newRuns *Runs, opt BaselineOptions) error {
	if len(oldM.MetricVersions) == 0 || len(oldM.DatasetHashes) == 0 || len(newM.MetricVersions) == 0 || len(newM.DatasetHashes) == 0 {
		if !opt.TrustUnversioned {
			which := oldDir
			if len(newM.MetricVersions) == 0 || len(newM.DatasetHashes) == 0 {
				which = newDir
			}
			return fmt.Errorf("analysis: baseline: %w: %s/manifest.json records no metric versions or dataset hashes (written before sdcbench recorded them); re-run it, or pass --trust-unversioned to compare on trust", ErrNotComparable, which)
		}
	}
	for _, m := range oldRuns.Values {
		if m == "seconds" || newRuns.ValueCol(m) < 0 {
			continue
		}
		vo, okO := oldM.MetricVersions[m]
		vn, okN := newM.MetricVersions[m]
		if okO && okN && vo != vn {
			return fmt.Errorf("analysis: baseline: %w: metric %s is version %d in %s and version %d in %s", ErrNotComparable, m, vo, oldDir, vn, newDir)
		}
	}
	for d, ho := range oldM.DatasetHashes {
		if hn, ok := newM.DatasetHashes[d]; ok && hn != ho {
			return fmt.Errorf("analysis: baseline: %w: dataset %s has content hash %.12s in %s and %.12s in %s", ErrNotComparable, d, ho, oldDir, hn, newDir)
		}
	}
	shared := false
	for _, d := range distinct(oldRuns, "dataset") {
		if slices.Contains(distinct(newRuns, "dataset"), d) {
			shared = true
		}
	}
	if !shared {
		return fmt.Errorf("analysis: baseline: %w: %s and %s share no dataset", ErrNotComparable, oldDir, newDir)
	}
	return nil
}

func distinct(runs *Runs, col string) []string {
	var out []string
	j := runs.Col(col)
	for _, r := range runs.Rows {
		if !slices.Contains(out, r.Cells[j]) {
			out = append(out, r.Cells[j])
		}
	}
	return out
}

// stackRuns returns the rows of a then b under the union of their columns, with BaselineColumn
// set to old for a's rows and new for b's, and run ids prefixed likewise.
func stackRuns(a, b *Runs) (*Runs, error) {
	var params, values []string
	for _, r := range []*Runs{a, b} {
		for _, p := range r.Params {
			if !slices.Contains(params, p) {
				params = append(params, p)
			}
		}
		for _, v := range r.Values {
			if v != "seconds" && !slices.Contains(values, v) {
				values = append(values, v)
			}
		}
	}
	params = append(params, BaselineColumn)
	header := append(append(append([]string{"run_id", "dataset", "method"}, params...), "replicate", "seed"), values...)
	header = append(header, "seconds", "status", "error")
	t := &resultsdir.Table{Header: header}
	for k, r := range []*Runs{a, b} {
		from := []string{"old", "new"}[k]
		for i := range r.Rows {
			rec := make([]string, len(header))
			for j, h := range header {
				switch h {
				case BaselineColumn:
					rec[j] = from
				case "run_id":
					rec[j] = from + ":" + r.Get(i, h)
				default:
					rec[j] = r.Get(i, h)
				}
			}
			t.Rows = append(t.Rows, rec)
		}
	}
	return fromTable(t, "baseline runs")
}

// BaselineDir is where the comparison with oldDir is written inside newDir.
func BaselineDir(oldDir, newDir string) string {
	return filepath.Join(newDir, "baseline-"+slug(filepath.Base(filepath.Clean(oldDir))))
}

// RunBaseline is Baseline followed by Write into BaselineDir(oldDir, newDir).
func RunBaseline(ctx context.Context, oldDir, newDir string, cfg Config, opt BaselineOptions) (*Result, error) {
	out := BaselineDir(oldDir, newDir)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	res, err := Baseline(ctx, oldDir, newDir, out, cfg, opt)
	if err != nil {
		os.Remove(out) // only if empty
		return nil, err
	}
	return res, res.Write(ctx, out)
}
