package metrics

// DiSCO and TCAP: attribute disclosure of a categorical target from categorical keys, as
// synthpop's disclosure() defines them (Raab, Nowok and Dibben 2024, "Practical privacy
// metrics for synthetic data", arXiv:2406.16826; TCAP after Taub, Elliot, Pampaka and Smith
// 2018, "Differential correct attribution probability for synthetic data: an exploration",
// PSD 2018). docs/synthetic-attacks.md explains both and their intervals.

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/sdcbench/sdcbench/datasets"
)

func init() {
	Register(Func(Info{ID: "disco", Label: "DiSCO", Unit: "frac", Better: Lower,
		Description: "share of original records whose keys (aux) appear in the release with one target (secret) value only, and that value is theirs (synthpop disclosure()'s DiSCO)",
		Components:  []string{"ci_low", "ci_high", "dorig", "control", "n"}},
		func(in *Input) Result { return evalDisclosure("disco", in) }))
	Register(Func(Info{ID: "tcap", Label: "TCAP", Unit: "frac", Better: Lower,
		Description: "among original records whose keys (aux) have one target (secret) value in the release, the share whose target it is (synthpop disclosure()'s TCAP, Taub et al. 2018)",
		Components:  []string{"ci_low", "ci_high", "baseline", "control", "n_matched"}},
		func(in *Input) Result { return evalDisclosure("tcap", in) }))
}

// DisclosureMetrics lists the IDs of synthpop's attribute disclosure measures.
var DisclosureMetrics = []string{"disco", "tcap"}

// discoCounts is what disclosure() counts for one table of real records (the original or
// the control set) against the release.
type discoCounts struct {
	n       int // records
	disco   int // records whose key has one target value in the release, and it is theirs
	matched int // records whose key has one target value in the release (TCAP's denominator)
	tcap    int // matched records whose target it is (TCAP's numerator)
	dorig   int // records whose key has one target value in their own table
	baseCAP float64
}

// valueIDs returns, per table, the id of each record's value in column j: equal labels (a
// categorical column) or equal values (a numeric one, each distinct value a category as
// synthpop's factor() makes it) share an id, and a missing value is a category of its own
// (disclosure()'s defaults usekeysNA = usetargetNA = TRUE).
func valueIDs(tables []*datasets.Dataset, ref *datasets.Dataset, j int) [][]int {
	labels := map[string]int{} // categorical: by label
	values := map[uint64]int{} // numeric: by value
	missing := -1
	next := 0
	out := make([][]int, len(tables))
	for k, d := range tables {
		out[k] = make([]int, d.N)
		cat := ref.IsCategorical(j)
		levels := ref.Levels
		if d.IsCategorical(j) {
			levels = d.Levels
		}
		for i := 0; i < d.N; i++ {
			v := d.Data[i*d.P+j]
			var id int
			var ok bool
			switch c := int(v); {
			case v != v || cat && (c < 0 || c >= len(levels[j])):
				if missing < 0 {
					missing, next = next, next+1
				}
				id, ok = missing, true
			case cat:
				if id, ok = labels[levels[j][c]]; !ok {
					id, labels[levels[j][c]] = next, next
				}
			default:
				b := math.Float64bits(v + 0) // +0: −0 is 0
				if id, ok = values[b]; !ok {
					id, values[b] = next, next
				}
			}
			if !ok {
				next++
			}
			out[k][i] = id
		}
	}
	return out
}

// keyIDs returns, per table, the id of each record's combination of values on the columns
// keys (valueIDs per column).
func keyIDs(tables []*datasets.Dataset, ref *datasets.Dataset, keys []int) [][]int {
	cols := make([][][]int, len(keys))
	for c, j := range keys {
		cols[c] = valueIDs(tables, ref, j)
	}
	ids := map[string]int{}
	out := make([][]int, len(tables))
	var b []byte
	for k, d := range tables {
		out[k] = make([]int, d.N)
		for i := 0; i < d.N; i++ {
			b = b[:0]
			for c := range keys {
				b = strconv.AppendInt(b, int64(cols[c][k][i]), 36)
				b = append(b, ',')
			}
			v, ok := ids[string(b)]
			if !ok {
				v = len(ids)
				ids[string(b)] = v
			}
			out[k][i] = v
		}
	}
	return out
}

// oneTarget returns, per key id, the one target id the records with that key have in a
// table, −1 for a key whose records have more than one target value, and −2 for a key that
// does not occur (nKeys ids). Records with skip[i] true are left out (skip may be nil).
func oneTarget(key, target []int, skip []bool, nKeys int) []int {
	one := make([]int, nKeys)
	for k := range one {
		one[k] = -2
	}
	for i, k := range key {
		if skip != nil && skip[i] {
			continue
		}
		switch one[k] {
		case -2:
			one[k] = target[i]
		case -1:
		default:
			if one[k] != target[i] {
				one[k] = -1
			}
		}
	}
	return one
}

// discoCount counts disclosure()'s quantities for real records (key, target) against the
// release's one-target tables: rel over every release record (DiSCO's), relTCAP over those
// TCAP reads (without the missing targets when they are excluded). Records with skip[i]
// (a missing target, excluded) count in n only, as synthpop's denominators keep them.
func discoCount(key, target []int, skip []bool, rel, relTCAP []int, nKeys int) discoCounts {
	c := discoCounts{n: len(key)}
	own := oneTarget(key, target, nil, nKeys)
	freq := map[int]int{}
	for i, k := range key {
		freq[target[i]]++ // baseCAPd: the target's distribution before exclusions
		if skip != nil && skip[i] {
			continue
		}
		if t := rel[k]; t >= 0 && t == target[i] {
			c.disco++
		}
		if t := relTCAP[k]; t >= 0 {
			c.matched++
			if t == target[i] {
				c.tcap++
			}
		}
		if own[k] >= 0 {
			c.dorig++
		}
	}
	for _, f := range freq {
		p := float64(f) / float64(c.n)
		c.baseCAP += p * p
	}
	return c
}

// missingTarget returns per record of d whether its column j is missing.
func missingTarget(d *datasets.Dataset, j int) []bool {
	out := make([]bool, d.N)
	for i := range out {
		out[i] = math.IsNaN(d.Data[i*d.P+j])
	}
	return out
}

// evalDisclosure computes disco or tcap: the keys are the attack option aux, the target its
// secret.
func evalDisclosure(id string, in *Input) Result {
	a := in.Opt.Attack
	ac, err := resolveAttack(id, a, in.Orig.Names)
	if err != nil {
		return nanNote(err.Error())
	}
	if in.Masked.P != in.Orig.P {
		return nanNote(fmt.Sprintf("%s: release has %d columns, the original %d", id, in.Masked.P, in.Orig.P))
	}
	if in.Control != nil && in.Control.P != in.Orig.P {
		return nanNote(fmt.Sprintf("%s: control has %d columns, the original %d", id, in.Control.P, in.Orig.P))
	}
	if in.Orig.N < 1 || in.Masked.N < 1 {
		return nanNote(id + ": empty table")
	}
	tables := []*datasets.Dataset{in.Orig, in.Masked}
	if in.Control != nil {
		tables = append(tables, in.Control)
	}
	keys := keyIDs(tables, in.Orig, ac.aux)
	tgt := valueIDs(tables, in.Orig, ac.secret)
	nKeys := 0
	for _, ks := range keys {
		for _, k := range ks {
			nKeys = max(nKeys, k+1)
		}
	}
	// synthpop's usetargetNA = FALSE (use_target_na = false) zeroes the missing-target rows of
	// its tables when the original has a missing target: DiSCO's disclosive keys are still
	// read with them, TCAP's without (its proportions are recomputed after the exclusion).
	var skipT, skipR, skipC []bool
	if a.ExcludeTargetNA && slices.Contains(missingTarget(in.Orig, ac.secret), true) {
		skipT, skipR = missingTarget(in.Orig, ac.secret), missingTarget(in.Masked, ac.secret)
		if in.Control != nil {
			skipC = missingTarget(in.Control, ac.secret)
		}
	}
	rel := oneTarget(keys[1], tgt[1], nil, nKeys)
	relTCAP := rel
	if skipR != nil {
		relTCAP = oneTarget(keys[1], tgt[1], skipR, nKeys)
	}
	c := discoCount(keys[0], tgt[0], skipT, rel, relTCAP, nKeys)
	ctl := math.NaN()
	var cc discoCounts
	if in.Control != nil && in.Control.N > 0 {
		cc = discoCount(keys[2], tgt[2], skipC, rel, relTCAP, nKeys)
	}
	level := a.level()
	if id == "disco" {
		w := Wilson(c.disco, c.n, level)
		if cc.n > 0 {
			ctl = float64(cc.disco) / float64(cc.n)
		}
		return Result{Value: float64(c.disco) / float64(c.n), Aux: map[string]float64{
			"ci_low": w.Low(), "ci_high": w.High(), "dorig": float64(c.dorig) / float64(c.n),
			"control": ctl, "n": float64(c.n)}}
	}
	if cc.matched > 0 {
		ctl = float64(cc.tcap) / float64(cc.matched)
	}
	aux := map[string]float64{"baseline": c.baseCAP, "control": ctl, "n_matched": float64(c.matched)}
	if c.matched == 0 {
		aux["ci_low"], aux["ci_high"] = math.NaN(), math.NaN()
		return Result{Value: math.NaN(), Aux: aux,
			Notes: []string{"tcap: no key of the original has a single target value in the release (synthpop: NA)"}}
	}
	w := Wilson(c.tcap, c.matched, level)
	aux["ci_low"], aux["ci_high"] = w.Low(), w.High()
	return Result{Value: float64(c.tcap) / float64(c.matched), Aux: aux}
}
