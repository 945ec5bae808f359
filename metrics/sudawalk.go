package metrics

import "github.com/sdcbench/sdcbench/internal/keyfreq"

// sudaSets are, for each record unique on the full key (a candidate), the subsets of the keys
// on which it is unique in the sample, found by counting the exact key tuples' projections on
// every subset (uniqueSets). A record that shares its full key with another shares every
// projection, so it is unique on no subset and has no MSU; only the candidates need a row.
type sudaSets struct {
	m, words int
	rec      []int32  // candidate u's record; the candidates in record order
	miss     []uint32 // candidate u's keys whose value is missing (bit c for key c)
	// uniq[u·words + S/64] has bit S%64 set iff candidate u is unique on the keys S.
	uniq  []uint64
	twice int // full-key combinations held by exactly two records
}

// has reports whether candidate u is unique on the keys S.
func (s *sudaSets) has(u, S int) bool { return s.uniq[u*s.words+S>>6]>>(S&63)&1 == 1 }

// uniqueSets returns the sudaSets of the release's exact key tuples ex on m keys (Exact with
// codes), or the error of cancel, which is polled once per subset.
//
// The tuples' projections on every subset are numbered (keyProjections). On each subset the tuples' records, capped at 2, are
// counted in direct byte counters indexed by those numbers (only the touched counters are
// cleared after the subset), and the candidates whose count is 1 are marked. Cost O(2^m·c) for
// c tuples besides Exact, against the O(2^m·n) hash-map operations and the n × 2^m table of
// the definition (docs/scaling.md, "SUDA over the exact key tuples").
func uniqueSets(ex keyfreq.Classes, m int, cancel func() error) (*sudaSets, error) {
	g := len(ex.Count)
	s := &sudaSets{m: m, words: (1<<m + 63) / 64}
	// The candidates in record order: their tuples and their missing keys.
	var cand []int32
	for i, t := range ex.Of {
		if ex.Count[t] == 1 {
			cand = append(cand, t)
			s.rec = append(s.rec, int32(i))
		}
	}
	// Code 0 is a missing key: read before newKeyProjections below turns ex.Codes into digits
	// in place (then 0 is the first value of a key with no missing value).
	s.miss = make([]uint32, len(cand))
	for u, t := range cand {
		for k := range m {
			if ex.Codes[k*g+int(t)] == 0 {
				s.miss[u] |= 1 << k
			}
		}
	}
	mult := make([]uint8, g) // records of each tuple, capped at 2
	for t, c := range ex.Count {
		if c == 2 {
			s.twice++
		}
		mult[t] = uint8(min(c, 2))
	}
	s.uniq = make([]uint64, len(cand)*s.words)
	var cnt []uint8 // counters by number, all zero between subsets
	proj := newKeyProjections(ex, m)
	err := proj.walk(m, func(_ int, T uint64, keys []uint32, span uint64) error { // m ≤ 24: T holds S
		if err := cancel(); err != nil {
			return err
		}
		if uint64(len(cnt)) < span {
			cnt = make([]uint8, max(span, min(2*uint64(len(cnt)), proj.limit)))
		}
		for t, k := range keys {
			cnt[k] = min(cnt[k]+mult[t], 2)
		}
		word, bit := int(T>>6), uint64(1)<<(T&63)
		for u, t := range cand {
			if cnt[keys[t]] == 1 {
				s.uniq[u*s.words+word] |= bit
			}
		}
		for _, k := range keys {
			cnt[k] = 0
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}
