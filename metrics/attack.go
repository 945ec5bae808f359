package metrics

// Attack metrics: privacy risk measured by attacking the release (Giomi et al. 2022, "A
// Unified Framework for Quantifying Privacy Risk in Synthetic Data", the Anonymeter
// framework). Each attack is run three times:
//
//   - on the protected records (the original table the release was made from),
//   - on a control set: original records held out of the protection (Input.Control), which the
//     release cannot have leaked; success there is what the attacker gets from population
//     patterns alone,
//   - as a naive baseline that ignores the release's record structure.
//
// The risk is R = (r_t − r_c)/(1 − r_c), r_t and r_c the success rates (Wilson centres) on the
// protected and control records, with the propagated Wilson interval (wilson.go). Without a
// control set the baseline takes its place and the _control column is NaN. docs/attacks.md
// explains the three attacks, their draw order and the deviations from Anonymeter.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/internal/registry"
)

// AttackOptions configures the attack metrics. The zero value is invalid only in Aux, which
// must name the columns the attacker knows; every other zero field means its default.
type AttackOptions struct {
	// Aux lists the auxiliary columns known to the attacker (required): the predicates of
	// singling_out, the first dataset of linkability and the known part of inference. Here
	// and in Aux2 and Secret a column is a name or "#N", its 1-based position (so that one
	// spec can attack datasets with different column names).
	Aux []string
	// Aux2 lists linkability's second set of columns (default: the columns not in Aux).
	Aux2 []string
	// Secret is the column inference guesses (default: the first column not in Aux).
	Secret string
	// Attacks is the number of attacks: predicates or targets (default 500; capped by the
	// number of records).
	Attacks int
	// Neighbors is linkability's k: a target is linked when its k nearest release records on
	// Aux and on Aux2 share one (default 1).
	Neighbors int
	// Tolerance is inference's success margin in SDs of the secret (default 0.05).
	Tolerance float64
	// Level is the two-sided level of the Wilson intervals (default 0.95).
	Level float64
	// Seed seeds the attacks' generator (targets, predicates, baseline guesses).
	Seed uint64
	// Cols is the number of columns in a singling-out predicate (default 3, at most |Aux|).
	Cols int
	// Distance is the distance of linkability's and inference's nearest-record searches:
	// DistanceAuto (default, ""), DistanceEuclidean or DistanceGower (catattack.go).
	Distance string
	// Shadows is the number of shadow releases of the membership attack (default 4; 0 is
	// not allowed, see NoShadows).
	Shadows int
	// NoShadows runs the membership attack without shadow releases: its score is the raw
	// distance to the closest release record (membership.go).
	NoShadows bool
	// FPR is the false-positive rate at which the membership attack's TPR is read (default
	// 0.01).
	FPR float64
	// ExcludeTargetNA leaves the records with a missing target out of disco and tcap, as
	// synthpop's disclosure(usetargetNA = FALSE) does (default false: a missing target is a
	// category of its own, synthpop's default).
	ExcludeTargetNA bool
}

func (a AttackOptions) attacks() int   { return defInt(a.Attacks, 500) }
func (a AttackOptions) neighbors() int { return defInt(a.Neighbors, 1) }
func (a AttackOptions) cols() int      { return defInt(a.Cols, 3) }
func (a AttackOptions) shadows() int   { return defInt(a.Shadows, 4) }
func (a AttackOptions) fpr() float64 {
	if a.FPR == 0 {
		return 0.01
	}
	return a.FPR
}
func (a AttackOptions) level() float64 {
	if a.Level == 0 {
		return 0.95
	}
	return a.Level
}
func (a AttackOptions) tolerance() float64 {
	if a.Tolerance == 0 {
		return 0.05
	}
	return a.Tolerance
}

func defInt(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// AttackMetrics lists the IDs of the attack metrics.
var AttackMetrics = []string{"singling_out", "linkability", "inference"}

// attackComponents are the extra runs.csv columns <id>_<name> of every attack metric.
var attackComponents = []string{"ci_low", "ci_high", "train", "control", "baseline", "n_attacks"}

func init() {
	descs := map[string]string{
		"singling_out": "risk that a predicate built from the release singles out one protected record, beyond a held-out control (Giomi et al. 2022)",
		"linkability":  "risk that a record's two halves (aux, aux2) link through the same nearest release record (z-space, or Gower on categorical columns), beyond a held-out control (Giomi et al. 2022)",
		"inference":    "risk that the nearest release record on aux gives the secret (within tolerance·SD, or exactly when categorical), beyond a held-out control (Giomi et al. 2022)",
	}
	// Version 2 of linkability and inference: Gower's distance on categorical columns and
	// exact match of a categorical secret (catattack.go); their numeric values are unchanged.
	version := map[string]int{"linkability": 2, "inference": 2}
	for _, id := range AttackMetrics {
		Register(Func(Info{ID: id, Unit: "frac", Better: Lower, Description: descs[id], Components: attackComponents, Version: version[id]},
			func(in *Input) Result { return evalAttack(id, in) }))
	}
}

// ErrBadOption is wrapped by the errors of SetOption and CheckAttackOptions.
var ErrBadOption = errors.New("bad metric option")

// SetOption sets one metric option from its spec/CLI form (key = value): the attack options
// aux, aux2 (comma-separated column lists), secret, attacks, neighbors, tolerance, level,
// attack_seed, so_cols and attack_distance, the membership attack's mia_shadows and mia_fpr,
// disco's and tcap's use_target_na, standardize, and suda_missing (ignore or category, metrics.md §4.6).
func (o *Options) SetOption(key, value string) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w %s=%q: %s", ErrBadOption, key, value, fmt.Sprintf(format, a...))
	}
	posInt := func(dst *int) error {
		v, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || v < 1 {
			return bad("want an integer ≥ 1")
		}
		*dst = v
		return nil
	}
	switch key {
	case "aux", "aux2":
		var cols []string
		for _, c := range strings.Split(value, ",") {
			if c = strings.TrimSpace(c); c != "" {
				cols = append(cols, c)
			}
		}
		if len(cols) == 0 {
			return bad("want one or more column names")
		}
		if key == "aux" {
			o.Attack.Aux = cols
		} else {
			o.Attack.Aux2 = cols
		}
	case "secret":
		o.Attack.Secret = strings.TrimSpace(value)
	case "attacks":
		return posInt(&o.Attack.Attacks)
	case "neighbors":
		return posInt(&o.Attack.Neighbors)
	case "so_cols":
		return posInt(&o.Attack.Cols)
	case "tolerance":
		v, err := strconv.ParseFloat(value, 64)
		if err != nil || !(v > 0) || math.IsInf(v, 1) {
			return bad("want a number > 0")
		}
		o.Attack.Tolerance = v
	case "level":
		v, err := strconv.ParseFloat(value, 64)
		if err != nil || !(v > 0 && v < 1) {
			return bad("want a number in (0, 1)")
		}
		o.Attack.Level = v
	case "attack_seed":
		v, err := strconv.ParseUint(value, 10, 64)
		if err != nil {
			return bad("want an unsigned integer")
		}
		o.Attack.Seed = v
	case "attack_distance":
		if value != DistanceAuto && value != DistanceEuclidean && value != DistanceGower {
			return bad("want auto, euclidean or gower")
		}
		o.Attack.Distance = value
	case "mia_shadows":
		v, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || v < 0 {
			return bad("want an integer ≥ 0 (0: no shadow releases)")
		}
		o.Attack.Shadows, o.Attack.NoShadows = v, v == 0
	case "use_target_na":
		v, err := strconv.ParseBool(value)
		if err != nil {
			return bad("want true or false")
		}
		o.Attack.ExcludeTargetNA = !v
	case "mia_fpr":
		v, err := strconv.ParseFloat(value, 64)
		if err != nil || !(v > 0 && v < 1) {
			return bad("want a number in (0, 1)")
		}
		o.Attack.FPR = v
	case "standardize":
		if value != "zscore" && value != "none" {
			return bad("want zscore or none")
		}
		o.Standardize = value
	case "suda_missing":
		if value != "ignore" && value != "category" {
			return bad("want ignore or category")
		}
		o.SUDAMissing = value
	default:
		if ok, err := o.setRiskyCellsOption(key, value); ok {
			return err
		}
		if ok, err := o.setSynthOption(key, value); ok {
			return err
		}
		if ok, err := o.setModRiskOption(key, value); ok {
			return err
		}
		return fmt.Errorf("%w: unknown key %q (have aux, aux2, secret, attacks, neighbors, tolerance, level, attack_seed, so_cols, attack_distance, mia_shadows, mia_fpr, use_target_na, standardize, suda_missing, risky_cells_threshold, risky_cells_max_dim, modrisk_method, modrisk_formula, modrisk_bound, %s)", ErrBadOption, key, synthOptionKeys)
	}
	return nil
}

// attackCols resolves the attack's columns against names: aux, aux2 (linkability) and the
// secret (inference).
type attackCols struct {
	aux, aux2 []int
	secret    int
}

func resolveAttack(id string, a AttackOptions, names []string) (attackCols, error) {
	var ac attackCols
	if len(a.Aux) == 0 {
		return ac, fmt.Errorf("%w: metric %s needs the attacker's auxiliary columns: set aux (e.g. aux = \"%s\" in [metric_options], or --metric-opt aux=...)",
			ErrBadOption, id, strings.Join(names[:min(2, len(names))], ","))
	}
	find := func(key string, list []string) ([]int, error) {
		var out []int
		for _, c := range list {
			j := slices.Index(names, c)
			if pos, err := strconv.Atoi(strings.TrimPrefix(c, "#")); j < 0 && err == nil && strings.HasPrefix(c, "#") {
				if pos < 1 || pos > len(names) {
					return nil, fmt.Errorf("%w: %s: column position %s outside 1..%d", ErrBadOption, key, c, len(names))
				}
				j = pos - 1
			}
			if j < 0 {
				return nil, fmt.Errorf("%w: %s: no column %q%s (have %s)", ErrBadOption, key, c,
					registry.DidYouMean(c, names), strings.Join(names, ", "))
			}
			if slices.Contains(out, j) {
				return nil, fmt.Errorf("%w: %s: column %q listed twice", ErrBadOption, key, c)
			}
			out = append(out, j)
		}
		return out, nil
	}
	var err error
	if ac.aux, err = find("aux", a.Aux); err != nil {
		return ac, err
	}
	rest := func() []int {
		var out []int
		for j := range names {
			if !slices.Contains(ac.aux, j) {
				out = append(out, j)
			}
		}
		return out
	}
	switch id {
	case "linkability":
		if len(a.Aux2) > 0 {
			if ac.aux2, err = find("aux2", a.Aux2); err != nil {
				return ac, err
			}
		} else {
			ac.aux2 = rest()
		}
		if len(ac.aux2) == 0 {
			return ac, fmt.Errorf("%w: linkability needs a second set of columns: aux covers every column, set aux2", ErrBadOption)
		}
	case "inference", "disco", "tcap":
		ac.secret = -1
		if a.Secret != "" {
			s, err := find("secret", []string{a.Secret})
			if err != nil {
				return ac, err
			}
			ac.secret = s[0]
		} else if r := rest(); len(r) > 0 {
			ac.secret = r[0]
		}
		if ac.secret < 0 || slices.Contains(ac.aux, ac.secret) {
			return ac, fmt.Errorf("%w: %s needs a secret column outside aux (set secret)", ErrBadOption, id)
		}
	}
	return ac, nil
}

// CheckAttackOptions returns the first problem of the attack options for the listed metric
// IDs on a table with the given column names (nil when no attack metric is listed), so that a
// spec or a command line fails before anything runs.
func CheckAttackOptions(ids []string, o Options, names []string) error {
	for _, id := range ids {
		if slices.Contains(AttackMetrics, id) || slices.Contains(DisclosureMetrics, id) {
			if _, err := resolveAttack(id, o.Attack, names); err != nil {
				return err
			}
		}
	}
	return nil
}

// attackCounts is what one attack found.
type attackCounts struct {
	train, nTrain int
	ctl, nCtl     int // nCtl = 0 without a control set
	base, nBase   int
}

func evalAttack(id string, in *Input) Result {
	a := in.Opt.Attack
	ac, err := resolveAttack(id, a, in.Orig.Names)
	if err != nil {
		return nanNote(err.Error())
	}
	if in.Control != nil && !slices.Equal(in.Control.Names, in.Orig.Names) {
		return nanNote(fmt.Sprintf("%s: control columns %v differ from the original's %v", id, in.Control.Names, in.Orig.Names))
	}
	if in.Masked.P != in.Orig.P {
		return nanNote(fmt.Sprintf("%s: release has %d columns, the original %d", id, in.Masked.P, in.Orig.P))
	}
	if in.Orig.N < 1 || in.Masked.N < 1 || (in.Control != nil && in.Control.N < 1) {
		return nanNote(id + ": empty table")
	}
	rng := rand.New(rand.NewPCG(a.Seed, 0xa77ac4_5eed))
	var c attackCounts
	switch id {
	case "singling_out":
		c = singlingOut(in, ac, a, rng)
	case "linkability":
		c = linkability(in, ac, a, rng)
	default:
		c = inference(in, ac, a, rng)
	}
	if err := in.Err(); err != nil {
		return cancelled(err)
	}
	if c.nTrain == 0 {
		// No predicate singles out a release record (e.g. every record shares its values with
		// k−1 others): the attack cannot be made, and nothing is singled out through the release.
		return Result{Value: 0, Notes: []string{id + ": no predicate singles out a release record: no attack possible"},
			Aux: map[string]float64{"ci_low": 0, "ci_high": 0, "train": math.NaN(), "control": math.NaN(), "baseline": math.NaN(), "n_attacks": 0}}
	}
	return attackResult(c, a.level())
}

// attackResult turns the counts into the risk and its components.
func attackResult(c attackCounts, level float64) Result {
	rt := Wilson(c.train, c.nTrain, level)
	rb := Wilson(c.base, c.nBase, level)
	rc, ctl := rb, math.NaN()
	var notes []string
	if c.nCtl > 0 {
		rc = Wilson(c.ctl, c.nCtl, level)
		ctl = rc.Value
	} else {
		notes = append(notes, "no control set: risk measured against the baseline")
	}
	r := ResidualRisk(rt, rc)
	if rt.Value < rb.Value {
		notes = append(notes, "the attack did worse than the baseline")
	}
	return Result{Value: r.Value, Notes: notes, Aux: map[string]float64{
		"ci_low": r.Low, "ci_high": r.High, "train": rt.Value, "control": ctl,
		"baseline": rb.Value, "n_attacks": float64(c.nTrain)}}
}
