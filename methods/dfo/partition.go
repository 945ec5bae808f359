package dfo

import (
	"fmt"
	"math"

	"github.com/sdcbench/sdcbench/internal/distance"
)

// Partition is a partition of the N rows of the row-major N×D table Z into G groups labelled
// 0..G−1. It keeps each group's size, coordinate sum and centroid consistent with Labels
// under Move, so that the cost of relocating one record can be evaluated in O(D)
// (the relocation formula of docs/dfo.md). A group may be empty (size 0); its
// centroid is then undefined (zero). Z is shared and never modified.
type Partition struct {
	Z      []float64
	N, D   int
	Labels []int32
	Size   []int
	Sum    []float64 // Sum[g*D:(g+1)*D] = Σ_{i∈g} z_i
	Cent   []float64 // Cent[g*D:(g+1)*D] = Sum_g/Size_g for non-empty g
}

// NewPartition returns the partition of z (n×d) given by labels (values in 0..G−1, copied).
// It panics if len(z) != n·d, len(labels) != n or a label is out of range.
// Cost O(n·d).
func NewPartition(z []float64, n, d int, labels []int32, G int) *Partition {
	if len(z) != n*d || len(labels) != n || G < 1 {
		panic(fmt.Sprintf("dfo: NewPartition: bad shape (len(z)=%d, n=%d, d=%d, len(labels)=%d, G=%d)",
			len(z), n, d, len(labels), G))
	}
	p := &Partition{Z: z, N: n, D: d, Labels: append([]int32(nil), labels...),
		Size: make([]int, G), Sum: make([]float64, G*d), Cent: make([]float64, G*d)}
	for _, l := range labels {
		if l < 0 || int(l) >= G {
			panic(fmt.Sprintf("dfo: NewPartition: label %d outside 0..%d", l, G-1))
		}
	}
	p.Recompute()
	return p
}

// G returns the number of groups, empty ones included.
func (p *Partition) G() int { return len(p.Size) }

// Row returns record i of Z.
func (p *Partition) Row(i int) []float64 { return p.Z[i*p.D : (i+1)*p.D : (i+1)*p.D] }

// Centroid returns the centroid of group g (a view, not a copy).
func (p *Partition) Centroid(g int) []float64 { return p.Cent[g*p.D : (g+1)*p.D : (g+1)*p.D] }

// Recompute rebuilds sizes, sums and centroids from Labels, summing in ascending record
// order. The local searches call it on entry, so rounding drift from Move never accumulates
// across calls. Cost O(N·D).
func (p *Partition) Recompute() {
	clear(p.Size)
	clear(p.Sum)
	d := p.D
	for i, l := range p.Labels {
		p.Size[l]++
		s := p.Sum[int(l)*d : (int(l)+1)*d]
		for j, v := range p.Row(i) {
			s[j] += v
		}
	}
	for g := range p.Size {
		p.centroid(g)
	}
}

// centroid sets Cent_g = Sum_g/Size_g (zero for an empty group).
func (p *Partition) centroid(g int) {
	d := p.D
	c, s := p.Cent[g*d:(g+1)*d], p.Sum[g*d:(g+1)*d]
	if p.Size[g] == 0 {
		clear(c)
		return
	}
	inv := float64(p.Size[g])
	for j := range c {
		c[j] = s[j] / inv
	}
}

// Move relocates record i to group b, updating both groups' sizes, sums and centroids in
// O(D). Moving a record to its own group does nothing.
func (p *Partition) Move(i, b int) {
	a := int(p.Labels[i])
	if a == b {
		return
	}
	d := p.D
	x := p.Row(i)
	sa, sb := p.Sum[a*d:(a+1)*d], p.Sum[b*d:(b+1)*d]
	for j, v := range x {
		sa[j] -= v
		sb[j] += v
	}
	p.Size[a]--
	p.Size[b]++
	p.Labels[i] = int32(b)
	p.centroid(a)
	p.centroid(b)
}

// AddCost returns the SSE increase n_B/(n_B+1)·‖x_i − c_B‖² of adding record i to group b
// (0 for an empty b). O(D).
func (p *Partition) AddCost(i, b int) float64 {
	nb := p.Size[b]
	if nb == 0 {
		return 0
	}
	return float64(nb) / float64(nb+1) * distance.Sq(p.Row(i), p.Centroid(b))
}

// RemoveSaving returns the SSE decrease n_A/(n_A−1)·‖x_i − c_A‖² of removing record i from
// its group A, or +Inf if A is a singleton. O(D).
func (p *Partition) RemoveSaving(i int) float64 {
	a := int(p.Labels[i])
	na := p.Size[a]
	if na <= 1 {
		return math.Inf(1)
	}
	return float64(na) / float64(na-1) * distance.Sq(p.Row(i), p.Centroid(a))
}

// MoveCost returns the SSE change of moving record i from its group A to group b ≠ A
// (docs/dfo.md):
//
//	Δ(i, A→B) = n_B/(n_B+1)·‖x_i − c_B‖² − n_A/(n_A−1)·‖x_i − c_A‖²,
//
// where the first term is 0 for an empty B. O(D). A singleton A gives −Inf.
func (p *Partition) MoveCost(i, b int) float64 {
	return p.AddCost(i, b) - p.RemoveSaving(i)
}

// SSE returns Σ_g Σ_{i∈g} ‖z_i − c_g‖², with freshly recomputed centroids (the two-pass form).
// It does not modify p. Cost O(N·D) plus O(G·D) scratch.
func (p *Partition) SSE() float64 {
	q := p.Clone()
	q.Recompute()
	var s float64
	for i, l := range q.Labels {
		s += distance.Sq(q.Row(i), q.Centroid(int(l)))
	}
	return s
}

// GroupSSE returns the within-group sum of squares of every group, in dst (reused when
// it has length G) from the current centroids. O(N·D).
func (p *Partition) GroupSSE(dst []float64) []float64 {
	if len(dst) != p.G() {
		dst = make([]float64, p.G())
	}
	clear(dst)
	for i, l := range p.Labels {
		dst[l] += distance.Sq(p.Row(i), p.Centroid(int(l)))
	}
	return dst
}

// Clone returns a deep copy sharing only Z.
func (p *Partition) Clone() *Partition {
	return &Partition{Z: p.Z, N: p.N, D: p.D,
		Labels: append([]int32(nil), p.Labels...),
		Size:   append([]int(nil), p.Size...),
		Sum:    append([]float64(nil), p.Sum...),
		Cent:   append([]float64(nil), p.Cent...)}
}

// MinSize returns the size of the smallest group (0 if some group is empty).
func (p *Partition) MinSize() int {
	m := math.MaxInt
	for _, s := range p.Size {
		m = min(m, s)
	}
	return m
}

// MaxSize returns the size of the largest group.
func (p *Partition) MaxSize() int {
	m := 0
	for _, s := range p.Size {
		m = max(m, s)
	}
	return m
}

// Feasible reports whether every group has at least k records (eqs. 1–4 of the paper).
func (p *Partition) Feasible(k int) bool { return p.MinSize() >= k }
