// Package metrics computes the information-loss and disclosure-risk measures of
// docs/metrics.md. Each measure is a Metric registered under its ID, which is also its
// column name in runs.csv. Metrics are pure: no randomness, no mutation of their inputs, and
// bit-identical output whatever the number of workers (metrics.md §0.5).
package metrics

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
	"github.com/sdcbench/sdcbench/internal/registry"
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
	ID string
	// Label is the metric's short human name on plot axes ("SSE/SST"); Register fills it from
	// the registry's table when empty (AxisLabel adds the unit and direction).
	Label       string
	Unit        string // "%", "frac", "raw", "count", "pp", "s"
	Better      Direction
	Target      float64 // for Better == Target
	Description string  // one line
	// Components lists the Result.Aux keys written as extra runs.csv columns <ID>_<name>.
	Components []string
	// Version numbers the metric's definition; 0 means 1. Bump it whenever a change alters the
	// values the metric returns: results folders record it (manifest.json metric_versions) and
	// `sdcbench analyze --baseline` refuses to compare folders whose versions differ.
	Version int
	// Columns is the kind of protected column the metric measures (docs/metrics.md §0.6);
	// Register fills it from the registry's table when KindUnset. Evaluation leaves the other
	// kind out, and a metric left with no column does not apply (Result.NotApplicable).
	Columns ColumnKind
	// Diag is true for a measure that reads the release's diagnostics (Input.Diag): a
	// stored release does not hold them, so `sdcbench rescore` refuses it (docs/harness.md
	// "Stored releases and rescore").
	Diag bool
	// ReleaseOnly is true for a measure that reads nothing but the release's key table
	// (Input.MaskedAll, else Input.Masked): the categorical risk measures of docs/metrics.md §4
	// (frequencies, individual, global and household risk, l-diversity, SUDA, risky cells,
	// the model-based risk). Such a measure may be evaluated with Input.Orig nil, and its
	// value does not depend on the original; `sdcbench eval` computes it from the release
	// alone (docs/own-data.md §2). It compares the cells of the key, sensitive and household
	// columns only for equality (keyfreq.Bits: −0 as +0, every NaN one missing value), so a
	// recoding of such a column that keeps distinct values distinct, such as reading it as
	// categories, leaves its value as it is (TestReleaseOnlyIgnoresOriginal checks both).
	// Lookup and List fill it from the registry's table.
	ReleaseOnly bool
}

// DefinitionVersion returns in.Version, or 1 when it is not set.
func (in Info) DefinitionVersion() int { return max(1, in.Version) }

// Options holds the metric knobs of metrics.md. The zero value means the documented defaults.
type Options struct {
	// Standardize is "zscore" (default, "") or "none" (raw values) for the z-space metrics.
	Standardize string
	// IntervalK is the interval half-width factor of interval_disclosure (default 0.05).
	IntervalK float64

	// The fields below are documented in options.go with their defaults (metrics.md §2-§6).

	// IL3Zero is "exclude" (default, "") or "literal" (R semantics x/0 = Inf, 0/0 = NaN).
	IL3Zero string
	// IL3Space is "raw" (default, "") or "zscore" for il3 and il3_code.
	IL3Space string
	// IL3Variant picks fobj5: "" or "default" for il3, "code" for il3_code.
	IL3Variant string
	// EigenMinRel is eigen's ε: eigenvalues λ_j ≤ ε·λ_1 are excluded (0 means 1e-10).
	EigenMinRel float64
	// PILQDensity is "normal" (default, "") or "kde" for the quantile variance of pil.
	PILQDensity string
	// SDIDDist lists sdid's thresholds (nil means {0.05}); Value uses the first, Aux holds all.
	SDIDDist []float64
	// IDRankP lists id_rank's half-widths in percent of n (nil means 1, 2, …, 10).
	IDRankP []float64
	// DBRLSubsets lists the numbers s of leading attributes known to the dbrl intruder (nil
	// means {3, 5, 8}); s is clipped to p, and s ≤ 0 means all evaluated attributes.
	DBRLSubsets []int
	// DBRLTies is "fractional" (default, "") or "first" (smallest index wins).
	DBRLTies string
	// DBRLStd is "" (X' standardized with X's statistics) or "own" (X' with its own).
	DBRLStd string
	// PRLSubsets is as DBRLSubsets for prl (nil means all evaluated attributes).
	PRLSubsets []int
	// PRLTol is prl's agreement tolerance τ in SD units (0 means 0.1).
	PRLTol float64
	// PRLMu and PRLLambda bound P(link|U) and P(non-link|M) (0 means 0.05; μ ≥ 1 disables
	// the threshold).
	PRLMu, PRLLambda float64
	// PRLAgree is "tolerance" (default, "") or "exact" (equality after rounding to PRLDigits).
	PRLAgree string
	// PRLDigits is the number of decimals for PRLAgree "exact" (default 0).
	PRLDigits int
	// K is the minimum group size for sse_sst_lb (0: the release's Diag.Partition.K).
	K int
	// DRID is "" (dr uses id_rank) or "interval_disclosure".
	DRID string
	// Keys names the categorical key columns of §4 (nil: every column of the release except
	// Weight, Household and Sensitive).
	Keys []string
	// Weight names the sampling-weight column ("" means unweighted); gini_diff also uses it.
	Weight string
	// Household names the household-ID column of hier_risk_* ("" makes them NaN).
	Household string
	// Sensitive names the sensitive column of ldiv_distinct_* ("" makes them NaN).
	Sensitive string
	// RiskyMAD is "" (MAD × 1.4826) or "raw" (MAD without the constant) for risky_obs.
	RiskyMAD string
	// SUDAScores is "" (original scores, (m−k)!) or "normalized" for dis_suda_*.
	SUDAScores string
	// SUDAMissing is "" or "ignore" (default: a set of keys on which the record's value is
	// missing is never one of its MSUs, as sdcMicro's Suda2 skips missing items) or
	// "category" (a missing key value is an ordinary category) (metrics.md §4.6).
	SUDAMissing string
	// Attack configures the attack metrics singling_out, linkability and inference (attack.go).
	Attack AttackOptions
	// RiskyCells configures risky_cells (riskycells.go).
	RiskyCells RiskyCellsOptions
	// Synth configures the utility measures of docs/synthetic.md (synthutil.go).
	Synth SynthOptions
	// ModRisk configures modrisk_gr1 and modrisk_gr2 (modrisk.go).
	ModRisk ModRiskOptions
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
	// Orig is the original's protected columns; nil only for measures whose Info.ReleaseOnly
	// is true (the release alone).
	Orig   *datasets.Dataset
	Masked *datasets.Dataset
	Labels []int32          // optional partition behind Masked (canonical labels)
	Diag   diag.Diagnostics // the release's typed diagnostics (methods.Release.Diag)
	Opt    Options
	// MaskedAll is the whole release when Masked holds only the protected columns: the
	// protected and the passed-through columns in file order (docs/own-data.md). The
	// categorical risk measures (§4) read their key, weight, household and sensitive columns
	// from it, so keys need not be protected. Nil means Masked.
	MaskedAll *datasets.Dataset
	// Control holds original records held out of the protection (same columns as Orig), the
	// control set of the attack metrics; nil means none (they then compare with a baseline).
	Control *datasets.Dataset
	// Shadow, when not nil, makes shadow releases for the membership attack (membership.go):
	// the runner sets it when the spec holds records out (experiments); nil elsewhere.
	Shadow ShadowFunc
	// Ctx, when not nil, cancels the evaluation: the long measures check it in their loops and
	// stop once it is done (cancel.go). Set it before the first evaluation and do not change
	// it; an Input whose Ctx was cancelled holds partial shared results and must not be
	// evaluated again.
	Ctx context.Context

	once     sync.Once
	scaling  datasets.Scaling
	zonce    sync.Once // the z tables, made by the first Z (most measures need only the scaling)
	zOrig    []float64
	zMasked  []float64
	keepCols []int // non-constant columns
	ronce    sync.Once
	kinds    kindParts         // the parts of the input of one column kind (evalGated)
	rOrig    *datasets.Dataset // Orig and Masked with extreme columns rescaled (Rescaled)
	rMasked  *datasets.Dataset
	rNaN     bool // Orig or Masked has a NaN cell (found by prepareRescaled)
}

func (in *Input) prepare() {
	in.once.Do(func() {
		if in.Orig.N != in.Masked.N || in.Orig.P != in.Masked.P {
			panic(fmt.Sprintf("metrics: shape mismatch: original %d×%d, masked %d×%d",
				in.Orig.N, in.Orig.P, in.Masked.N, in.Masked.P))
		}
		in.scaling = scalingOf(in.Orig) // observed cells only (missing.go)
		for j := range in.scaling.SD {
			if !in.scaling.Constant(j) && !math.IsNaN(in.scaling.SD[j]) {
				in.keepCols = append(in.keepCols, j)
			}
		}
	})
}

// keyTable returns the table the categorical risk measures read: MaskedAll, else Masked.
func (in *Input) keyTable() *datasets.Dataset {
	if in.MaskedAll != nil {
		return in.MaskedAll
	}
	return in.Masked
}

// Scaling returns the means and sample SDs of the original columns.
func (in *Input) Scaling() datasets.Scaling { in.prepare(); return in.scaling }

// Z returns the original and masked tables in the metric space: z-scored with the original's
// mean and SD (metrics.md §0.2), or raw with Standardize "none". Constant columns are zero.
// The tables are made on the first call (two n×p copies: measures that need only the scaling,
// like il1s, do not pay for them).
func (in *Input) Z() (orig, masked []float64) {
	in.prepare()
	in.zonce.Do(func() {
		if in.Opt.Standardize == "none" {
			in.zOrig, in.zMasked = in.Orig.Data, in.Masked.Data
			return
		}
		in.zOrig = in.scaling.Apply(nil, in.Orig)
		in.zMasked = in.scaling.Apply(nil, in.Masked)
	})
	return in.zOrig, in.zMasked
}

// KeptColumns returns the indices of the non-constant original columns.
func (in *Input) KeptColumns() []int { in.prepare(); return in.keepCols }

// Result is a metric's value with optional components (written as <id>_<name> columns).
type Result struct {
	Value float64 // NaN when undefined
	Aux   map[string]float64
	Notes []string
	// NotApplicable, when not empty, says why the metric was not computed on this input: its
	// column kind is absent from the protected columns (Info.Columns). Value is then NaN, and
	// runs.csv holds an empty cell and this note rather than a number (docs/metrics.md §0.6).
	NotApplicable string
}

// Metric is one measure.
type Metric interface {
	Info() Info
	// Eval computes the metric. Undefined cases return NaN, never panic; a shape mismatch
	// between Orig and Masked panics.
	Eval(in *Input) Result
}

var metricTable registry.Registry[Metric]

// Register adds m under its ID; it panics on a duplicate. Call it from init. Lookup and List
// complete m's Info (Label, Columns: describe), and the metric Lookup returns evaluates m on
// the columns of its kind only (evalGated), so every caller of Lookup gets the declared
// metric. (Registration stores m as it is: completing it here cost an allocation per metric
// at the start of every process; docs/datapath.md "Start-up".)
func Register(m Metric) {
	metricTable.Add("metrics: Register", m.Info().ID, m)
}

// declare returns the registered metric m as Lookup returns it.
func declare(m Metric) declared { return declared{m, describe(m.Info())} }

// declared is a registered metric with its completed Info and its column-kind gate.
type declared struct {
	m    Metric
	info Info
}

func (d declared) Info() Info            { return d.info }
func (d declared) Eval(in *Input) Result { return in.evalGated(d.m, d.info) }

// ErrUnknownMetric is wrapped by Lookup's error.
var ErrUnknownMetric = errors.New("unknown metric")

// Lookup returns the metric with the given ID.
func Lookup(id string) (Metric, error) {
	m, ok := metricTable.Get(id)
	if !ok {
		return nil, fmt.Errorf("metrics: %w %q%s (have %v)", ErrUnknownMetric, id,
			registry.DidYouMean(id, metricTable.Names()), metricTable.Names())
	}
	return declare(m), nil
}

// List returns every registered metric's Info sorted by ID.
func List() []Info {
	var out []Info
	for _, m := range metricTable.Values() {
		out = append(out, describe(m.Info()))
	}
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
