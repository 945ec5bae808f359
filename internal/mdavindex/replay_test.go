package mdavindex

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/sdcbench/sdcbench/internal/mdavindex/mdavtest"
)

// nearestRef is Tree.Nearest as it was before the prefetches (session 10): the reference of TestNearestMatchesRef and BenchmarkKNNReplay.
func (t *Tree) nearestRef(qs *Query, dst []int, q []float64, k int) []int {
	qs.heap.reset(k)
	t.prepare(qs, q)
	if len(qs.off) != t.d {
		qs.off = make([]float64, t.d)
		qs.prm = make([]float32, 3*t.d)
	}
	clear(qs.off)
	if len(t.nodes) > 0 && t.cnt[0] > 0 {
		t.knnRef(qs, 0, 0)
	}
	return qs.heap.sorted(dst)
}

func (t *Tree) knnRef(qs *Query, v int32, rd float64) {
	nd := &t.nodes[v]
	h := &qs.heap
	if nd.left < 0 {
		if len(h.d) == h.k && t.bound(v, qs.q, h.d[0]) > h.d[0] {
			return
		}
		if len(h.d) == h.k && nd.coded {
			if tq, ok := quantThreshold(h.d[0]); ok && t.knnCodedRef(qs, v, tq) {
				return
			}
		}
		dist, dead, lo := t.leafDists(qs, nd)
		w := h.worst()
		for u, s := range dist {
			if s <= w && !dead[u] {
				h.push(s, int(t.rec[lo+u]))
				w = h.worst()
			}
		}
		return
	}
	near, far := nd.left, nd.right
	diff := qs.q[nd.dim] - nd.val
	if diff >= 0 {
		near, far = far, near
	}
	if t.cnt[near] > 0 {
		t.knnRef(qs, near, rd)
	}
	if t.cnt[far] == 0 {
		return
	}
	gap := math.Abs(diff)
	old := qs.off[nd.dim]
	rf := rd
	if gap > old {
		rf = rd - float64(old*old) + float64(gap*gap)
	}
	if len(h.d) == h.k && rf*(1-cellMargin) > h.d[0] {
		return
	}
	qs.off[nd.dim] = max(gap, old)
	t.knnRef(qs, far, rf)
	qs.off[nd.dim] = old
}

// knnCodedRef is Tree.knnCoded without the prefetch of the codes.
func (t *Tree) knnCodedRef(qs *Query, v int32, tq float32) bool {
	d := t.d
	nd := &t.nodes[v]
	lo, hi := int(nd.start), int(nd.end)
	o := int(nd.off)
	b := t.slab[o : o+4*d+(hi-lo)/quantGroup*d]
	quantParams(qs.prm, qs.q, b[:d], b[2*d:3*d], b[3*d:4*d])
	mask := quantMask(b[4*d:], qs.prm, d, (hi-lo)/quantGroup, tq)
	if bits.OnesCount64(mask) > (hi-lo)/4 {
		return false
	}
	h := &qs.heap
	for mask != 0 {
		p := lo + bits.TrailingZeros64(mask)
		mask &= mask - 1
		if t.dead[p] {
			continue
		}
		if s := t.rowDist(p, qs.q); s <= h.d[0] {
			h.push(s, int(t.rec[p]))
		}
	}
	return true
}

// replay runs MDAV's queries (k = 3) on an index of the n×d table z, the centroid kept as a
// running sum (the index's answers, not MDAV's centroid, are under test): r farthest from
// the centroid, its k nearest, s farthest from r, its k nearest. nearest answers the k-NN
// queries; step is called after each query pair with the step number.
func replay(x *Index, z []float64, n, d, k int, nearest func(i int) []int, step func(int)) {
	sum := make([]float64, d)
	for i := 0; i < n; i++ {
		for j := range sum {
			sum[j] += z[i*d+j]
		}
	}
	c := make([]float64, d)
	del := func(g []int) {
		for _, i := range g {
			for j := range sum {
				sum[j] -= z[i*d+j]
			}
			x.Delete(i)
		}
	}
	for it := 0; x.Alive() >= 3*k; it++ {
		for j := range c {
			c[j] = sum[j] / float64(x.Alive())
		}
		r := x.Farthest(c)
		del(slices.Clone(nearest(r)))
		s := x.FarthestFrom(z[r*d : (r+1)*d])
		del(slices.Clone(nearest(s)))
		step(it)
	}
}

// TestNearestMatchesRef replays MDAV's queries with the tree's k-NN search and its reference
// (nearestRef) side by side, with the codes forced on and off, on every test table.
func TestNearestMatchesRef(t *testing.T) {
	const n, d, k = 6000, 5, 3
	for name, z := range mdavtest.IndexTables(n, d, 3) {
		for _, coded := range []int{1, math.MaxInt} {
			x := New(z, n, d, Options{TreeRebuildMin: 64, CodedMinRows: coded})
			var qs Query
			var ref []int
			replay(x, z, n, d, k, func(i int) []int {
				got := x.Nearest(i, k)
				ref = x.tree.nearestRef(&qs, ref[:0], z[i*d:(i+1)*d], k)
				if !slices.Equal(got, ref) {
					t.Fatalf("%s, coded from %d: Nearest(%d) = %v, reference %v", name, coded, i, got, ref)
				}
				return got
			}, func(int) {})
		}
	}
}

// BenchmarkKNNReplay times the tree's k-NN search against nearestRef on the same index
// states: MDAV's queries (k = 3) replayed on two identical indexes of an
// SDCBENCH_REPLAY_N × 10 normal table (default 100,000). Each k-NN query runs once with each
// search, on alternate indexes and in alternate order, so neither gains from the caches. It
// reports the time per query of each and their ratio; the answers must agree.
func BenchmarkKNNReplay(b *testing.B) {
	n, d, k := 100_000, 10, 3
	if s := os.Getenv("SDCBENCH_REPLAY_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	z := make([]float64, n*d)
	for i := range z {
		z[i] = r.NormFloat64()
	}
	for b.Loop() {
		x := [2]*Index{New(z, n, d, Options{}), New(z, n, d, Options{})}
		var qs Query
		var tNew, tRef time.Duration
		var nq, nClean int
		var logSum float64 // of the per-query ratios within a factor 2 (the others were preempted)
		var gNew, gRef []int
		nearest := func(i int) []int {
			q := z[i*d : (i+1)*d]
			a := nq & 1           // the index of the new search
			newFirst := nq&2 == 0 // the order
			var dNew, dRef time.Duration
			for pass := 0; pass < 2; pass++ {
				if (pass == 0) == newFirst {
					t0 := time.Now()
					gNew = x[a].Tree().Nearest(&qs, gNew[:0], q, k)
					dNew = time.Since(t0)
				} else {
					t0 := time.Now()
					gRef = x[1-a].Tree().nearestRef(&qs, gRef[:0], q, k)
					dRef = time.Since(t0)
				}
			}
			tNew, tRef = tNew+dNew, tRef+dRef
			if l := math.Log(float64(dNew) / float64(dRef)); math.Abs(l) < math.Ln2 {
				logSum += l
				nClean++
			}
			nq++
			if !slices.Equal(gNew, gRef) {
				b.Fatalf("Nearest(%d) = %v, reference %v", i, gNew, gRef)
			}
			for _, u := range gNew {
				x[1].Delete(u) // x[0]'s deletions are replay's
			}
			return gNew
		}
		replay(x[0], z, n, d, k, nearest, func(int) {})
		b.ReportMetric(float64(tNew.Nanoseconds())/float64(nq), "new-ns/query")
		b.ReportMetric(float64(tRef.Nanoseconds())/float64(nq), "ref-ns/query")
		b.ReportMetric(float64(tNew)/float64(tRef), "new/ref")
		b.ReportMetric(math.Exp(logSum/float64(nClean)), "geomean-new/ref")
	}
}
