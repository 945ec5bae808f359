// Package metrics computes the information-loss and disclosure-risk measures of
// shared/spec/metrics.md. Each measure is a Metric registered under its ID, which is also its
// column name in runs.csv. Metrics are pure: no randomness, no mutation of their inputs, and
// bit-identical output whatever the number of workers (metrics.md §0.5).
package metrics

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/sdcbench/sdcbench/datasets"
)

// Direction says which way a metric improves.
type Direction int

// Directions.
const (
	Lower  Direction = iota // lower is better
	Higher                  // higher is better
	Target                  // closest to Info.Target is best
	None                    // diagnostic, not compared
)

func (d Direction) String() string { return [...]string{"lower", "higher", "target", "none"}[d] }

// Info describes a metric.
type Info struct {
	ID          string
	Unit        string // "%", "frac", "raw", "count", "pp", "s"
	Better      Direction
	Target      float64 // for Better == Target
	Description string  // one line
	// Components lists the Result.Aux keys written as extra runs.csv columns <ID>_<name>.
	Components []string
}

// Options holds the metric knobs of metrics.md. The zero value means the documented defaults.
type Options struct {
	// Standardize is "zscore" (default, "") or "none" (raw values) for the z-space metrics.
	Standardize string
	// IntervalK is the interval half-width factor of interval_disclosure (default 0.05).
	IntervalK float64
}

func (o Options) intervalK() float64 {
	if o.IntervalK == 0 {
		return 0.05
	}
	return o.IntervalK
}

// Input is what a metric sees: the original table, the release and its structure. Orig and
// Masked must have the same shape. Derived quantities (scalings, z-scores, group centroids)
// are computed once per Input and shared among metrics; an Input is safe for concurrent use.
type Input struct {
	Orig   *datasets.Dataset
	Masked *datasets.Dataset
	Labels []int32        // optional partition behind Masked (canonical labels)
	Info   map[string]any // the release's diagnostics (methods.Release.Info), may be nil
	Opt    Options

	once     sync.Once
	scaling  datasets.Scaling
	zOrig    []float64
	zMasked  []float64
	keepCols []int // non-constant columns
}

func (in *Input) prepare() {
	in.once.Do(func() {
		if in.Orig.N != in.Masked.N || in.Orig.P != in.Masked.P {
			panic(fmt.Sprintf("metrics: shape mismatch: original %d×%d, masked %d×%d",
				in.Orig.N, in.Orig.P, in.Masked.N, in.Masked.P))
		}
		in.scaling = datasets.ScalingOf(in.Orig)
		for j := range in.scaling.SD {
			if !in.scaling.Constant(j) && !math.IsNaN(in.scaling.SD[j]) {
				in.keepCols = append(in.keepCols, j)
			}
		}
		if in.Opt.Standardize == "none" {
			in.zOrig, in.zMasked = in.Orig.Data, in.Masked.Data
			return
		}
		in.zOrig = in.scaling.Apply(nil, in.Orig)
		in.zMasked = in.scaling.Apply(nil, in.Masked)
	})
}

// Scaling returns the means and sample SDs of the original columns.
func (in *Input) Scaling() datasets.Scaling { in.prepare(); return in.scaling }

// Z returns the original and masked tables in the metric space: z-scored with the original's
// mean and SD (metrics.md §0.2), or raw with Standardize "none". Constant columns are zero.
func (in *Input) Z() (orig, masked []float64) { in.prepare(); return in.zOrig, in.zMasked }

// KeptColumns returns the indices of the non-constant original columns.
func (in *Input) KeptColumns() []int { in.prepare(); return in.keepCols }

// Result is a metric's value with optional components (written as <id>_<name> columns).
type Result struct {
	Value float64 // NaN when undefined
	Aux   map[string]float64
	Notes []string
}

// Metric is one measure.
type Metric interface {
	Info() Info
	// Eval computes the metric. Undefined cases return NaN, never panic; a shape mismatch
	// between Orig and Masked panics.
	Eval(in *Input) Result
}

var (
	mu       sync.RWMutex
	registry = map[string]Metric{}
)

// Register adds m under its ID; it panics on a duplicate. Call it from init.
func Register(m Metric) {
	id := m.Info().ID
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[id]; dup || id == "" {
		panic("metrics: Register: duplicate or empty ID " + id)
	}
	registry[id] = m
}

// ErrUnknownMetric is wrapped by Lookup's error.
var ErrUnknownMetric = errors.New("unknown metric")

// Lookup returns the metric with the given ID.
func Lookup(id string) (Metric, error) {
	mu.RLock()
	defer mu.RUnlock()
	m, ok := registry[id]
	if !ok {
		ids := make([]string, 0, len(registry))
		for n := range registry {
			ids = append(ids, n)
		}
		slices.Sort(ids)
		return nil, fmt.Errorf("metrics: %w %q (have %v)", ErrUnknownMetric, id, ids)
	}
	return m, nil
}

// List returns every registered metric's Info sorted by ID.
func List() []Info {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]Info, 0, len(registry))
	for _, m := range registry {
		out = append(out, m.Info())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// funcMetric adapts a function to Metric.
type funcMetric struct {
	info Info
	eval func(in *Input) Result
}

func (f funcMetric) Info() Info            { return f.info }
func (f funcMetric) Eval(in *Input) Result { return f.eval(in) }

// Func returns a Metric from an Info and an evaluation function.
func Func(info Info, eval func(in *Input) Result) Metric { return funcMetric{info, eval} }
