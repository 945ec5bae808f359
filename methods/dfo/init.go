package dfo

import (
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/internal/distance"
)

// WarmStart returns the initial partition with G groups built from the incumbent inc by
// merges or splits (docs/dfo.md, `init: warm`), then Repair(·, k). inc is not
// modified.
//
// Merging: while there are more than G groups, merge the pair (a, b) that minimizes Ward's
// cost n_a·n_b/(n_a+n_b)·‖c_a − c_b‖² (ties: lowest (a, b)) into a; each group caches its
// nearest Ward partner, which is recomputed only for the merged group and for the groups
// whose partner was a or b, so a merge costs O(G·D) plus the rescans. The groups are
// relabelled compactly in order of first occurrence after the last merge (relabelling after
// each merge instead could change only exact ties).
//
// Splitting: while there are fewer than G groups, split the group with the largest SSE among
// those with ≥ 2k records (none: ≥ 2 records; ties: lowest id) by two-means seeded with its
// member u farthest from the centroid and the member v farthest from u (ties go to u; at most
// 10 Lloyd passes); the second half becomes group G_cur. A split costs O(N·D).
func (l *Local) WarmStart(inc *Partition, G, k int) (*Partition, error) {
	p := inc.Clone()
	p.Recompute()
	switch {
	case p.G() > G:
		p = merge(p, G)
	case p.G() < G:
		split(p, G, k)
	}
	if _, err := l.Repair(p, k); err != nil {
		return nil, err
	}
	return p, nil
}

// ward returns Ward's merge cost of groups a and b.
func ward(p *Partition, a, b int) float64 {
	na, nb := float64(p.Size[a]), float64(p.Size[b])
	return na * nb / (na + nb) * distance.Sq(p.Centroid(a), p.Centroid(b))
}

// merge merges groups of p down to G by Ward's criterion and returns the relabelled partition.
func merge(p *Partition, G int) *Partition {
	G0 := p.G()
	alive := make([]bool, G0)
	partner := make([]int, G0)
	pcost := make([]float64, G0)
	for g := range alive {
		alive[g] = p.Size[g] > 0
	}
	find := func(g int) {
		best, bb := math.Inf(1), -1
		for b := 0; b < G0; b++ {
			if b == g || !alive[b] {
				continue
			}
			if v := ward(p, g, b); v < best {
				best, bb = v, b
			}
		}
		partner[g], pcost[g] = bb, best
	}
	cur := 0
	for g := range alive {
		if alive[g] {
			cur++
			find(g)
		}
	}
	for cur > G {
		a, b, best := -1, -1, math.Inf(1)
		for g := 0; g < G0; g++ {
			if !alive[g] || partner[g] < 0 {
				continue
			}
			x, y := min(g, partner[g]), max(g, partner[g])
			if v := pcost[g]; v < best || (v == best && (x < a || (x == a && y < b))) {
				a, b, best = x, y, v
			}
		}
		// merge b into a
		for i, lab := range p.Labels {
			if int(lab) == b {
				p.Labels[i] = int32(a)
			}
		}
		d := p.D
		sa, sb := p.Sum[a*d:(a+1)*d], p.Sum[b*d:(b+1)*d]
		for j := range sa {
			sa[j] += sb[j]
		}
		clear(sb)
		p.Size[a] += p.Size[b]
		p.Size[b] = 0
		p.centroid(a)
		p.centroid(b)
		alive[b] = false
		cur--
		for g := 0; g < G0; g++ {
			if !alive[g] {
				continue
			}
			if g == a || partner[g] == a || partner[g] == b {
				find(g)
				continue
			}
			if v := ward(p, g, a); v < pcost[g] || (v == pcost[g] && a < partner[g]) {
				partner[g], pcost[g] = a, v
			}
		}
	}
	labels := canonical(p.Labels)
	return NewPartition(p.Z, p.N, p.D, labels, cur)
}

// split splits groups of p (in place) until it has G groups.
func split(p *Partition, G, k int) {
	d := p.D
	sse := p.GroupSSE(nil)
	var members []int
	for p.G() < G {
		g := -1
		for _, lim := range [2]int{2 * k, 2} {
			for h := range p.Size {
				if p.Size[h] >= lim && (g < 0 || sse[h] > sse[g]) {
					g = h
				}
			}
			if g >= 0 {
				break
			}
		}
		if g < 0 {
			panic("dfo: split: no group with 2 records (G > n?)")
		}
		members = members[:0]
		for i, lab := range p.Labels {
			if int(lab) == g {
				members = append(members, i)
			}
		}
		u := farthest(p, members, p.Centroid(g))
		v := farthest(p, members, p.Row(u))
		cu := append([]float64(nil), p.Row(u)...)
		cv := append([]float64(nil), p.Row(v)...)
		side := make([]bool, len(members)) // true: goes with v
		for pass := 0; pass < 10; pass++ {
			changed := false
			for t, i := range members {
				if s := distance.Sq(p.Row(i), cv) < distance.Sq(p.Row(i), cu); s != side[t] {
					side[t], changed = s, true
				}
			}
			if !changed {
				break
			}
			meanOf(p, members, side, false, cu)
			meanOf(p, members, side, true, cv)
		}
		ng := p.G()
		p.Size = append(p.Size, 0)
		p.Sum = append(p.Sum, make([]float64, d)...)
		p.Cent = append(p.Cent, make([]float64, d)...)
		sse = append(sse, 0)
		for t, i := range members {
			if side[t] {
				p.Move(i, ng)
			}
		}
		sse[g], sse[ng] = 0, 0
		for _, i := range members {
			lab := int(p.Labels[i])
			sse[lab] += distance.Sq(p.Row(i), p.Centroid(lab))
		}
	}
}

// farthest returns the member farthest from q (ties: lowest index; members ascending).
func farthest(p *Partition, members []int, q []float64) int {
	best, bi := -1.0, members[0]
	for _, i := range members {
		if v := distance.Sq(p.Row(i), q); v > best {
			best, bi = v, i
		}
	}
	return bi
}

// meanOf sets dst to the mean of the members on the given side (unchanged if none).
func meanOf(p *Partition, members []int, side []bool, which bool, dst []float64) {
	cnt := 0
	for t := range members {
		if side[t] == which {
			cnt++
		}
	}
	if cnt == 0 {
		return
	}
	clear(dst)
	for t, i := range members {
		if side[t] == which {
			for j, v := range p.Row(i) {
				dst[j] += v
			}
		}
	}
	for j := range dst {
		dst[j] /= float64(cnt)
	}
}

// KMeansPP returns the labels of k-means++ initialization with G groups (`init: kmeanspp`):
// D² seeding of G centres from the rows of z drawn with rng (the first uniformly), then every
// record is assigned to its nearest centre (ties: lowest id). Groups may be empty or below
// the minimum size; pass the result through Repair. Cost O(N·G·D).
func KMeansPP(z []float64, n, d, G int, rng *rand.Rand) []int32 {
	row := func(i int) []float64 { return z[i*d : (i+1)*d] }
	centres := make([]int, 0, G)
	dmin := make([]float64, n)
	for i := range dmin {
		dmin[i] = math.Inf(1)
	}
	c := rng.IntN(n)
	for len(centres) < G {
		centres = append(centres, c)
		var total float64
		for i := range dmin {
			dmin[i] = min(dmin[i], distance.Sq(row(i), row(c)))
			total += dmin[i]
		}
		if len(centres) == G {
			break
		}
		if total <= 0 {
			c = rng.IntN(n)
			continue
		}
		r := rng.Float64() * total
		c = n - 1
		for i, v := range dmin {
			if r < v {
				c = i
				break
			}
			r -= v
		}
	}
	labels := make([]int32, n)
	for i := range labels {
		best, bb := math.Inf(1), 0
		for g, ci := range centres {
			if v := distance.SqBound(row(i), row(ci), best); v < best {
				best, bb = v, g
			}
		}
		labels[i] = int32(bb)
	}
	return labels
}

// RandomStart returns random labels with G groups of sizes ⌊n/G⌋ or ⌈n/G⌉ (`init: random`,
// the paper's experiment-1 style): a random permutation drawn with rng, labelled round-robin.
// It is feasible for minimum size k whenever G ≤ ⌊n/k⌋.
func RandomStart(n, G int, rng *rand.Rand) []int32 {
	labels := make([]int32, n)
	for t, i := range rng.Perm(n) {
		labels[i] = int32(t % G)
	}
	return labels
}

// canonical returns labels renumbered in order of first occurrence.
func canonical(labels []int32) []int32 {
	m := map[int32]int32{}
	out := make([]int32, len(labels))
	for i, l := range labels {
		v, ok := m[l]
		if !ok {
			v = int32(len(m))
			m[l] = v
		}
		out[i] = v
	}
	return out
}
