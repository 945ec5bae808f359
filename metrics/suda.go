package metrics

import (
	"math"
	"math/bits"
	"slices"

	"github.com/sdcbench/sdcbench/internal/keyfreq"
)

// SUDA2 / DIS-SUDA of metrics.md §4.6 (sdcMicro suda2 semantics).
func init() {
	// Version 2: a missing key value is never part of an MSU by default (metrics.md §4.6).
	Register(Func(Info{ID: "dis_suda_mean", Unit: "frac", Better: Lower, Version: 2,
		Components:  []string{"bin_0", "bin_0.1", "bin_0.2", "bin_0.3", "bin_0.4", "bin_0.5", "bin_0.6", "bin_0.7", "bin_gt0.7"},
		Description: "mean DIS-SUDA score over records (sdcMicro suda2; Morais (2022); metrics.md §4.6)"},
		func(in *Input) Result { return disSUDA(in, false) }))
	Register(Func(Info{ID: "dis_suda_max", Unit: "frac", Better: Lower, Version: 2,
		Description: "largest DIS-SUDA score (sdcMicro suda2; Morais (2022); metrics.md §4.6)"},
		func(in *Input) Result { return disSUDA(in, true) }))
}

// sudaMaxCells bounds n·2^m: the cost of sudaOf is about c·2^m for c ≤ n distinct key tuples,
// and its table of the candidates' unique sets U·2^m bits for U ≤ n.
const sudaMaxCells = 1 << 27

// disBins are the upper edges of the DIS bins (0, 0.1], …, (0.6, 0.7]; == 0 and > 0.7 are
// the first and last bins.
var disBins = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}

// suda holds the per-record SUDA2 scores and DIS-SUDA values, and the contribution of each key
// to each candidate's score (sdcMicro's contributionPercent, perrecord.go).
type suda struct {
	score, dis []float64
	// contrib[u·m+c] is Σ over the MSUs of record rec[u] containing key c of the MSU's weight,
	// divided by its score (0 when the score is 0). The records rec, in record order, are those
	// unique on the full key; every other record has no MSU and contributions 0. keys holds the
	// key columns' indices in the key table.
	contrib []float64
	rec     []int32
	keys    []int
	note    string
}

// contribRecords returns the contributions per record, n×m: record i's contribution of key c
// at i·m+c.
func (s *suda) contribRecords() []float64 {
	m := len(s.keys)
	out := make([]float64, len(s.score)*m)
	for u, i := range s.rec {
		copy(out[int(i)*m:(int(i)+1)*m], s.contrib[u*m:(u+1)*m])
	}
	return out
}

// SUDA returns the SUDA2 scores and DIS-SUDA values of the release's key columns (metrics.md
// §4.6). An MSU of record j is a set S of keys on which j is unique in the sample while no
// proper subset is. A set containing a key on which j's value is missing is never one of j's
// MSUs, as sdcMicro's Suda2 skips missing items (uniqueness itself is counted with a missing
// value as a category of its own); Opt.SUDAMissing "category" drops that rule, so a missing
// value is an ordinary category (sdcbench's rule before 2026-11). With m keys, an MSU of size k
// weighs (m−k)! (sdcMicro's original_scores = TRUE), or (2^{m−k} − 1)·k!·(m−k)!/m! with
// Opt.SUDAScores "normalized"; score_j is the sum over j's MSUs. With U the number of records
// unique on the full key, D twice the number of full-key combinations seen exactly twice,
// f = 0.01, Dis = U·f/(U·f + D·(1−f)), Q = 1 + (8 − m)/20 and A = Σ_{score>0} score^(−Q),
//
//	dis_j = 1/(1 + (U/Dis − U)/(score_j^Q·A))  if score_j > 0, else 0,
//
// with f, Dis, U/Dis − U and Q rounded to single precision as sdcMicro's C++ code does.
//
// Only the U records unique on the full key can have an MSU. The uniqueness of each on every
// subset of the keys comes from counting the exact key tuples (keyfreq.Exact) on each subset
// (uniqueSets): O(2^m·c) for c tuples. A set S is minimal iff no S minus one key is unique;
// scores and contributions are summed over the sets in ascending order, as the definition's
// enumeration does (TestSUDAMatchesDefinition). m must be small (n·2^m ≤ 2^27).
func sudaOf(in *Input) *suda {
	d, n, p := in.keyTable().Data, in.keyTable().N, in.keyTable().P
	cols, note := keyColumns(in)
	switch {
	case note != "":
		return &suda{note: note}
	case len(cols) == 0 || n == 0:
		return &suda{note: "no key columns"}
	case n<<len(cols) > sudaMaxCells || len(cols) > 24:
		return &suda{note: "dis_suda: too many key columns"}
	}
	m := len(cols)
	sets, err := uniqueSets(keyfreq.Exact(d, n, p, cols, true), m, in.Err)
	if err != nil {
		return &suda{note: "cancelled: " + err.Error()}
	}
	weight := make([]float64, m+1)
	for k := 1; k <= m; k++ {
		if in.Opt.SUDAScores == "normalized" {
			weight[k] = (math.Exp2(float64(m-k)) - 1) * factorial(k) * factorial(m-k) / factorial(m)
		} else {
			weight[k] = factorial(m - k)
		}
	}
	// sdcMicro's Suda2 skips a missing item: no set containing it is an MSU of the record
	// (its proper subsets then contain no missing item either).
	skipMissing := in.Opt.SUDAMissing != "category"
	s := &suda{score: make([]float64, n), dis: make([]float64, n), contrib: make([]float64, len(sets.rec)*m), rec: sets.rec, keys: cols}
	for u, i := range sets.rec {
		if u%1024 == 0 && in.Err() != nil {
			return &suda{note: "cancelled: " + in.Err().Error()}
		}
		ct := s.contrib[u*m : (u+1)*m]
		var sc float64
		for wd, x := range sets.uniq[u*sets.words : (u+1)*sets.words] {
			for ; x != 0; x &= x - 1 {
				S := wd*64 + bits.TrailingZeros64(x)
				if skipMissing && uint32(S)&sets.miss[u] != 0 {
					continue
				}
				minimal := true
				for c := 0; c < m && minimal; c++ {
					if T := S &^ (1 << c); S>>c&1 == 1 && T != 0 && sets.has(u, T) {
						minimal = false
					}
				}
				if minimal {
					wt := weight[bits.OnesCount(uint(S))]
					sc += wt
					for c := 0; c < m; c++ {
						if S>>c&1 == 1 {
							ct[c] += wt
						}
					}
				}
			}
		}
		s.score[i] = sc
		if sc > 0 {
			for c := range ct {
				ct[c] /= sc
			}
		}
	}
	// DIS-SUDA
	// sdcMicro 5.8.1 (src/Suda2.cpp) computes DisFraction, Dis and Q in single precision
	// (float) and the rest in double; the float32 conversions below copy that, which moves
	// dis_j by about 1e-7 relative to an all-double evaluation.
	f := float32(0.01)
	Uf, Df := float32(len(sets.rec)), float32(2*sets.twice)
	uf := float32(Uf * f)
	dis := uf / float32(uf+float32(Df*float32(1-f)))
	odds := float64(float32(Uf/dis) - Uf) // U/Dis − U
	Q := float64(1 + (8-float32(m))/20)
	var A float64
	for _, sc := range s.score {
		if sc > 0 {
			A += 1 / math.Pow(sc, Q)
		}
	}
	for i, sc := range s.score {
		if sc > 0 {
			s.dis[i] = 1 / (1 + odds/(math.Pow(sc, Q)*A))
		}
	}
	return s
}

func factorial(k int) float64 {
	f := 1.0
	for i := 2; i <= k; i++ {
		f *= float64(i)
	}
	return f
}

// disSUDA returns dis_suda_mean or dis_suda_max (metrics.md §4.6; see sudaOf). Aux holds the
// bin counts "bin_0" (== 0), "bin_0.1" … "bin_0.7" ((0.6, 0.7]) and "bin_gt0.7", the number
// of records with a positive score "n_score", and "score_sum" and "score_max".
func disSUDA(in *Input, maximum bool) Result {
	s := cached(in, "cat:suda", sudaOf)
	if s.note != "" {
		return nanNote(s.note)
	}
	res := Result{Aux: map[string]float64{}}
	bins := make([]float64, len(disBins)+2)
	for i, v := range s.dis {
		switch {
		case v == 0:
			bins[0]++
		case v > disBins[len(disBins)-1]:
			bins[len(bins)-1]++
		default:
			b, _ := slices.BinarySearch(disBins, v) // first edge ≥ v
			bins[b+1]++
		}
		if s.score[i] > 0 {
			res.Aux["n_score"]++
		}
	}
	res.Aux["bin_0"] = bins[0]
	for b, e := range disBins {
		res.Aux["bin_"+formatEdge(e)] = bins[b+1]
	}
	res.Aux["bin_gt0.7"] = bins[len(bins)-1]
	res.Aux["score_sum"] = sum(s.score)
	res.Aux["score_max"] = slices.Max(s.score)
	res.Aux["dis_sum"] = sum(s.dis)
	if maximum {
		res.Value = slices.Max(s.dis)
	} else {
		res.Value = sum(s.dis) / float64(len(s.dis))
	}
	return res
}

func formatEdge(e float64) string { return "0." + itoa(int(math.Round(e*10))) }
