package keyfreq

import "slices"

// The joins of countLattice between two patterns neither of which contains the other (for
// tuples of these, the partners are not found by walking up the lattice of masks).

// joinIncomparable joins every pair of patterns of pats neither of which contains the other
// (exact hasher), by the cheaper of the two joins of countJoin; the streamed joins of each
// larger pattern are made in one pass over its tuples (streamMany).
func joinIncomparable(j *joiner, pats []*pattern) {
	against := make([][]*pattern, len(pats)) // the patterns hashed and probed by pats[a]'s tuples
	for a := range pats {
		for b := a + 1; b < len(pats); b++ {
			A, B := pats[a], pats[b]
			if within(A.miss, B.miss) || within(B.miss, A.miss) {
				continue
			}
			stream := float64(2*min(len(A.tuples), len(B.tuples)) + max(len(A.tuples), len(B.tuples)))
			ea, eb := j.enumSize(A, B), j.enumSize(B, A)
			switch {
			case enumCost*ea < stream && ea <= eb:
				j.enumerate(A, B)
			case enumCost*eb < stream:
				j.enumerate(B, A)
			case len(A.tuples) >= len(B.tuples):
				against[a] = append(against[a], B)
			default:
				against[b] = append(against[b], A)
			}
		}
	}
	for a, Bs := range against {
		if len(Bs) > 0 {
			j.streamMany(pats[a], Bs)
		}
	}
}

// streamMany joins A with each pattern of Bs (exact hasher): A's numbers and codes are
// gathered once; then each B in turn is hashed on the keys outside A ∪ B and A's tuples stream
// past its table (kept in cache while they do), probing it with their number less the digits
// of the keys missing in B but not in A. The table and the arrays are reused from B to B.
func (j *joiner) streamMany(A *pattern, Bs []*pattern) {
	ts, h, m := j.ts, j.h, j.ts.m
	xs, cs := j.gather(A)
	order := walkOrder(ts.levels)
	var hmask, probe []int // keys of A not missing in B (masked in B's tuples), and the reverse
	for _, B := range Bs {
		hmask, probe = hmask[:0], probe[:0]
		for k := range A.miss {
			switch {
			case A.miss[k] && !B.miss[k]:
				hmask = append(hmask, k)
			case B.miss[k] && !A.miss[k]:
				probe = append(probe, k)
			}
		}
		// B's tuples by their number masked on hmask: entry e of each (ent), per entry the
		// records of B (ecnt) and of A matched (eacc) and, weighted, B's tuples (a list from
		// head through next).
		nb := len(B.tuples)
		j.tb.reset(nb)
		j.ent = slices.Grow(j.ent[:0], nb)[:nb]
		j.ecnt, j.eacc, j.head = j.ecnt[:0], j.eacc[:0], j.head[:0]
		if j.weighted {
			j.next = slices.Grow(j.next[:0], nb)[:nb]
		}
		for s, t := range B.tuples {
			key := h.masked(ts.hash[t], ts.tuple(t), hmask)
			e, slot := j.tb.find(key, nil)
			if e < 0 {
				e = int32(len(j.ecnt))
				j.tb.put(slot, key, e)
				j.ecnt, j.eacc, j.head = append(j.ecnt, 0), append(j.eacc, 0), append(j.head, int32(s))
				if j.weighted {
					j.next[s] = -1
				}
			} else if j.weighted {
				j.next[s], j.head[e] = j.head[e], int32(s)
			}
			j.ent[s] = e
			j.ecnt[e] += ts.cnt[t]
		}
		filtered := j.filter.build(ts, A, B, order)
		for a, t := range A.tuples {
			if filtered && !j.filter.has(cs[a*m:(a+1)*m]) {
				continue
			}
			key := xs[a]
			for _, k := range probe {
				key -= uint64(cs[a*m+k]) * h.mult[k]
			}
			e := j.tb.lookup(key)
			if e < 0 {
				continue
			}
			j.tf[t] += j.ecnt[e]
			j.eacc[e] += ts.cnt[t]
			if j.weighted {
				for s := j.head[e]; s >= 0; s = j.next[s] {
					j.edges.add(B.tuples[s], t)
				}
			}
		}
		for s, t := range B.tuples {
			j.tf[t] += j.eacc[j.ent[s]]
		}
	}
}

// maxFilterBits is the most bits of a streamFilter (16 KB, within the first-level cache), and
// filterKeys the most keys it combines.
const (
	maxFilterBits = 1 << 17
	filterKeys    = 4
)

// A streamFilter has a bit for every combination of codes on some keys outside A ∪ B (the
// keys with most levels, at most filterKeys of them, whose product of levels is at most
// maxFilterBits), set for the combinations of B's tuples. Two tuples of A and B are compatible
// only if they agree on those keys, so a tuple of A whose combination is not set need not probe
// B's table: for a small pattern B (the patterns with two or three missing keys, a few hundred
// tuples or fewer) most of a large pattern's tuples are skipped with one bit test instead of a
// masked number and a probe. The joins, and the order in which their pairs are found, are
// unchanged.
type streamFilter struct {
	key    [filterKeys]int // the keys of the combination (unused places: key 0 with stride 0)
	stride [filterKeys]int // the place value of each key's code in the combination's index
	base   int             // minus the index of the codes 1, 1, ...
	bits   []uint64        // the set combinations
}

// build makes f the filter of B's tuples against A's (keys outside A ∪ B, taken in order:
// the keys by descending levels). It reports false, and f is not to be used, if the
// combinations would not be at least twice as many as B's tuples (a filter that passes most
// tuples) or there is no key outside A ∪ B.
func (f *streamFilter) build(ts *tuples, A, B *pattern, order []int) bool {
	f.key, f.stride, f.base = [filterKeys]int{}, [filterKeys]int{}, 0
	size, q := 1, 0
	for _, k := range order {
		if q == filterKeys {
			break
		}
		if A.miss[k] || B.miss[k] || ts.levels[k] < 2 || size*ts.levels[k] > maxFilterBits {
			continue
		}
		f.key[q], f.stride[q] = k, size
		f.base += size
		size *= ts.levels[k]
		q++
	}
	if q == 0 || size < 2*len(B.tuples) {
		return false
	}
	words := (size + 63) / 64
	f.bits = slices.Grow(f.bits[:0], words)[:words]
	clear(f.bits)
	for _, t := range B.tuples {
		i := f.index(ts.tuple(t))
		f.bits[i>>6] |= 1 << (i & 63)
	}
	return true
}

// index returns the combination of the codes c (no code 0 on the filter's keys).
func (f *streamFilter) index(c []uint32) int {
	return int(c[f.key[0]])*f.stride[0] + int(c[f.key[1]])*f.stride[1] +
		int(c[f.key[2]])*f.stride[2] + int(c[f.key[3]])*f.stride[3] - f.base
}

// has reports whether the combination of the codes c is set.
func (f *streamFilter) has(c []uint32) bool {
	i := uint(f.index(c))
	return f.bits[i>>6]>>(i&63)&1 != 0
}

// within reports whether every key missing in p is missing in q.
func within(p, q []bool) bool {
	for k := range p {
		if p[k] && !q[k] {
			return false
		}
	}
	return true
}

// gather returns the numbers and codes of the tuples of A, in their order, in buffers of j.
func (j *joiner) gather(A *pattern) (xs []uint64, cs []uint32) {
	ts, m := j.ts, j.ts.m
	xs, cs = j.gx[:0], j.gc[:0]
	for _, t := range A.tuples {
		xs = append(xs, ts.hash[t])
		cs = append(cs, ts.tuple(t)...)
	}
	j.gx, j.gc = xs, cs
	return xs, cs[:len(A.tuples)*m]
}
