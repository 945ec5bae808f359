package metrics

import "math"

// Combined objectives and scores of metrics.md §3.7 and §6.4. Each one evaluates its operands
// through a per-Input cache, so asking for several of them costs each operand once.
func init() {
	reg := func(id, desc string, f func(*Input) Result) {
		Register(Func(Info{ID: id, Unit: "%", Better: Lower, Description: desc}, f))
	}
	reg("fobj1", "sse_sst (MAGGA study Fobj1; metrics.md §6.4)", Fobj1)
	reg("fobj2", "0.75·sse_sst + 0.25·dld (MAGGA study Fobj2; metrics.md §6.4)", Fobj2)
	reg("fobj3", "0.5·sse_sst + 0.5·dld (MAGGA study Fobj3, Eq. 5.1; metrics.md §6.4)", Fobj3)
	reg("fobj4_cal", "0.25·sse_sst + 0.75·dld (MAGGA study calibration Fobj4; metrics.md §6.4)", Fobj4Cal)
	reg("fobj4", "il1s (MAGGA study final Fobj4; metrics.md §6.4)", Fobj4)
	reg("fobj5", "il3, or il3_code with il3_variant code (MAGGA study Fobj5; metrics.md §6.4)", Fobj5)
	reg("il1_dld_mean", "(sse_sst + dld)/2 (MAGGA study mean(IL1, DLD); metrics.md §6.4)", IL1DLDMean)
	reg("dr", "0.25·dbrl + 0.25·prl + 0.5·id_rank (FCRM study DR; metrics.md §3.7)", DR)
	reg("score", "0.5·pil + 0.5·dr, interesting if ≤ 30 (FCRM study SCORE; metrics.md §6.4)", Score)
}

func value(in *Input, id string, f func(*Input) Result) float64 {
	return evalCached(in, id, f).Value
}

// Weighted returns Σ w_i·v_i, the weighted combination of metrics in one unit. A weight of 0
// drops its term, so a single weight of 1 gives that metric alone even if another is NaN.
func Weighted(w, v []float64) float64 {
	var s float64
	for i, wi := range w {
		if wi != 0 {
			s += wi * v[i]
		}
	}
	return s
}

func sseDLD(in *Input, wSSE, wDLD float64) Result {
	return Result{Value: Weighted([]float64{wSSE, wDLD},
		[]float64{value(in, "sse_sst", SSESST), value(in, "dld", DLD)})}
}

// Fobj1 returns fobj1 = sse_sst (metrics.md §6.4, MAGGA study L2259).
func Fobj1(in *Input) Result { return Result{Value: value(in, "sse_sst", SSESST)} }

// Fobj2 returns fobj2 = 0.75·sse_sst + 0.25·dld (metrics.md §6.4, MAGGA study L2261).
func Fobj2(in *Input) Result { return sseDLD(in, 0.75, 0.25) }

// Fobj3 returns fobj3 = 0.5·sse_sst + 0.5·dld, MAGGA study's recommended objective (Eq. 5.1).
func Fobj3(in *Input) Result { return sseDLD(in, 0.5, 0.5) }

// Fobj4Cal returns fobj4_cal = 0.25·sse_sst + 0.75·dld, MAGGA study's calibration objective.
func Fobj4Cal(in *Input) Result { return sseDLD(in, 0.25, 0.75) }

// Fobj4 returns fobj4 = il1s, MAGGA study's final-experiment Fobj4 (L2566).
func Fobj4(in *Input) Result { return Result{Value: value(in, "il1s", IL1s)} }

// Fobj5 returns fobj5 = il3, or il3_code with Opt.IL3Variant "code" (MAGGA study L2568).
func Fobj5(in *Input) Result {
	if in.Opt.IL3Variant == "code" {
		return Result{Value: value(in, "il3_code", IL3Code)}
	}
	return Result{Value: value(in, "il3", IL3)}
}

// IL1DLDMean returns il1_dld_mean = (sse_sst + dld)/2, MAGGA study's derived measure of its win
// counts and Table 5.8 (L2579-2583). It equals fobj3.
func IL1DLDMean(in *Input) Result {
	return Result{Value: (value(in, "sse_sst", SSESST) + value(in, "dld", DLD)) / 2}
}

// DROf returns FCRM study's combined risk 0.5·(dbrl + prl)/2 + 0.5·id = 0.25·dbrl + 0.25·prl +
// 0.5·id (metrics.md §3.7, 004 L614-618).
func DROf(dbrl, prl, id float64) float64 { return 0.5*(dbrl+prl)/2 + 0.5*id }

// ScoreOf returns FCRM study's score 0.5·pil + 0.5·dr (metrics.md §6.4, 004 L620-630).
func ScoreOf(pil, dr float64) float64 { return 0.5*pil + 0.5*dr }

// DR returns dr = DROf(dbrl, prl, id_rank) in % (metrics.md §3.7); with Opt.DRID
// "interval_disclosure" that measure replaces id_rank. Aux holds the three operands.
func DR(in *Input) Result {
	d, p := value(in, "dbrl", DBRL), value(in, "prl", PRL)
	var id float64
	if in.Opt.DRID == "interval_disclosure" {
		id = value(in, "interval_disclosure", IntervalDisclosure)
	} else {
		id = value(in, "id_rank", IDRank)
	}
	return Result{Value: DROf(d, p, id), Aux: map[string]float64{"dbrl": d, "prl": p, "id": id}}
}

// Score returns score = ScoreOf(pil, dr) in % (metrics.md §6.4); a release is "interesting"
// if it is ≤ 30 (Aux "interesting" is 1 or 0).
func Score(in *Input) Result {
	pil := value(in, "pil", PIL)
	dr := evalCached(in, "dr", DR).Value
	s := ScoreOf(pil, dr)
	res := Result{Value: s, Aux: map[string]float64{"pil": pil, "dr": dr}}
	if !math.IsNaN(s) {
		res.Aux["interesting"] = 0
		if s <= 30 {
			res.Aux["interesting"] = 1
		}
	}
	return res
}
