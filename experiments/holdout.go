package experiments

import (
	"fmt"
	"hash"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

// validateAttack checks the holdout fraction and the [metric_options] table, resolves the
// latter into s.metricOpt, and checks the attack metrics' columns on every dataset.
func (s *Spec) validateAttack() error {
	if s.meta.IsDefined("holdout") && !(s.Holdout > 0 && s.Holdout <= 0.5) {
		return &SpecError{Key: "holdout", Err: fmt.Errorf("must be in (0, 0.5] (got %v)", s.Holdout)}
	}
	if s.Holdout <= 0 && slices.Contains(s.Metrics, "membership") {
		return &SpecError{Key: "holdout", Err: fmt.Errorf("metric membership needs held-out records (its non-members and shadow data): set holdout, e.g. holdout = 0.5")}
	}
	keys := make([]string, 0, len(s.MetricOptions))
	for k := range s.MetricOptions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := s.MetricOptions[k]
		var str string
		if list, ok := v.([]any); ok {
			parts := make([]string, len(list))
			for i, x := range list {
				parts[i] = fmt.Sprint(x)
			}
			str = strings.Join(parts, ",")
		} else {
			var err error
			if str, err = methods.FormatValue(v); err != nil {
				return &SpecError{Key: "metric_options." + k, Err: err}
			}
		}
		if err := s.metricOpt.SetOption(k, str); err != nil {
			return &SpecError{Key: "metric_options." + k, Err: err}
		}
	}
	for _, label := range s.labels {
		if s.noData {
			break // the columns are checked when the spec runs
		}
		if err := metrics.CheckAttackOptions(s.Metrics, s.metricOpt, s.data[label].Names); err != nil {
			return &SpecError{Key: "metric_options", Err: fmt.Errorf("dataset %s: %w", label, err)}
		}
	}
	return nil
}

// hashAttack adds holdout and the metric options to the grid hash when they are set (specs
// without them keep the hash they had).
func (s *Spec) hashAttack(h hash.Hash) {
	if s.Holdout > 0 {
		fmt.Fprintf(h, "holdout %v\n", s.Holdout)
	}
	if len(s.MetricOptions) > 0 {
		fmt.Fprintf(h, "metric_options %+v\n", s.metricOpt)
	}
}

// holdoutSplit returns what a run protects and the held-out control rows (splitRows). The
// training rows are prepared again for the method (the same column selection, strata and
// keys); the control holds the protected columns of the held-out rows. Without holdout it
// returns pr and nil.
func (s *Spec) holdoutSplit(pr *methods.Prepared, sel methods.Selection, m methods.Method, seed uint64) (*methods.Prepared, *datasets.Dataset, error) {
	train, control := splitRows(pr.Full, s.Holdout, seed)
	if control == nil {
		return pr, nil, nil
	}
	tpr, err := methods.Prepare(train, sel, m.Info())
	if err != nil {
		return nil, nil, fmt.Errorf("holdout: %w", err)
	}
	ctl, err := control.Select(tpr.Protected.Names)
	if err != nil {
		return nil, nil, fmt.Errorf("holdout: %w", err)
	}
	return tpr, ctl, nil
}

// splitRows splits d into the rows a run protects and the held-out control rows: with holdout
// h > 0, round(h·n) rows (at least 1, at most n−1) drawn by a permutation from a generator
// seeded with the run's seed (a stream separate from the method's), both parts in the original
// row order and with d's category labels. With h ≤ 0 or fewer than 2 rows it returns d and nil.
func splitRows(d *datasets.Dataset, h float64, seed uint64) (train, control *datasets.Dataset) {
	if h <= 0 || d.N < 2 {
		return d, nil
	}
	m := min(d.N-1, max(1, int(math.Round(h*float64(d.N)))))
	rng := rand.New(rand.NewPCG(seed^0x401d007, 0xc0417401))
	held := make([]bool, d.N)
	for _, i := range rng.Perm(d.N)[:m] {
		held[i] = true
	}
	tr := make([]float64, 0, (d.N-m)*d.P)
	ct := make([]float64, 0, m*d.P)
	for i := 0; i < d.N; i++ {
		if held[i] {
			ct = append(ct, d.Row(i)...)
		} else {
			tr = append(tr, d.Row(i)...)
		}
	}
	train = datasets.New(d.Name, d.Names, d.N-m, d.P, tr)
	control = datasets.New(d.Name+" (control)", d.Names, m, d.P, ct)
	if d.Levels != nil {
		train.Levels = d.CloneLevels()
		control.Levels = train.Levels
	}
	return train, control
}
