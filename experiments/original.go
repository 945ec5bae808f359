package experiments

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

// OriginalMethod names the unprotected original where it stands beside the configurations
// (summary.csv, REPORT.md, plots; docs/analysis.md "The unprotected original").
const OriginalMethod = "original"

// Original is the measures of one dataset's unprotected original.
type Original struct {
	Dataset string
	// Values holds the metric columns of runs.csv (MetricColumns) as the runner writes them:
	// shortest round-trip numbers, NaN, and empty cells for a measure that does not apply.
	Values []string
	// Note is what runs.csv's error column would hold: the measures that do not apply, and why.
	Note string
	// Err, when not empty, says why the original could not be measured (Values is then nil).
	Err string
}

// MetricColumns returns the metric columns of the spec's runs.csv, in order: each metric and
// its components (<ID>_<name>), without the profile columns.
func (s *Spec) MetricColumns() []string {
	h := s.Header()
	i := 5 + len(s.paramNames()) + len(s.selNames())
	n := len(h) - 3 - i
	if s.Profile {
		n -= len(s.Metrics) + 2
	}
	return h[i : i+n]
}

// EvaluateOriginal measures the unprotected original of the dataset label with the spec's
// metrics, as the runner measures a release (the same evaluation, options and column gate):
// the release is the original itself, its protected columns those the dataset entry selects
// for a method of any column kind, its whole table the entry's released columns. Loss measures
// are then 0 and risk measures the risk of publishing the data unprotected, the reference
// sdcMicro prints beside every protection. The spec must come from Parse (datasets loaded).
func (s *Spec) EvaluateOriginal(label string) (Original, error) {
	d, err := s.Dataset(label)
	if err != nil {
		return Original{}, err
	}
	pr, err := methods.Prepare(d, s.entries[label].selection(), methods.Info{Name: OriginalMethod, Columns: methods.AnyColumns})
	if err != nil {
		return Original{}, fmt.Errorf("experiments: original of %s: %w", label, err)
	}
	x := &executor{spec: s}
	vals, _, note, err := x.evaluate(context.Background(), pr.Protected, &methods.Release{Masked: pr.Protected}, pr.Full, nil, nil, s.EvalOptions(label))
	if err != nil {
		return Original{}, fmt.Errorf("experiments: original of %s: %w", label, err)
	}
	return Original{Dataset: label, Values: vals, Note: note}, nil
}

// Originals measures the unprotected original of every dataset of the spec recorded in the
// results folder dir's manifest man (EvaluateOriginal), in spec order. The spec is parsed as a
// run would parse it, relative dataset paths resolved against the recorded spec folder; when
// that fails (a dataset file moved, a method no longer known) the error says so and nothing is
// measured. A dataset whose content differs from the one the runs used (its recorded hash)
// gets Err instead of values; so does one whose evaluation fails. Notes records metric
// definitions that changed since the runs (then the original is measured with today's). The
// measures a rescore added (resultsdir.Manifest.Rescored) come after the spec's.
func Originals(dir string, man *resultsdir.Manifest) (origs []Original, notes []string, err error) {
	if man == nil || man.Spec == "" {
		return nil, nil, fmt.Errorf("experiments: %s: no spec in the manifest", dir)
	}
	specDir := man.SpecDir
	if specDir == "" {
		specDir = dir
	}
	s, err := parseIn([]byte(man.Spec), filepath.Join(dir, resultsdir.ManifestFile), specDir)
	if err != nil {
		return nil, nil, err
	}
	s.Metrics = append(s.Metrics, man.RescoredMetrics()...) // the measures rescore added, as runs.csv has them
	for _, id := range s.Metrics {
		m, err := metrics.Lookup(id)
		if v, ok := man.MetricVersions[id]; err == nil && ok && v != m.Info().DefinitionVersion() {
			notes = append(notes, fmt.Sprintf("%s is measured with definition version %d, the runs with %d", id, m.Info().DefinitionVersion(), v))
		}
	}
	for _, label := range s.DatasetLabels() {
		d, _ := s.Dataset(label)
		if h, ok := man.DatasetHashes[label]; ok && h != DatasetHash(d) {
			origs = append(origs, Original{Dataset: label, Err: fmt.Sprintf("dataset %s differs from the one the runs used (content hash)", label)})
			continue
		}
		o, err := s.EvaluateOriginal(label)
		if err != nil {
			o = Original{Dataset: label, Err: err.Error()}
		}
		origs = append(origs, o)
	}
	return origs, notes, nil
}
