package metrics

import (
	"math/bits"

	"github.com/sdcbench/sdcbench/internal/keyfreq"
)

// sudaSets are, for each record unique on the full key (a candidate: no other record can be
// unique on fewer keys), the subsets of the keys on which it is unique in the sample, found by
// counting the exact key tuples' projections on every subset (sudaWalk). A record that shares
// its full key with another shares every projection, so it is unique on no subset and has no
// MSU; only the candidates need a row.
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

// sudaDenseMin is the least number of direct counters of sudaWalk (the counters' bound is
// this or 8 a tuple, whichever is larger).
const sudaDenseMin = 1 << 22

// sudaWalk holds the state of the walk over the subsets of the keys (uniqueSets).
type sudaWalk struct {
	g, u   int      // exact key tuples; the first u of them are the candidates
	card   []uint64 // the digits of key c range over 0..card[c]−1
	digit  []uint32 // digit[c·g + t]: tuple t's digit of key c
	mult   []uint8  // min(records of tuple t, 2)
	keys   [][]uint32
	dense  []uint8 // counters by key (min(count, 2)), all zero between uses
	limit  uint64  // largest key space counted in dense
	ids    map[uint64]uint32
	idCnt  []uint8
	s      *sudaSets
	cancel func() error
}

// uniqueSets returns the sudaSets of the release's exact key tuples ex on m keys (Exact with
// codes), or the error of cancel, which is polled once per subset.
//
// The tuples are renumbered with the candidates first, in record order, and each key's codes
// become digits 0..L−1 (a missing value one of its own). The subsets are visited depth first,
// each extending its parent by a later key, so that a tuple's number on S ∪ {c} is its number
// on S times the range of c plus its digit: one multiply-add a tuple and subset. The tuples'
// counts on each subset (capped at 2, from their records capped at 2) go to direct counters
// when the numbers' range is at most the limit (the touched counters are cleared after the
// subset), else to a hash map whose dense numbering replaces the numbers, which keeps every
// later range below the tuples times a key's range. Cost O(2^m·c) for c tuples besides Exact,
// against the O(2^m·n) hash-map operations and the n × 2^m table of the definition
// (docs/scaling.md, "SUDA").
func uniqueSets(ex keyfreq.Classes, m int, cancel func() error) (*sudaSets, error) {
	g := len(ex.Count)
	s := &sudaSets{m: m, words: (1<<m + 63) / 64}
	// Candidates first, in record order, then the other tuples.
	num := make([]int32, g)
	for i := range num {
		num[i] = -1
	}
	for i, t := range ex.Of {
		if ex.Count[t] == 1 {
			num[t] = int32(len(s.rec))
			s.rec = append(s.rec, int32(i))
		}
	}
	next := int32(len(s.rec))
	for t, c := range ex.Count {
		if c != 1 {
			num[t] = next
			next++
		}
		if c == 2 {
			s.twice++
		}
	}
	w := &sudaWalk{g: g, u: len(s.rec), card: make([]uint64, m), digit: make([]uint32, m*g), mult: make([]uint8, g), s: s, cancel: cancel}
	w.limit = max(sudaDenseMin, 8*uint64(g))
	missing := make([]bool, m)
	for t := range g {
		for k := range m {
			if ex.Codes[t*m+k] == 0 {
				missing[k] = true
			}
		}
	}
	off := make([]uint32, m)
	for k, L := range ex.Levels {
		w.card[k] = uint64(L)
		if missing[k] {
			w.card[k]++
		} else {
			off[k] = 1
		}
	}
	s.miss = make([]uint32, w.u)
	for t, c := range ex.Count {
		nt := int(num[t])
		for k := range m {
			code := ex.Codes[t*m+k]
			w.digit[k*g+nt] = code - off[k]
			if code == 0 && nt < w.u {
				s.miss[nt] |= 1 << k
			}
		}
		w.mult[nt] = uint8(min(c, 2))
	}
	s.uniq = make([]uint64, w.u*s.words)
	w.keys = make([][]uint32, m)
	for k := range w.keys {
		w.keys[k] = make([]uint32, g)
	}
	if err := w.visit(0, 0, nil, 1); err != nil {
		return nil, err
	}
	return s, nil
}

// visit counts the tuples on every subset S ∪ {c, …} with keys c ≥ from added (S has depth
// keys), given their numbers parent on S (nil for the empty set) below span, and marks the
// candidates unique there.
func (w *sudaWalk) visit(S, depth int, parent []uint32, span uint64) error {
	from := bits.Len(uint(S))
	for c := from; c < len(w.card); c++ {
		if err := w.cancel(); err != nil {
			return err
		}
		T := S | 1<<c
		keys := w.keys[depth]
		dig := w.digit[c*w.g : (c+1)*w.g]
		hi, sp := bits.Mul64(span, w.card[c])
		if hi == 0 && sp <= w.limit {
			if parent == nil {
				copy(keys, dig)
			} else {
				r := uint32(w.card[c])
				for t, x := range parent {
					keys[t] = x*r + dig[t]
				}
			}
			if uint64(len(w.dense)) < sp {
				w.dense = make([]uint8, max(sp, min(2*uint64(len(w.dense)), w.limit)))
			}
			cnt := w.dense
			for t, k := range keys {
				cnt[k] = min(cnt[k]+w.mult[t], 2)
			}
			w.mark(T, keys, cnt)
			for _, k := range keys {
				cnt[k] = 0
			}
		} else {
			if w.ids == nil {
				w.ids = make(map[uint64]uint32, w.g)
			}
			clear(w.ids)
			w.idCnt = w.idCnt[:0]
			for t := range keys {
				k := uint64(dig[t])
				if parent != nil {
					k += uint64(parent[t]) * w.card[c]
				}
				id, ok := w.ids[k]
				if !ok {
					id = uint32(len(w.idCnt))
					w.ids[k] = id
					w.idCnt = append(w.idCnt, 0)
				}
				w.idCnt[id] = min(w.idCnt[id]+w.mult[t], 2)
				keys[t] = id
			}
			sp = uint64(len(w.idCnt))
			w.mark(T, keys, w.idCnt)
		}
		if err := w.visit(T, depth+1, keys, sp); err != nil {
			return err
		}
	}
	return nil
}

// mark sets bit T of each candidate whose number keys[u] has count 1 in cnt.
func (w *sudaWalk) mark(T int, keys []uint32, cnt []uint8) {
	s := w.s
	word, bit := T>>6, uint64(1)<<(T&63)
	for u, k := range keys[:w.u] {
		if cnt[k] == 1 {
			s.uniq[u*s.words+word] |= bit
		}
	}
}
