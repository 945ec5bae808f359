package metrics

import (
	"errors"
	"fmt"
	"math"
)

// Per-record risk and SUDA attribute contributions (docs/metrics.md §4.8).
func init() {
	Register(Func(Info{ID: "suda_contrib_max", Unit: "%", Better: None, Components: []string{"key"},
		Description: "largest SUDA attribute contribution of a key, in % of the total SUDA score (sdcMicro suda2 attribute_contributions; metrics.md §4.8)"},
		SUDAContribMax))
}

// RecordRisk is the disclosure risk of each record of a release on its key columns, as
// sdcMicro 5.8.1 reports it per record (freqCalc, measure_risk, suda2); `sdcbench eval
// --per-record FILE` writes it (docs/metrics.md §4.8).
type RecordRisk struct {
	Keys []string  // the key columns
	Fk   []float64 // sample frequency f_k of the record's key combination (§4.1; missing = any)
	FkW  []float64 // weighted frequency F_k, the sum of the weights (= Fk when unweighted)
	Risk []float64 // individual risk r (§4.3)
	// HierRisk is the household risk 1 − Π_{i∈h}(1 − r_i) of the record's household (§4.4);
	// nil without Opt.Household.
	HierRisk []float64
	// SUDAScore and DIS are the SUDA2 score and the DIS-SUDA score (§4.6). Contrib[i·len(Keys)+c]
	// is sdcMicro's contributionPercent: the weights of record i's MSUs containing key c summed
	// and divided by its score (a fraction; summed over the keys it exceeds 1 when an MSU has
	// several keys). All three are nil when SUDA is undefined (SUDANote says why).
	SUDAScore, DIS, Contrib []float64
	SUDANote                string
}

// PerRecord returns the per-record risk of in's release (docs/metrics.md §4.8), computed by the
// same functions as the measures ind_risk_*, hier_risk_* and dis_suda_*, so that the records'
// values sum or average to those measures. An error says why the frequencies are undefined (no
// key column, an unknown column, missing weights) or that in.Ctx was cancelled.
func PerRecord(in *Input) (*RecordRisk, error) {
	c := riskOf(in)
	if err := in.Err(); err != nil {
		return nil, err
	}
	if c.note != "" {
		return nil, errors.New("per-record risk: " + c.note)
	}
	t := in.keyTable()
	cols, _ := keyColumns(in)
	rr := &RecordRisk{Fk: c.records(c.f), FkW: c.records(c.F), Risk: c.records(c.r)}
	if in.Opt.Weight == "" {
		rr.FkW = rr.Fk // F = f unweighted: the same slice, as catRisk holds it
	}
	for _, j := range cols {
		rr.Keys = append(rr.Keys, t.Names[j])
	}
	if in.Opt.Household != "" {
		h, note := hierRisk(in)
		if note != "" {
			return nil, errors.New("per-record risk: " + note)
		}
		rr.HierRisk = h
	}
	s := cached(in, "cat:suda", sudaOf)
	if err := in.Err(); err != nil {
		return nil, err
	}
	if s.note != "" {
		rr.SUDANote = s.note
	} else {
		rr.SUDAScore, rr.DIS, rr.Contrib = s.score, s.dis, s.contribRecords()
	}
	return rr, nil
}

// SUDAContributions returns the SUDA attribute contribution of each key column, in %, as
// sdcMicro's suda2 reports it (attribute_contributions): 100·Σ_i contrib_ic·score_i / Σ_i
// score_i, the share of the total SUDA score owed to the MSUs that contain key c (an MSU of
// several keys counts for each, so the shares sum to more than 100). keys names the key
// columns. All shares are NaN when no record has an MSU.
func SUDAContributions(in *Input) (keys []string, pct []float64, err error) {
	s := cached(in, "cat:suda", sudaOf)
	if err := in.Err(); err != nil {
		return nil, nil, err
	}
	if s.note != "" {
		return nil, nil, errors.New("suda contributions: " + s.note)
	}
	m := len(s.keys)
	for _, j := range s.keys {
		keys = append(keys, in.keyTable().Names[j])
	}
	pct = make([]float64, m)
	total := sum(s.score)
	// Records without an MSU would add contrib·score = 0·0: only the candidates are summed, in
	// record order.
	for u, i := range s.rec {
		sc := s.score[i]
		for c := 0; c < m; c++ {
			pct[c] += s.contrib[u*m+c] * sc
		}
	}
	for c := range pct {
		pct[c] = 100 * pct[c] / total
	}
	return keys, pct, nil
}

// SUDAContribMax returns suda_contrib_max, the largest SUDA attribute contribution of a key
// in % (SUDAContributions; metrics.md §4.8), with Aux "key" the 1-based position of that key
// among the key columns (the first on ties) and Aux "<key name>" every key's contribution. The
// note lists the contributions. NaN when SUDA is undefined or no record has an MSU.
func SUDAContribMax(in *Input) Result {
	keys, pct, err := SUDAContributions(in)
	if err != nil {
		if in.Err() != nil {
			return cancelled(in.Err())
		}
		return nanNote(err.Error())
	}
	best := 0
	for c, v := range pct {
		if v > pct[best] {
			best = c
		}
	}
	res := Result{Value: pct[best], Aux: map[string]float64{"key": float64(best + 1)}}
	if math.IsNaN(pct[best]) { // no record has an MSU
		res.Aux["key"] = math.NaN()
	}
	note := "suda contributions (%):"
	for c, k := range keys {
		if k != "key" { // a key column named "key" would hide the position
			res.Aux[k] = pct[c]
		}
		note += fmt.Sprintf(" %s %.4g", k, pct[c])
	}
	res.Notes = []string{note}
	return res
}
