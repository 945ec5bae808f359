package recordswap

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
)

// problem is the household-level view of a dataset that the swapping works on. Households
// are numbered 0..n−1 in hid order; levels 0..L−1 run from the highest geographic level to
// the lowest.
type problem struct {
	n, levels int
	// area[h][i] is household i's area at level h, areas numbered in the order of their
	// values (lexicographic over the hierarchy columns 0..h); −1 for a skipped household.
	area [][]int
	// members[h][a] lists the households of area a at level h, in hid order.
	members [][][]int
	// risk[h][i] is the household's risk at level h: the largest 1/count over its members,
	// count being the number of records with the member's risk variables in its area.
	risk [][]float64
	// must[i] is the level across which household i must be swapped (its first level with a
	// count below k), or levels when none.
	must []int
	// sim[p][i] is household i's class under similarity profile p.
	sim [][]int
}

// keyer numbers tuples of values: class ids of (previous class, value) pairs, so that a
// tuple of any length is numbered by folding it one value at a time. Missing values (any
// NaN) are one value, and so are −0 and +0.
type keyer map[[2]uint64]int

func (k keyer) next(prev int, v float64) int {
	bits := math.Float64bits(v)
	switch {
	case v != v:
		bits = math.Float64bits(math.NaN())
	case v == 0:
		bits = 0
	}
	key := [2]uint64{uint64(prev), bits}
	id, ok := k[key]
	if !ok {
		id = len(k)
		k[key] = id
	}
	return id
}

// problem builds the household view of d with threshold k for the must-swap levels
// (sdcMicro's setRisk and setLevels: a household must be swapped across the first level at
// which a member's count is below k).
func (s *setup) problem(d *datasets.Dataset, k int) *problem {
	L := len(s.hier)
	pr := &problem{n: len(s.hh), levels: L, must: make([]int, len(s.hh))}

	// Counts of (risk variables, hierarchy 0..h) over all records.
	cls := make([][]int, L) // cls[h][row]
	kr := keyer{}
	counts := map[int]int{}
	for h := range cls {
		cls[h] = make([]int, d.N)
	}
	for i := 0; i < d.N; i++ {
		c := -1
		for _, j := range s.risk {
			c = kr.next(c, d.At(i, j))
		}
		for h, j := range s.hier {
			c = kr.next(c, d.At(i, j))
			cls[h][i] = c
			counts[c]++
		}
	}
	pr.risk = make([][]float64, L)
	for h := range pr.risk {
		pr.risk[h] = make([]float64, pr.n)
	}
	for hh, rows := range s.hh {
		pr.must[hh] = L
		for h := L - 1; h >= 0; h-- {
			low := math.MaxInt
			for _, i := range rows {
				low = min(low, counts[cls[h][i]])
			}
			pr.risk[h][hh] = 1 / float64(low)
			if k > 0 && low < k {
				pr.must[hh] = h
			}
		}
	}

	// Areas: households sorted by their hierarchy values; a new area of level h starts where
	// the values 0..h change.
	geoVals := make([]float64, pr.n*L)
	for hh, rows := range s.hh {
		for h, j := range s.hier {
			geoVals[hh*L+h] = d.At(rows[0], j)
		}
	}
	geo := func(hh, h int) float64 { return geoVals[hh*L+h] }
	var order []int
	for hh := range s.hh {
		if !s.skip[hh] {
			order = append(order, hh)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		for h := 0; h < L; h++ {
			if c := compareFloat(geo(a, h), geo(b, h)); c != 0 {
				return c
			}
		}
		return a - b
	})
	pr.area = make([][]int, L)
	nAreas := make([]int, L)
	for h := range pr.area {
		pr.area[h] = make([]int, pr.n)
		for i := range pr.area[h] {
			pr.area[h][i] = -1
		}
	}
	for t, hh := range order {
		changed := t == 0
		for h := 0; h < L; h++ {
			if !changed && geo(hh, h) != geo(order[t-1], h) {
				changed = true
			}
			if changed {
				nAreas[h]++
			}
			pr.area[h][hh] = nAreas[h] - 1
		}
	}
	pr.members = make([][][]int, L)
	for h := range pr.members {
		pr.members[h] = make([][]int, nAreas[h])
		for hh := 0; hh < pr.n; hh++ {
			if a := pr.area[h][hh]; a >= 0 {
				pr.members[h][a] = append(pr.members[h][a], hh)
			}
		}
	}

	ks := keyer{}
	pr.sim = make([][]int, len(s.similar))
	for p, prof := range s.similar {
		pr.sim[p] = make([]int, pr.n)
		for hh, rows := range s.hh {
			c := -1 - p // profiles are numbered apart
			for _, j := range prof {
				c = ks.next(c, d.At(rows[0], j))
			}
			pr.sim[p][hh] = c
		}
	}
	return pr
}

// result is the outcome of the swapping: the partner of every household (−1 if not
// swapped) and counts for the release's Info.
type result struct {
	partner  []int
	level    []int // the level at which a swapped household's pair was swapped, −1 if none
	perLevel []int // swaps made at each level
	noDonor  int   // households to swap for which no donor was found
	mustSwap int   // households that must be swapped (k-anonymity rule), skipped ones not counted
}

// swap runs sdcMicro's recordSwap on pr (docs/recordswap.md): levels from the highest to
// the lowest; at each level above the lowest, area by area, the households that must be
// swapped across that level; at the lowest, the must-swap households and a weighted sample
// of others that brings the area to its share of the swaps. Each gets the first donor, in
// a random order weighted by risk at the level, that is not yet swapped, lies in another
// area of the level and matches the first similarity profile that any donor matches.
func (pr *problem) swap(ctx context.Context, swaprate float64, rng *rand.Rand) (*result, error) {
	L := pr.levels
	res := &result{partner: make([]int, pr.n), level: make([]int, pr.n), perLevel: make([]int, L)}
	for i := range res.partner {
		res.partner[i], res.level[i] = -1, -1
	}

	// Donor order: per level, households by decreasing risk/Exp(1), an ordering that is a
	// sample without replacement with probabilities proportional to the risk
	// (Efraimidis and Spirakis 2006), drawn once as in sdcMicro.
	prio := make([][]float64, L)
	for h := range prio {
		prio[h] = make([]float64, pr.n)
	}
	for hh := 0; hh < pr.n; hh++ {
		for h := 0; h < L; h++ {
			prio[h][hh] = pr.risk[h][hh] / rng.ExpFloat64()
		}
	}
	donors := make([]donorIndex, L)
	for h := range donors {
		donors[h] = newDonorIndex(pr, prio[h])
	}

	for hh, m := range pr.must {
		if m < L && pr.area[0][hh] >= 0 {
			res.mustSwap++
		}
	}
	target := pr.targets(swaprate, rng)
	used := make([]bool, pr.n)
	failed := make([]bool, pr.n)
	initiators := make([]int, len(pr.members[L-1])) // swaps started in each lowest area

	for h := 0; h < L; h++ {
		// The pools are fixed at the start of the level, as in sdcMicro.
		donors[h].count(pr, h, used)
		pools := make([][]int, len(pr.members[h]))
		for a, m := range pr.members[h] {
			for _, hh := range m {
				if !used[hh] && !failed[hh] {
					pools[a] = append(pools[a], hh)
				}
			}
		}
		for a, pool := range pools {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			var swap []int
			for _, hh := range pool {
				if !used[hh] && pr.must[hh] == h {
					swap = append(swap, hh)
				}
			}
			if h == L-1 {
				swap = pr.sample(swap, pool, target[a]-initiators[a], used, rng)
			}
			for _, hh := range swap {
				dn := donors[h].find(pr, hh, h, used)
				if dn < 0 {
					failed[hh] = true
					res.noDonor++
					continue
				}
				used[hh], used[dn] = true, true
				donors[h].remove(pr, h, hh)
				donors[h].remove(pr, h, dn)
				res.partner[hh], res.partner[dn] = dn, hh
				res.level[hh], res.level[dn] = h, h
				res.perLevel[h]++
				initiators[pr.area[L-1][hh]]++
			}
		}
	}
	return res, nil
}

// targets returns the number of swaps of each lowest area: round(n·swaprate/2) swaps in all
// (rounded up or down with probability ½ each), shared in proportion to the areas' numbers of
// households, the remainders given one each to randomly chosen areas (sdcMicro's
// distributeDraws).
func (pr *problem) targets(swaprate float64, rng *rand.Rand) []int {
	lowest := pr.members[pr.levels-1]
	nhid := 0
	for _, m := range lowest {
		nhid += len(m)
	}
	out := make([]int, len(lowest))
	if nhid == 0 {
		return out
	}
	half := float64(nhid) * swaprate / 2
	total := math.Floor(half)
	if rng.IntN(2) == 0 {
		total = math.Ceil(half)
	}
	excess := 0.0
	for a, m := range lowest {
		x := float64(len(m)) / float64(nhid) * total
		out[a] = int(x)
		excess += x - math.Floor(x)
	}
	extra := min(int(math.Round(excess)), len(lowest)) // an integer below len(lowest) but for rounding
	for _, a := range rng.Perm(len(lowest))[:extra] {
		out[a]++
	}
	return out
}

// sample returns must followed by a sample of want − len(must) further unused households of
// pool, drawn without replacement with probability proportional to their risk at the lowest
// level (the largest risk/Exp(1), Efraimidis and Spirakis 2006), in decreasing key order.
func (pr *problem) sample(must, pool []int, want int, used []bool, rng *rand.Rand) []int {
	if want-len(must) <= 0 {
		return must
	}
	type cand struct {
		key float64
		hh  int
	}
	var cs []cand
	risk := pr.risk[pr.levels-1]
	for _, hh := range pool {
		if !used[hh] && pr.must[hh] != pr.levels-1 {
			cs = append(cs, cand{risk[hh] / rng.ExpFloat64(), hh})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if c := compareFloat(b.key, a.key); c != 0 {
			return c
		}
		return a.hh - b.hh
	})
	out := must
	for _, c := range cs[:min(len(cs), want-len(must))] {
		out = append(out, c.hh)
	}
	return out
}

// donorIndex holds one level's donors in priority order, split by similarity class, so that
// a donor search reads only the households of the right class. The counts of unused
// households per class and per (class, area of the level) tell in constant time that a class
// has no donor outside an area, so that a household without a donor does not read its whole
// class.
type donorIndex struct {
	byClass []map[int]*donorList // per similarity profile
	left    []map[int]int        // per profile: unused households of each class
	leftIn  []map[[2]int]int     // per profile: unused households of each (class, area)
}

// donorList is a class's households by decreasing priority; the ones before next are all
// used (a used household stays used).
type donorList struct {
	hh   []int
	next int
}

func newDonorIndex(pr *problem, prio []float64) donorIndex {
	order := make([]int, 0, pr.n)
	for hh := 0; hh < pr.n; hh++ {
		if pr.area[0][hh] >= 0 {
			order = append(order, hh)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := compareFloat(prio[b], prio[a]); c != 0 {
			return c
		}
		return a - b
	})
	idx := donorIndex{byClass: make([]map[int]*donorList, len(pr.sim))}
	for p, sim := range pr.sim {
		m := map[int]*donorList{}
		for _, hh := range order {
			l := m[sim[hh]]
			if l == nil {
				l = &donorList{}
				m[sim[hh]] = l
			}
			l.hh = append(l.hh, hh)
		}
		idx.byClass[p] = m
	}
	return idx
}

// count sets the unused counts for a search at level h.
func (idx *donorIndex) count(pr *problem, h int, used []bool) {
	idx.left = make([]map[int]int, len(pr.sim))
	idx.leftIn = make([]map[[2]int]int, len(pr.sim))
	for p, sim := range pr.sim {
		idx.left[p], idx.leftIn[p] = map[int]int{}, map[[2]int]int{}
		for hh, a := range pr.area[h] {
			if a >= 0 && !used[hh] {
				idx.left[p][sim[hh]]++
				idx.leftIn[p][[2]int{sim[hh], a}]++
			}
		}
	}
}

// remove counts household hh, at level h, as used.
func (idx *donorIndex) remove(pr *problem, h, hh int) {
	for p, sim := range pr.sim {
		idx.left[p][sim[hh]]--
		idx.leftIn[p][[2]int{sim[hh], pr.area[h][hh]}]--
	}
}

// find returns the first household, in priority order, that is unused, lies outside hh's
// area at level h and has hh's class under the first similarity profile for which there is
// one; −1 if no profile has one.
func (idx *donorIndex) find(pr *problem, hh, h int, used []bool) int {
	home := pr.area[h][hh]
	for p, m := range idx.byClass {
		c := pr.sim[p][hh]
		if idx.left[p][c]-idx.leftIn[p][[2]int{c, home}] == 0 {
			continue // every unused household of the class lives in hh's area
		}
		l := m[c]
		for l.next < len(l.hh) && used[l.hh[l.next]] {
			l.next++
		}
		for _, dn := range l.hh[l.next:] {
			if !used[dn] && pr.area[h][dn] != home {
				return dn
			}
		}
	}
	return -1
}
