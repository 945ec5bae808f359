package magga

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Metric identifies one of the measures MAGGA can optimize (metrics.md IDs).
type Metric int

// The metrics allowed in an objective (docs/magga.md).
const (
	SSESST  Metric = iota // sse_sst, 100·SSE/SST in z-space
	DLD                   // dld, % of records linked to their source
	IL1s                  // il1s, mean scaled absolute deviation (not a percentage)
	IL3                   // il3, five-part relative loss in %
	IL3Code               // il3_code, il3 with MAGGA study's c5
	numMetrics
)

var metricNames = [numMetrics]string{"sse_sst", "dld", "il1s", "il3", "il3_code"}

// String returns the metric's ID, its runs.csv column name.
func (m Metric) String() string { return metricNames[m] }

// ErrObjective is wrapped by every error of ParseObjective.
var ErrObjective = errors.New("bad objective")

// Objective is the weighted sum F = Σ_m W[m]·metric_m that MAGGA minimizes (spec §1). Only
// metrics with a positive weight are computed during the search.
type Objective struct {
	Name string // the preset or the expression as written
	W    [numMetrics]float64
	// Warnings holds non-fatal remarks, e.g. il1s combined with percentage metrics.
	Warnings []string
}

// Uses reports whether metric m has a positive weight.
func (o *Objective) Uses(m Metric) bool { return o.W[m] > 0 }

// Value returns Σ W[m]·v[m] over the metrics with a positive weight.
func (o *Objective) Value(v *Values) float64 {
	var s float64
	for m, w := range o.W {
		if w > 0 {
			s += w * v[m]
		}
	}
	return s
}

// presets are the named objectives of spec §1 (final-experiment versions of fobj4 and fobj5;
// the calibration's fobj4 is fobj4_cal).
var presets = map[string]string{
	"fobj1":        "sse_sst",
	"fobj2":        "0.75*sse_sst + 0.25*dld",
	"fobj3":        "0.5*sse_sst + 0.5*dld",
	"fobj4_cal":    "0.25*sse_sst + 0.75*dld",
	"fobj4":        "il1s",
	"fobj5":        "il3",
	"fobj5_code":   "il3_code",
	"dld_only":     "dld",
	"il1_dld_mean": "0.5*sse_sst + 0.5*dld",
}

// PresetNames lists the named objectives accepted by ParseObjective.
func PresetNames() []string {
	return []string{"fobj1", "fobj2", "fobj3", "fobj4", "fobj4_cal", "fobj5", "fobj5_code", "dld_only", "il1_dld_mean"}
}

// ParseObjective returns the objective named s or written as a weighted sum:
//
//	objective = term { "+" term }
//	term      = metric | weight "*" metric | metric "*" weight
//
// where metric is one of sse_sst, dld, il1s, il3, il3_code and weight a finite number ≥ 0.
// The weights must sum to 1 within 1e-9 (spec §1) and a metric may appear once. A preset
// (fobj1 … fobj5, fobj4_cal, fobj5_code, dld_only, il1_dld_mean) stands for its expression.
// Errors wrap ErrObjective and name the offending part. il1s with a weight below 1 is
// accepted with a warning, since it has no upper bound (seed L628-636).
func ParseObjective(s string) (*Objective, error) {
	name := strings.TrimSpace(s)
	expr := name
	if e, ok := presets[strings.ToLower(name)]; ok {
		expr = e
	}
	if expr == "" {
		return nil, fmt.Errorf("%w: empty weights (want a preset such as fobj3 or an expression such as 0.5*sse_sst+0.5*dld)", ErrObjective)
	}
	o := &Objective{Name: name}
	seen := [numMetrics]bool{}
	for _, raw := range strings.Split(expr, "+") {
		term := strings.TrimSpace(raw)
		if term == "" {
			return nil, fmt.Errorf("%w %q: empty term", ErrObjective, s)
		}
		m, w, err := parseTerm(term)
		if err != nil {
			return nil, fmt.Errorf("%w %q: %v", ErrObjective, s, err)
		}
		if seen[m] {
			return nil, fmt.Errorf("%w %q: metric %s appears twice", ErrObjective, s, m)
		}
		seen[m] = true
		o.W[m] = w
	}
	var sum float64
	for _, w := range o.W {
		sum += w
	}
	if math.Abs(sum-1) > 1e-9 {
		return nil, fmt.Errorf("%w %q: weights sum to %g, want 1", ErrObjective, s, sum)
	}
	if o.W[IL1s] > 0 && o.W[IL1s] < 1 {
		o.Warnings = append(o.Warnings, "il1s has no upper bound; combining it with percentage metrics mixes scales (seed L628-636)")
	}
	return o, nil
}

// parseTerm reads "w*metric", "metric*w" or "metric".
func parseTerm(term string) (Metric, float64, error) {
	parts := strings.Split(term, "*")
	switch len(parts) {
	case 1:
		m, err := parseMetric(parts[0])
		return m, 1, err
	case 2:
		a, b := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
		if _, err := strconv.ParseFloat(a, 64); err != nil {
			a, b = b, a
		}
		w, err := strconv.ParseFloat(a, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("term %q: no numeric weight", term)
		}
		if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
			return 0, 0, fmt.Errorf("term %q: weight must be finite and ≥ 0", term)
		}
		m, err := parseMetric(b)
		return m, w, err
	}
	return 0, 0, fmt.Errorf("term %q: want weight*metric", term)
}

func parseMetric(s string) (Metric, error) {
	s = strings.TrimSpace(s)
	for m, name := range metricNames {
		if s == name {
			return Metric(m), nil
		}
	}
	return 0, fmt.Errorf("unknown metric %q (allowed: %s)", s, strings.Join(metricNames[:], ", "))
}
