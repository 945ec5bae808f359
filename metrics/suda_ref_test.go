package metrics

import (
	"math"
	"math/bits"

	"github.com/sdcbench/sdcbench/internal/keyfreq"
)

// sudaReference is sudaOf as it was before 2026-11-29: every subset of the keys counted over
// all records in a hash map, and an n × 2^m table of per-record uniqueness. The tests compare
// sudaOf with it bit for bit.
func sudaReference(in *Input) *suda {
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
	if fullFitsRef(card) {
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

func fullFitsRef(card []uint64) bool {
	span := uint64(1)
	for _, c := range card {
		if span > math.MaxUint64/c {
			return false
		}
		span *= c
	}
	return true
}

// popcount is the number of keys in subset x (bit c for key c).
func popcount(x int) int { return bits.OnesCount(uint(x)) }
