package magga

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/internal/distance"
)

// Pick says which donor members the repair moves (spec §6).
type Pick int

// Repair picks.
const (
	PickNearest     Pick = iota // the members nearest to the receptor's Z-centroid
	PickLowestIndex             // the lowest-index members [seed code]
)

// Crossover writes into child the biased uniform crossover of the elite parent a and the
// non-elite parent b (spec §5, seed L1510-1538): child[j] = a[j] if rng.Float64() ≤ rhoE,
// else b[j], drawing the n coins in order. The child usually needs Repair.
func Crossover(child, a, b []int32, rhoE float64, rng *rand.Rand) {
	for j := range child {
		if rng.Float64() <= rhoE {
			child[j] = a[j]
		} else {
			child[j] = b[j]
		}
	}
}

// repairScratch is the workspace of Repair.
type repairScratch struct {
	cnt   []int
	lists [][]int32
	cand  []candidate
	cent  []float64
	moved []int32
	hist  []int
}

type candidate struct {
	dist float64
	i    int32
}

// Repair makes labels a feasible partition in place and returns its number of groups G
// (docs/magga.md, sdcbench version). With L = max(max(labels)+1, Gmin) labels,
// absent ones counting as empty groups, it repeats until every group has k..2k−1 records:
// the receptor r is the smallest group and the donor d the largest (ties: lowest label), and
//
//	q = max(min(rmin, dmax), min(dmin, rmax)),
//	rmin = max(0, k − n_r), rmax = 2k−1 − n_r, dmin = max(0, n_d − (2k−1)), dmax = n_d − k
//
// members of d move to r, chosen by pick: PickNearest takes the q members of d nearest to
// r's Z-centroid (ties: lowest index) or, if r is empty, d's member farthest from d's
// centroid and its q−1 nearest members of d; PickLowestIndex the q lowest-index members.
//
// labels must come from feasible parents (every label < Gmax for minimum size k, n ≥ 2k);
// then q ≥ 1, no move creates a violation, and the loop ends within n moves. z is the n×d
// row-major Z. Repair is deterministic. Each move costs O(L + k·d).
func Repair(labels []int32, z []float64, d, k int, pick Pick, s *repairScratch) int {
	n := len(labels)
	L := (n + 2*k - 2) / (2*k - 1)
	for _, g := range labels {
		L = max(L, int(g)+1)
	}
	if cap(s.cnt) < L {
		s.cnt = make([]int, L)
	}
	cnt := s.cnt[:L]
	for len(s.lists) < L {
		s.lists = append(s.lists, nil)
	}
	lists := s.lists[:L]
	for g := range lists {
		lists[g] = lists[g][:0]
	}
	for i, g := range labels {
		lists[g] = append(lists[g], int32(i))
	}
	for g := range cnt {
		cnt[g] = len(lists[g])
	}
	hi := 2*k - 1
	// hist[c] counts the groups of size c, so that the smallest and largest sizes are found
	// without a pass over every group; r and dn are then the lowest labels of those sizes.
	top := hi
	for _, c := range cnt {
		top = max(top, c)
	}
	s.hist = slices.Grow(s.hist[:0], top+1)[:top+1]
	hist := s.hist
	clear(hist)
	for _, c := range cnt {
		hist[c]++
	}
	for moves := 0; ; moves++ {
		cmin, cmax := 0, top
		for hist[cmin] == 0 {
			cmin++
		}
		for hist[cmax] == 0 {
			cmax--
		}
		if cmin >= k && cmax <= hi {
			return L
		}
		r, dn := slices.Index(cnt, cmin), slices.Index(cnt, cmax)
		rmin, rmax := max(0, k-cnt[r]), hi-cnt[r]
		dmin, dmax := max(0, cnt[dn]-hi), cnt[dn]-k
		q := max(min(rmin, dmax), min(dmin, rmax))
		if q < 1 || moves > n {
			panic(fmt.Sprintf("magga: repair stuck: receptor %d (%d), donor %d (%d), k %d", r, cnt[r], dn, cnt[dn], k))
		}
		moved := s.pickMembers(lists[r], lists[dn], z, d, q, pick)
		for _, i := range moved {
			labels[i] = int32(r)
		}
		lists[r] = append(lists[r], moved...)
		slices.Sort(lists[r])
		keep := lists[dn][:0]
		for _, i := range lists[dn] {
			if labels[i] == int32(dn) {
				keep = append(keep, i)
			}
		}
		lists[dn] = keep
		hist[cnt[r]]--
		hist[cnt[dn]]--
		cnt[r], cnt[dn] = len(lists[r]), len(lists[dn])
		hist[cnt[r]]++
		hist[cnt[dn]]++
	}
}

// pickMembers returns q members of donor (ascending index list) chosen by pick. The result
// is scratch, valid until the next call.
func (s *repairScratch) pickMembers(receptor, donor []int32, z []float64, d, q int, pick Pick) []int32 {
	s.cand = s.cand[:0]
	if pick == PickLowestIndex {
		for _, i := range donor[:q] {
			s.cand = append(s.cand, candidate{i: i})
		}
		return s.result()
	}
	if cap(s.cent) < d {
		s.cent = make([]float64, d)
	}
	c := s.cent[:d]
	from := receptor
	if len(receptor) == 0 {
		from = donor
	}
	clear(c)
	for _, i := range from {
		for l, v := range z[int(i)*d : (int(i)+1)*d] {
			c[l] += v
		}
	}
	for l := range c {
		c[l] /= float64(len(from))
	}
	if len(receptor) == 0 {
		// the donor member farthest from the donor's centroid becomes the reference point
		f, fd := donor[0], math.Inf(-1)
		for _, i := range donor {
			if t := distance.Sq(c, z[int(i)*d:(int(i)+1)*d]); t > fd {
				f, fd = i, t
			}
		}
		copy(c, z[int(f)*d:(int(f)+1)*d])
	}
	for _, i := range donor {
		s.cand = append(s.cand, candidate{dist: distance.Sq(c, z[int(i)*d:(int(i)+1)*d]), i: i})
	}
	slices.SortFunc(s.cand, func(a, b candidate) int {
		if c := cmp.Compare(a.dist, b.dist); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	s.cand = s.cand[:q]
	return s.result()
}

// result returns the indices of s.cand in a reused buffer.
func (s *repairScratch) result() []int32 {
	if cap(s.moved) < len(s.cand) {
		s.moved = make([]int32, len(s.cand))
	}
	m := s.moved[:len(s.cand)]
	for j, c := range s.cand {
		m[j] = c.i
	}
	return m
}

// Feasible reports whether labels is a stored individual of spec §3: labels use exactly
// 0..G−1, every group has k..2k−1 records and ⌈n/(2k−1)⌉ ≤ G ≤ ⌊n/k⌋ (or G = 1 when
// n ≤ 2k−1). It returns G and a description of the first violation.
func Feasible(labels []int32, k int) (int, error) {
	n := len(labels)
	var cnt []int
	for j, g := range labels {
		if g < 0 {
			return 0, fmt.Errorf("record %d has label %d", j, g)
		}
		for int(g) >= len(cnt) {
			cnt = append(cnt, 0)
		}
		cnt[g]++
	}
	G := len(cnt)
	for g, c := range cnt {
		if c == 0 {
			return G, fmt.Errorf("label %d unused", g)
		}
		if n > 2*k-1 && (c < k || c > 2*k-1) {
			return G, fmt.Errorf("group %d has %d records, want %d..%d", g, c, k, 2*k-1)
		}
	}
	if n <= 2*k-1 {
		if G != 1 {
			return G, fmt.Errorf("n = %d ≤ 2k−1 needs one group, have %d", n, G)
		}
		return G, nil
	}
	if gmin, gmax := (n+2*k-2)/(2*k-1), n/k; G < gmin || G > gmax {
		return G, fmt.Errorf("group count %d outside [%d, %d]", G, gmin, gmax)
	}
	return G, nil
}
