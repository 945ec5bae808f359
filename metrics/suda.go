package metrics

import (
	"math"
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

// sudaMaxCells bounds n·2^m, the size of the sample-uniqueness table.
const sudaMaxCells = 1 << 27

// disBins are the upper edges of the DIS bins (0, 0.1], …, (0.6, 0.7]; == 0 and > 0.7 are
// the first and last bins.
var disBins = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}

// suda holds the per-record SUDA2 scores and DIS-SUDA values, and each record's contribution
// of each key (sdcMicro's contributionPercent, perrecord.go).
type suda struct {
	score, dis []float64
	// contrib[i·m+c] is Σ over record i's MSUs containing key c of the MSU's weight, divided by
	// score_i (0 when score_i = 0); keys holds the key columns' indices in the key table.
	contrib []float64
	keys    []int
	note    string
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
// Cost O(n·2^m·m): every subset of keys is enumerated, so m must be small (n·2^m ≤ 2^27).
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
	// dense codes per key column; NaN is a category of its own
	code := make([]uint32, n*m)
	card := make([]uint64, m)
	for c, l := range cols {
		ids := map[uint64]uint32{}
		for i := 0; i < n; i++ {
			k := keyfreq.Bits(d[i*p+l])
			v, ok := ids[k]
			if !ok {
				v = uint32(len(ids))
				ids[k] = v
			}
			code[i*m+c] = v
		}
		card[c] = uint64(len(ids))
	}
	nsub := 1 << m
	unique := make([]bool, n*nsub) // unique[i*nsub+S]: record i is unique on the keys S
	keys := make([]uint64, n)
	counts := map[uint64]int{}
	var strKeys map[string]int
	buf := make([]byte, 0, 4*m)
	for S := 1; S < nsub; S++ {
		if in.Err() != nil {
			return &suda{note: "cancelled: " + in.Err().Error()}
		}
		// mixed-radix key when it fits in 64 bits, else a byte string
		fits, span := true, uint64(1)
		for c := 0; c < m; c++ {
			if S>>c&1 == 1 {
				if span > math.MaxUint64/card[c] {
					fits = false
					break
				}
				span *= card[c]
			}
		}
		if fits {
			clear(counts)
			for i := 0; i < n; i++ {
				var k uint64
				for c := 0; c < m; c++ {
					if S>>c&1 == 1 {
						k = k*card[c] + uint64(code[i*m+c])
					}
				}
				keys[i] = k
				counts[k]++
			}
			for i := 0; i < n; i++ {
				unique[i*nsub+S] = counts[keys[i]] == 1
			}
			continue
		}
		strKeys = map[string]int{}
		sk := make([]string, n)
		for i := 0; i < n; i++ {
			buf = buf[:0]
			for c := 0; c < m; c++ {
				if S>>c&1 == 1 {
					v := code[i*m+c]
					buf = append(buf, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
				}
			}
			sk[i] = string(buf)
			strKeys[sk[i]]++
		}
		for i := 0; i < n; i++ {
			unique[i*nsub+S] = strKeys[sk[i]] == 1
		}
	}
	// U, the records unique on the full key, is counted before missing items are dropped
	// (sdcMicro's DIS uses the sample uniques of the full key whatever the MSUs).
	full := nsub - 1
	var U float64
	for i := 0; i < n; i++ {
		if unique[i*nsub+full] {
			U++
		}
	}
	if in.Opt.SUDAMissing != "category" {
		// sdcMicro's Suda2 skips a missing item: no set containing it is an MSU of the record.
		for c, l := range cols {
			for i := 0; i < n; i++ {
				if math.IsNaN(d[i*p+l]) {
					for S := 1; S < nsub; S++ {
						if S>>c&1 == 1 {
							unique[i*nsub+S] = false
						}
					}
				}
			}
		}
	}
	weight := make([]float64, m+1)
	for k := 1; k <= m; k++ {
		if in.Opt.SUDAScores == "normalized" {
			weight[k] = (math.Exp2(float64(m-k)) - 1) * factorial(k) * factorial(m-k) / factorial(m)
		} else {
			weight[k] = factorial(m - k)
		}
	}
	s := &suda{score: make([]float64, n), dis: make([]float64, n), contrib: make([]float64, n*m), keys: cols}
	for i := 0; i < n; i++ {
		if i%1024 == 0 && in.Err() != nil {
			return &suda{note: "cancelled: " + in.Err().Error()}
		}
		u := unique[i*nsub : (i+1)*nsub]
		var sc float64
		for S := 1; S < nsub; S++ {
			if !u[S] {
				continue
			}
			minimal := true
			for c := 0; c < m && minimal; c++ {
				if T := S &^ (1 << c); S>>c&1 == 1 && T != 0 && u[T] {
					minimal = false
				}
			}
			if minimal {
				sc += weight[popcount(S)]
				for c := 0; c < m; c++ {
					if S>>c&1 == 1 {
						s.contrib[i*m+c] += weight[popcount(S)]
					}
				}
			}
		}
		s.score[i] = sc
		if sc > 0 {
			for c := 0; c < m; c++ {
				s.contrib[i*m+c] /= sc
			}
		}
	}
	// DIS-SUDA
	var twice float64
	pairs := map[uint64]int{}
	if fullFits(card) {
		for i := 0; i < n; i++ {
			var k uint64
			for c := 0; c < m; c++ {
				k = k*card[c] + uint64(code[i*m+c])
			}
			pairs[k]++
		}
		for _, c := range pairs {
			if c == 2 {
				twice++
			}
		}
	} else {
		sp := map[string]int{}
		for i := 0; i < n; i++ {
			buf = buf[:0]
			for c := 0; c < m; c++ {
				v := code[i*m+c]
				buf = append(buf, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
			}
			sp[string(buf)]++
		}
		for _, c := range sp {
			if c == 2 {
				twice++
			}
		}
	}
	// sdcMicro 5.8.1 (src/Suda2.cpp) computes DisFraction, Dis and Q in single precision
	// (float) and the rest in double; the float32 conversions below copy that, which moves
	// dis_j by about 1e-7 relative to an all-double evaluation.
	f := float32(0.01)
	Uf, Df := float32(U), float32(2*twice)
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

func fullFits(card []uint64) bool {
	span := uint64(1)
	for _, c := range card {
		if span > math.MaxUint64/c {
			return false
		}
		span *= c
	}
	return true
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
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
