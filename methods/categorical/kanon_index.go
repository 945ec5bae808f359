package categorical

import (
	"math/bits"
)

// wcIndex is a multiset of key tuples that answers kanon's two questions without scanning the
// records: how many tuples are compatible with a tuple r outside a set S of columns (a
// missing value, code 0, matching anything), and hence which columns r's nearest tuples
// differ in. A tuple is packed in a uint64, column j's code in the bits field[j] (docs/
// categorical.md "kanon at census scale").
//
// Tuples are grouped by their missing mask M (bit j set when column j is missing). A tuple t
// of mask M is compatible with r (mask R) outside S iff t and r agree on K = all &^ S &^ M &^ R,
// so the count is the sum over masks M of a lookup of r's projection on K in the index of
// (M, K), built on first use and kept up to date by add.
type wcIndex struct {
	m      int
	all    uint64 // columns 0..m-1
	field  []uint64
	shift  []uint
	byMask map[uint64]*maskSet
	masks  []*maskSet // the sets of byMask, in creation order
}

type maskSet struct {
	mask   uint64
	count  int              // records with this mask
	tuples map[uint64]int32 // packed tuple → records
	proj   map[uint64]map[uint64]int32
}

// newWCIndex returns an empty index for m columns whose codes need width[j] bits; ok is false
// when the widths do not fit in 64 bits or m > 63.
func newWCIndex(width []uint) (x *wcIndex, ok bool) {
	m := len(width)
	if m > 63 {
		return nil, false
	}
	x = &wcIndex{m: m, all: 1<<uint(m) - 1, field: make([]uint64, m), shift: make([]uint, m), byMask: map[uint64]*maskSet{}}
	var s uint
	for j, w := range width {
		if s+w > 64 {
			return nil, false
		}
		x.shift[j] = s
		x.field[j] = (1<<w - 1) << s
		s += w
	}
	return x, true
}

// pack returns the packed tuple of codes and its missing mask.
func (x *wcIndex) pack(codes []int32) (key, mask uint64) {
	for j, c := range codes {
		if c == 0 {
			mask |= 1 << uint(j)
			continue
		}
		key |= uint64(c) << x.shift[j]
	}
	return key, mask
}

// fieldMask returns the bits of the columns in cols.
func (x *wcIndex) fieldMask(cols uint64) uint64 {
	var fm uint64
	for c := cols; c != 0; c &= c - 1 {
		fm |= x.field[bits.TrailingZeros64(c)]
	}
	return fm
}

// add adds delta records of tuple key (missing mask mask) to the multiset.
func (x *wcIndex) add(key, mask uint64, delta int32) {
	ms := x.byMask[mask]
	if ms == nil {
		ms = &maskSet{mask: mask, tuples: map[uint64]int32{}, proj: map[uint64]map[uint64]int32{}}
		x.byMask[mask] = ms
		x.masks = append(x.masks, ms)
	}
	ms.count += int(delta)
	bump(ms.tuples, key, delta)
	for cols, idx := range ms.proj {
		bump(idx, key&x.fieldMask(cols), delta)
	}
}

func bump(m map[uint64]int32, k uint64, delta int32) {
	if v := m[k] + delta; v != 0 {
		m[k] = v
	} else {
		delete(m, k)
	}
}

// countMask returns the number of records of mask set ms compatible with tuple key (mask
// rmask) outside the columns s.
func (x *wcIndex) countMask(ms *maskSet, key, rmask, s uint64) int {
	if ms.count == 0 {
		return 0
	}
	cols := x.all &^ s &^ ms.mask &^ rmask
	if cols == 0 {
		return ms.count
	}
	fm := x.fieldMask(cols)
	idx := ms.proj[cols]
	if idx == nil {
		idx = make(map[uint64]int32, len(ms.tuples))
		for t, c := range ms.tuples {
			idx[t&fm] += c
		}
		ms.proj[cols] = idx
	}
	return int(idx[key&fm])
}

// freq returns sdcMicro freqCalc's fk of tuple key (mask rmask) with the weight alpha of
// tuples with missing values (docs/categorical.md): for a complete tuple its own count plus
// alpha times the compatible tuples with a missing value other than all-missing ones (with
// two keys or more: freqCalc's addAllNAtoKeys is off); for a tuple with a missing value
// its own count, alpha times the other compatible tuples with a missing value and the
// compatible complete tuples; for an all-missing tuple every record.
func (x *wcIndex) freq(key, rmask uint64, alpha float64, total int) float64 {
	if rmask == x.all {
		return float64(total)
	}
	var own, comp, na int
	for _, ms := range x.masks {
		if rmask == 0 && ms.mask == x.all && x.m > 1 {
			continue // freqCalc does not count all-missing keys for complete ones
		}
		c := x.countMask(ms, key, rmask, 0)
		switch {
		case ms.mask == 0:
			comp += c
		default:
			na += c
		}
	}
	if rmask == 0 {
		own = comp
		return float64(own) + float64(na)*alpha
	}
	own = int(x.byMask[rmask].tuples[key])
	return float64(own) + (float64(na-own)*alpha + float64(comp))
}

// nearest returns the column kanon suppresses in tuple key (mask rmask): among the records
// at the smallest positive distance (the number of columns where both have a value and the
// values differ), the first column in order in which one of them differs from the tuple
// (sdcMicro's cpp_calcSuppInds and the loop over colIndsSorted). ok is false when every
// record is compatible with the tuple.
func (x *wcIndex) nearest(key, rmask uint64, order []int) (col int, ok bool) {
	free := x.all &^ rmask
	base := make([]int, len(x.masks)) // records of each mask compatible with the tuple
	for i, ms := range x.masks {
		base[i] = x.countMask(ms, key, rmask, 0)
	}
	// more reports whether some record differs from the tuple inside s only and in at
	// least one column of s: count(s) > count(∅). Masks covering s add nothing to the
	// difference (their records are missing on all of s).
	more := func(s uint64) bool {
		for i, ms := range x.masks {
			if s&^ms.mask == 0 || ms.count == 0 {
				continue
			}
			if x.countMask(ms, key, rmask, s) > base[i] {
				return true
			}
		}
		return false
	}
	var cand []int // present columns of the tuple, in order
	for _, c := range order {
		if free&(1<<uint(c)) != 0 {
			cand = append(cand, c)
		}
	}
	// With no record at a distance below d, a set S of d columns holds records differing
	// exactly in S iff count(S) > count(∅) (Möbius inversion: every smaller difference set
	// is empty), so the first column in order that belongs to such an S is the answer.
	for _, c := range cand {
		if more(1 << uint(c)) {
			return c, true
		}
	}
	seen := map[uint64]bool{}
	others := make([]int, 0, len(cand))
	for d := 2; d <= len(cand); d++ {
		for i, c := range cand {
			others = append(append(others[:0], cand[:i]...), cand[i+1:]...)
			found := false
			combinations(len(others), d-1, func(pick []int) bool {
				s := uint64(1) << uint(c)
				for _, q := range pick {
					s |= 1 << uint(others[q])
				}
				if seen[s] {
					return true
				}
				seen[s] = true
				found = more(s)
				return !found
			})
			if found {
				return c, true
			}
		}
	}
	return 0, false
}

// combinations calls f with every r-subset of 0..n-1 in lexicographic order (R's combn order)
// until f returns false.
func combinations(n, r int, f func([]int) bool) {
	if r > n || r < 0 {
		return
	}
	pick := make([]int, r)
	for i := range pick {
		pick[i] = i
	}
	for {
		if !f(pick) {
			return
		}
		i := r - 1
		for i >= 0 && pick[i] == n-r+i {
			i--
		}
		if i < 0 {
			return
		}
		pick[i]++
		for j := i + 1; j < r; j++ {
			pick[j] = pick[j-1] + 1
		}
	}
}
