package keyfreq

import "math/bits"

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

// A side of streamMany: the tuples of one pattern B hashed on the keys outside A ∪ B.
type side struct {
	tuples     []int32
	probe      []int // the keys of B not missing in A, masked in A's tuples
	tb         table
	ent        []int32   // entry of each tuple of B
	ecnt, eacc []float64 // per entry: records of B, records of A matched
	head, next []int32   // weighted: the tuples of B of each entry (a list through next)
}

// streamMany joins A with each pattern of Bs (exact hasher): each B is hashed on the keys
// outside A ∪ B, and A's tuples are streamed once past all of them, each probing every table
// with its number less the digits of the keys missing in B but not in A.
func (j *joiner) streamMany(A *pattern, Bs []*pattern) {
	ts, h := j.ts, j.h
	sides := make([]side, len(Bs))
	// The sides' tables and arrays are cut from shared buffers.
	nt, ns := 0, 0
	for _, B := range Bs {
		nt += tableSize(len(B.tuples))
		ns += len(B.tuples)
	}
	// The buffers are kept in j for the next call: only the table slots need clearing.
	if cap(j.mslots) < nt {
		j.mslots = make([]slot, nt)
	}
	slots := j.mslots[:nt]
	clear(slots)
	if cap(j.mi32) < 3*ns {
		j.mi32, j.mf64 = make([]int32, 3*ns), make([]float64, 2*ns)
	}
	ent, head, next := j.mi32[:ns], j.mi32[ns:2*ns], j.mi32[2*ns:3*ns]
	ecnt, eacc := j.mf64[:ns], j.mf64[ns:2*ns]
	for i, B := range Bs {
		sd := &sides[i]
		sd.tuples = B.tuples
		var hmask []int // keys of A not missing in B, masked in B's tuples
		for k := range A.miss {
			switch {
			case A.miss[k] && !B.miss[k]:
				hmask = append(hmask, k)
			case B.miss[k] && !A.miss[k]:
				sd.probe = append(sd.probe, k)
			}
		}
		size, nb := tableSize(len(B.tuples)), len(B.tuples)
		sd.tb = table{slots: slots[:size:size], shift: uint(64 - bits.TrailingZeros(uint(size)))}
		slots = slots[size:]
		// ent by tuple of B; head, ecnt and eacc by entry, appended (at most one a tuple).
		sd.ent, ent = ent[:nb:nb], ent[nb:]
		sd.head, head = head[:0:nb], head[nb:]
		sd.ecnt, ecnt = ecnt[:0:nb], ecnt[nb:]
		sd.eacc, eacc = eacc[:0:nb], eacc[nb:]
		if j.weighted {
			sd.next, next = next[:nb:nb], next[nb:]
		}
		for s, t := range B.tuples {
			key := h.masked(ts.hash[t], ts.tuple(t), hmask)
			e, slot := sd.tb.find(key, nil)
			if e < 0 {
				e = int32(len(sd.ecnt))
				sd.tb.put(slot, key, e)
				sd.ecnt, sd.eacc, sd.head = append(sd.ecnt, 0), append(sd.eacc, 0), append(sd.head, int32(s))
				if j.weighted {
					sd.next[s] = -1
				}
			} else if j.weighted {
				sd.next[s], sd.head[e] = sd.head[e], int32(s)
			}
			sd.ent[s] = e
			sd.ecnt[e] += ts.cnt[t]
		}
	}
	dm := make([]uint64, ts.m) // the digits of a tuple of A: code × multiplier
	for _, t := range A.tuples {
		for k, c := range ts.tuple(t) {
			dm[k] = uint64(c) * h.mult[k]
		}
		x, ct, ft := ts.hash[t], ts.cnt[t], 0.0
		for i := range sides {
			sd := &sides[i]
			key := x
			for _, k := range sd.probe {
				key -= dm[k]
			}
			e := sd.tb.lookup(key)
			if e < 0 {
				continue
			}
			ft += sd.ecnt[e]
			sd.eacc[e] += ct
			if j.weighted {
				for s := sd.head[e]; s >= 0; s = sd.next[s] {
					j.edges.add(sd.tuples[s], t)
				}
			}
		}
		j.tf[t] += ft
	}
	for i := range sides {
		sd := &sides[i]
		for s, t := range sd.tuples {
			j.tf[t] += sd.eacc[sd.ent[s]]
		}
	}
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
