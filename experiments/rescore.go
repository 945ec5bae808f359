package experiments

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/metrics"
)

// Rescore adds the measures ids to the finished results folder dir without protecting again
// (docs/harness.md "Stored releases and rescore"): it reads the spec from dir's manifest.json
// and, for every run recorded ok, its stored release (run --keep-releases), evaluates the
// measures as the runner does (the same executor.evaluate, on the same original, whole
// release, partition, held-out rows and metric options), appends their columns to runs.csv
// (rewritten atomically; the rows of runs not ok get empty cells) and records the rescore in
// manifest.json (Manifest.Rescored, MetricVersions). The values equal those of a fresh run of
// the spec with ids added to its metrics.
//
// It refuses, changing nothing: an unfinished folder, one without stored releases, an unknown
// measure, one already in runs.csv, one that reads the method's diagnostics
// (metrics.Info.Diag, which a stored release does not hold), datasets that changed since
// the run, a run whose stored release is missing or corrupt (naming it) and a run whose new
// measures exceed the spec's time_limit.
func Rescore(ctx context.Context, dir string, ids []string) (*resultsdir.Rescore, error) {
	if len(ids) == 0 {
		return nil, errors.New("experiments: rescore: no metrics given")
	}
	unlock, err := resultsdir.Lock(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	man, err := resultsdir.ReadManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("experiments: rescore: %w", err)
	}
	if !man.Complete {
		return nil, fmt.Errorf("experiments: rescore: %s is not finished: run its spec to the end first", dir)
	}
	if fi, err := os.Lstat(filepath.Join(dir, resultsdir.ReleasesDir)); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("experiments: rescore: %s is not a folder (%s): the releases must be the folder's own",
			filepath.Join(dir, resultsdir.ReleasesDir), datasets.FileKind(fi.Mode()))
	} else if err != nil {
		return nil, fmt.Errorf("experiments: rescore: %s holds no stored releases (no folder %s/): "+
			"run the spec again with --keep-releases (or keep_releases = true) to rescore it later", dir, resultsdir.ReleasesDir)
	}
	specDir := cmp.Or(man.SpecDir, dir)
	s, err := parseIn([]byte(man.Spec), filepath.Join(dir, resultsdir.ManifestFile), specDir)
	if err != nil {
		return nil, err
	}
	if err := resultsdir.SameDefinitions(man, newManifest(s, Shard{}, 0, 0)); err != nil {
		return nil, fmt.Errorf("experiments: rescore: %s was made under other definitions than the current ones (then vs now: %v): "+
			"run the spec again", dir, err)
	}
	runs, err := resultsdir.ReadRuns(dir)
	if err != nil {
		return nil, err
	}
	had := *s
	had.Metrics = append(slices.Clone(s.Metrics), man.RescoredMetrics()...)
	if !slices.Equal(runs.Header, had.Header()) {
		return nil, fmt.Errorf("experiments: rescore: %s: runs.csv has other columns than its spec gives", dir)
	}
	for i, id := range ids {
		m, err := metrics.Lookup(id)
		switch {
		case err != nil:
			return nil, fmt.Errorf("experiments: rescore: unknown metric %q (sdcbench list metrics lists them)", id)
		case slices.Contains(had.Metrics, id):
			return nil, fmt.Errorf("experiments: rescore: metric %s is already in %s's runs.csv", id, dir)
		case slices.Contains(ids[:i], id):
			return nil, fmt.Errorf("experiments: rescore: metric %s is given twice", id)
		case m.Info().Diag:
			return nil, fmt.Errorf("experiments: rescore: metric %s reads the method's diagnostics, which a stored release does not hold: "+
				"add it to the spec's metrics and run again", id)
		}
	}
	for _, label := range s.labels {
		if err := metrics.CheckAttackOptions(ids, s.metricOpt, s.data[label].Names); err != nil {
			return nil, fmt.Errorf("experiments: rescore: dataset %s: %w (set it in the spec's [metric_options] and run again)", label, err)
		}
	}
	now := had
	now.Metrics = append(slices.Clone(had.Metrics), ids...)
	header := now.Header()
	add := *s
	add.Metrics = ids
	x := &executor{spec: &add, limit: s.timeLimit}
	addCols := x.metricColumns()
	byID := make(map[string]Run, len(s.runs))
	for _, r := range s.runs {
		byID[r.ID] = r
	}
	cID, cStatus, cErr := runs.Col("run_id"), runs.Col("status"), runs.Col("error")
	out := &resultsdir.Table{Header: header, Rows: make([][]string, len(runs.Rows))}
	for k, row := range runs.Rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cells := make(map[string]string, len(header))
		for j, name := range runs.Header {
			cells[name] = row[j]
		}
		if row[cStatus] == StatusOK {
			r, ok := byID[row[cID]]
			if !ok {
				return nil, fmt.Errorf("experiments: rescore: runs.csv row %d: run %s is not in the spec's grid", k+2, row[cID])
			}
			vals, secs, note, err := x.rescoreRun(ctx, dir, r)
			if err != nil {
				return nil, fmt.Errorf("experiments: rescore: %w", err)
			}
			for j, c := range addCols {
				cells[c] = vals[j]
			}
			for j, id := range ids {
				cells[id+"_seconds"] = secs[j]
			}
			if note != "" {
				cells["error"] = strings.TrimPrefix(row[cErr]+"; "+note, "; ")
			}
		}
		out.Rows[k] = make([]string, len(header))
		for j, name := range header {
			out.Rows[k][j] = cells[name]
		}
	}
	if err := resultsdir.WriteTable(filepath.Join(dir, resultsdir.RunsFile), out); err != nil {
		return nil, err
	}
	rec := resultsdir.Rescore{Metrics: slices.Clone(ids), Time: time.Now().UTC(), Tool: Version}
	man.Rescored = append(man.Rescored, rec)
	if man.MetricVersions == nil {
		man.MetricVersions = map[string]int{}
	}
	for _, id := range ids {
		m, _ := metrics.Lookup(id)
		man.MetricVersions[id] = m.Info().DefinitionVersion()
	}
	if err := resultsdir.WriteManifest(dir, man); err != nil {
		return nil, err
	}
	return &rec, nil
}

// rescoreRun evaluates x's metrics on the stored release of run r in dir, on the inputs the
// runner gave them: the run's protected table (after its holdout split), the whole release
// rebuilt from it, the stored partition and measured columns, and the held-out rows. The
// spec's time limit bounds the measures of the run; exceeding it is an error.
func (x *executor) rescoreRun(ctx context.Context, dir string, r Run) (vals, secs []string, note string, err error) {
	pr, sel, err := x.spec.runPrepared(r)
	var ctl *datasets.Dataset
	var shadow func(names []string) metrics.ShadowFunc
	if err == nil {
		full := pr
		shadow = func(names []string) metrics.ShadowFunc { return x.spec.shadowFunc(full, sel, r, names) }
		pr, ctl, err = x.spec.holdoutSplit(pr, sel, r.method, r.Seed)
	}
	if err != nil {
		return nil, nil, "", fmt.Errorf("run %s: %w", r.ID, err)
	}
	rel, err := readRelease(dir, r.ID, pr.Protected)
	if err != nil {
		return nil, nil, "", err
	}
	if x.limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, x.limit)
		defer cancel()
	}
	vals, secs, note, _, err = x.evaluateBy(ctx, pr.Protected, rel, pr.Released(rel.Masked), ctl, shadow, x.spec.EvalOptions(r.Dataset))
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, nil, "", fmt.Errorf("run %s: the time limit %s exceeded by the measures", r.ID, x.limit)
	}
	if err != nil {
		return nil, nil, "", fmt.Errorf("run %s: %w", r.ID, err)
	}
	return vals, secs, note, nil
}
