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
		for a, t := range A.tuples {
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

// within reports whether every key missing in p is missing in q.
func within(p, q []bool) bool {
	for k := range p {
		if p[k] && !q[k] {
			return false
		}
	}
	return true
}
