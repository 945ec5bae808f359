package magga

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// Generator names the three ways of building a new individual (spec §4).
type Generator int

// Generators of new individuals.
const (
	GenTSP Generator = iota // cut of the farthest-insertion tour, random sizes (§4.1)
	GenD1                   // Decoder 1: integer-programming sizes, random membership (§4.2)
	GenD2                   // Decoder 2: iterative sizes, random membership (§4.3)
)

var generatorNames = []string{"tsp", "d1", "d2"}

func (g Generator) String() string { return generatorNames[g] }

// Tour is the farthest-insertion tour of a run with the cumulative lengths of its edges:
// Cum[t] = e_0 + … + e_t, e_t = ‖z_tour[t] − z_tour[(t+1) mod n]‖ (spec §4.1).
type Tour struct {
	Order []int
	Cum   []float64
}

// NewTour returns the tour with edge sums for the given order and edge lengths.
func NewTour(order []int, edges []float64) *Tour {
	cum := make([]float64, len(edges))
	var s float64
	for t, e := range edges {
		s += e
		cum[t] = s
	}
	return &Tour{Order: order, Cum: cum}
}

// Cut draws the edge to remove with P(t) ∝ e_t: U = rng.Float64()·E_{n−1} and t the smallest
// index with Cum[t] > U; if the tour has length 0, t = rng.IntN(n).
func (tr *Tour) Cut(rng *rand.Rand) int {
	n := len(tr.Cum)
	total := tr.Cum[n-1]
	if !(total > 0) {
		return rng.IntN(n)
	}
	u := rng.Float64() * total
	t := sort.Search(n, func(t int) bool { return tr.Cum[t] > u })
	return min(t, n-1)
}

// Sizes appends to dst random group sizes for n records (spec §4.1): while more than 2k−1
// records remain, a size uniform on [k, min(2k−1, r−k)] is drawn; the remainder, always in
// [k, 2k−1], is the last size. n ≤ 2k−1 gives the single size n.
func Sizes(dst []int, n, k int, rng *rand.Rand) []int {
	r := n
	for r > 2*k-1 {
		s := k + rng.IntN(min(2*k-1, r-k)-k+1)
		dst = append(dst, s)
		r -= s
	}
	return append(dst, r)
}

// PathLabels writes into labels (len n) the labels of consecutive segments of the path
// order[t+1], …, order[n−1], order[0], …, order[t] with the given sizes.
func PathLabels(labels []int32, order []int, t int, sizes []int) {
	n := len(order)
	pos, g, left := (t+1)%n, int32(0), sizes[0]
	for range n {
		if left == 0 {
			g++
			left = sizes[g]
		}
		labels[order[pos]] = g
		left--
		pos++
		if pos == n {
			pos = 0
		}
	}
}

// TSPIndividual writes a TSP individual into labels (spec §4.1): the tour is cut at a random
// edge (Tour.Cut) and the path split into random feasible sizes (Sizes). sizes is scratch;
// the grown slice is returned. Every TSP individual is feasible.
func TSPIndividual(labels []int32, tr *Tour, k int, sizes []int, rng *rand.Rand) []int {
	t := tr.Cut(rng)
	sizes = Sizes(sizes[:0], len(tr.Order), k, rng)
	PathLabels(labels, tr.Order, t, sizes)
	return sizes
}

// Keys fills u with u_j = rng.Float64(), j = 0..n−1, in order.
func Keys(u []float64, rng *rand.Rand) {
	for j := range u {
		u[j] = rng.Float64()
	}
}

// decodeScratch is the workspace of the decoders.
type decodeScratch struct {
	perm  []int32
	order []int32
	sizes []int
	w     []int32  // position → label
	bits  []uint64 // radix sort keys and their second buffer
	bits2 []uint64
	perm2 []int32
}

// argsortKeys sets s.perm to the stable ascending argsort of u (ties: lowest index), the
// order of cmp.Compare on (u_j, j). Without NaNs it is a stable LSD radix sort on the
// order-preserving bit pattern of u (−0 read as +0), O(n) per byte that varies; with a NaN it
// falls back to a comparison sort.
func (s *decodeScratch) argsortKeys(u []float64) []int32 {
	n := len(u)
	s.perm = slices.Grow(s.perm[:0], n)[:n]
	for j := range s.perm {
		s.perm[j] = int32(j)
	}
	s.bits = slices.Grow(s.bits[:0], n)[:n]
	for j, x := range u {
		if x != x { // NaN
			slices.SortFunc(s.perm, func(a, b int32) int {
				if c := cmp.Compare(u[a], u[b]); c != 0 {
					return c
				}
				return cmp.Compare(a, b)
			})
			return s.perm
		}
		if x == 0 {
			x = 0 // −0 → +0
		}
		b := math.Float64bits(x)
		if b>>63 != 0 {
			b = ^b
		} else {
			b |= 1 << 63
		}
		s.bits[j] = b
	}
	var hist [8][256]int32
	for _, b := range s.bits {
		for p := range 8 {
			hist[p][byte(b>>(8*p))]++
		}
	}
	s.bits2 = slices.Grow(s.bits2[:0], n)[:n]
	s.perm2 = slices.Grow(s.perm2[:0], n)[:n]
	src, dst := s.bits, s.bits2
	ps, pd := s.perm, s.perm2
	for p := range 8 {
		h := &hist[p]
		if n == 0 || h[byte(src[0]>>(8*p))] == int32(n) {
			continue // every key has this byte
		}
		var sum int32
		for c := range h {
			h[c], sum = sum, sum+h[c]
		}
		for j, b := range src {
			c := byte(b >> (8 * p))
			dst[h[c]], pd[h[c]] = b, ps[j]
			h[c]++
		}
		src, dst, ps, pd = dst, src, pd, ps
	}
	s.bits, s.bits2, s.perm, s.perm2 = src, dst, ps, pd
	return s.perm
}

// assign sets labels[j] = w[π[j]], where w = [0 × sizes_0, 1 × sizes_1, …] and π is the
// stable argsort of u: the label mapping that reproduces the seed's example (spec §4.2).
func (s *decodeScratch) assign(labels []int32, u []float64, sizes []int) {
	pi := s.argsortKeys(u)
	w := s.w[:0]
	for g, sz := range sizes {
		for range sz {
			w = append(w, int32(g))
		}
	}
	s.w = w
	for j, p := range pi {
		labels[j] = w[p]
	}
}

// Decode1 writes into labels the Decoder 1 individual of the keys u (spec §4.2, seed
// L1692-1747): G = Gmin + argmin_{s<t} u_s with t = Gmax − Gmin + 1, sizes from the greedy
// exact solution of min Σ_i u_i·x_i s.t. k ≤ x_i ≤ 2k−1, Σ x_i = n, then labels[j] = w[π[j]].
// It needs n ≥ 2k. Cost O(n log n).
func Decode1(labels []int32, u []float64, k int, s *decodeScratch) {
	n := len(u)
	gmin, gmax := (n+2*k-2)/(2*k-1), n/k
	t := gmax - gmin + 1
	j := 0
	for i := 1; i < t; i++ {
		if u[i] < u[j] {
			j = i
		}
	}
	G := gmin + j
	sizes := s.sizes[:0]
	for range G {
		sizes = append(sizes, k)
	}
	// visit groups in ascending (u_i, i) order and give each up to k−1 extras
	order := s.order[:0]
	for i := range G {
		order = append(order, int32(i))
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(u[a], u[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	R := n - G*k
	for _, i := range order {
		if R == 0 {
			break
		}
		e := min(k-1, R)
		sizes[i] += e
		R -= e
	}
	s.sizes = sizes
	s.assign(labels, u, sizes)
}

// Decode2 writes into labels the Decoder 2 individual of the keys u (spec §4.3, Algorithm 1
// with the first nmax capped at n − k): sizes s = RoundHalfEven(k + u_i·(nmax − k)) while
// nmax ≥ k, nmax = min(nmax, n − allocated − k), the rest as a last group; then labels[j] =
// w[π[j]]. It needs n ≥ 2k. Cost O(n log n).
func Decode2(labels []int32, u []float64, k int, s *decodeScratch) {
	n := len(u)
	sizes := s.sizes[:0]
	if n <= 2*k-1 {
		sizes = append(sizes, n)
	} else {
		nmin, nmax := k, min(2*k-1, n-k)
		alloc := 0
		for i := 0; nmax >= k; i++ {
			sz := int(math.RoundToEven(float64(nmin) + u[i]*float64(nmax-nmin)))
			sizes = append(sizes, sz)
			alloc += sz
			nmax = min(nmax, n-alloc-nmin)
		}
		if alloc < n {
			sizes = append(sizes, n-alloc)
		}
	}
	s.sizes = sizes
	s.assign(labels, u, sizes)
}
