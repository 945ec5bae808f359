package microagg

import (
	"math"
	"slices"

	"github.com/sdcbench/sdcbench/internal/mdavindex"
)

// The working set of MDAV (mdav.go): the live records in a buffer, the block sums of the
// centroid and the SIMD passes of the scan path.

// sumRows is the size of the blocks whose partial sums make up the centroid. A block's sum is
// recomputed from its live rows, in order, whenever one of its rows dies; the centroid is the
// sum of the block sums in block order. This is an exact recomputation (no running sum), and
// it depends only on which rows are alive, never on the number of workers.
const sumRows = 64

// mdavState is MDAV's working set: the active records in a contiguous row buffer, kept in
// ascending record order. Emitted rows are flagged dead and skipped; they are removed (stably,
// in place) once they make up an eighth of the buffer, so passes stream memory forward.
type mdavState struct {
	d, k    int
	m       int       // rows in the buffer, dead ones included
	alive   int       // live rows
	z       []float64 // the table
	act     []int32   // record index of buffer row t
	rows    []float64 // buffer rows in the lane layout of mdavindex.LaneOffset (nil until materialize)
	dead    []bool    // buffer row t was emitted (capacity: whole lane groups, for scanBlock)
	deadPos []int     // dead rows not yet compacted away
	deadIn  [][]int32 // per pass block, its dead rows not yet compacted away (maskDead)
	dirty   []int     // sum blocks that lost a row since the last centroid
	dist    []float64 // squared distance of buffer row t to the current point
	cent    []float64
	pt      []float64 // copy of the current reference point
	qb      []float64 // the reference point broadcast for the kernels (4·d)
	bsum    []float64 // per-sumRows-block column sums, row-major
	bdirty  []bool
	octet   []float64 // scratch of sumOctet
	// per-pass-block results, merged in block order
	blockArg []int
	heaps    []topK
	pool     *pool
	parRows  int       // buffer rows from which forBlocks uses the pool
	pass     int       // what forBlocks runs: passFarthest or passNearest
	blockFn  func(int) // s.block, bound once
	groupBuf []int     // reused result of nearest
	// selectK: nearest selects the k rows from all live distances (selectNearest) instead of
	// merging per-block heaps; set for k ≥ selectMinK on finite tables.
	selectK bool
	selBuf  []float64 // scratch of selectNearest
	candBuf []int     // selectNearest's candidates, ascending positions
	candVal []float64 // and their distances
	scr     []float64 // scanSum's distances (scratch)
	tau     float64   // selectNearest's threshold for the current distTo point
	// selectTau's sample (resample): the rows at the positions that are multiples of
	// 2^smpShift, in the lane layout, and their dead flags; valid while smpOK (until the
	// next compaction)
	smp      []float64
	smpDead  []bool
	smpDist  []float64
	smpShift uint
	smpOK    bool
	cbits    []uint64 // per pass block (bmWords words), its live rows within tau (scanBlock)
	// onCompact, if set, is called after maintain removed dead rows (act changed).
	onCompact func()
	own       bool // z is scratch: materialize may turn it into the lane buffer in place
	// farthestCentroid's bound: per sum block, √ of its largest live distance to pivot, valid
	// while pivotOK (until the next compaction)
	rootC   []float64
	pivot   []float64
	pivotOK bool
	rootNew []float64 // scratch of remapRoots
	deadCnt []int32
}

// newMdavState sets up the working set of the n records; without rows the lane buffer is not
// filled (the indexed MDAV needs it only for its last steps: materialize) and the block sums
// read z.
func newMdavState(z []float64, n, d, k, workers int, rows bool) *mdavState {
	return newMdavStateOwn(z, n, d, k, workers, rows, false)
}

// newMdavStateOwn is newMdavState; with own, z is the caller's scratch, which the lane buffer
// may take over (materialize): z's values are then lost.
func newMdavStateOwn(z []float64, n, d, k, workers int, rows, own bool) *mdavState {
	nb := (n + blockRows - 1) / blockRows
	ns := (n + sumRows - 1) / sumRows
	n4 := (n + 3) &^ 3 // whole lane groups
	s := &mdavState{
		d: d, k: k, m: n, alive: n,
		z:        z,
		act:      make([]int32, n),
		dead:     make([]bool, n, n4),
		dist:     make([]float64, n4),
		qb:       make([]float64, 4*d),
		cent:     make([]float64, d),
		pt:       make([]float64, d),
		bsum:     make([]float64, ns*d),
		bdirty:   make([]bool, ns),
		blockArg: make([]int, nb),
		deadIn:   make([][]int32, nb),
		cbits:    make([]uint64, nb*bmWords),
		parRows:  parallelRows,
		own:      own,
	}
	s.blockFn = s.block
	s.groupBuf = make([]int, 0, k)
	if workers > 1 && n >= parallelRows {
		s.pool = newPool(workers)
	}
	for i := range s.act {
		s.act[i] = int32(i)
	}
	if rows {
		s.materialize()
	}
	s.resum()
	return s
}

func (s *mdavState) close() {
	if s.pool != nil {
		s.pool.close()
	}
}

// kill marks buffer row t dead (emitted): its cells in the lane buffer become −0, the identity
// of the block sums' additions (sumLanes); it is listed for the compaction (deadPos), for the
// passes (deadIn, maskDead) and its sum block for the next centroid.
func (s *mdavState) kill(t int) {
	s.dead[t] = true
	if s.rows != nil {
		for j := range s.d {
			s.rows[mdavindex.LaneOffset(t, j, s.d)] = math.Copysign(0, -1) // the sums' identity (sumLanes)
		}
	}
	s.alive--
	s.deadPos = append(s.deadPos, t)
	if !s.selectK { // the selecting passes read the dead flags (scanBlock)
		s.deadIn[t/blockRows] = append(s.deadIn[t/blockRows], int32(t))
	} else if s.smpOK && t&(1<<s.smpShift-1) == 0 {
		s.smpDead[t>>s.smpShift] = true
	}
	if b := t / sumRows; !s.bdirty[b] {
		s.bdirty[b] = true
		s.dirty = append(s.dirty, b)
	}
}

// forBlocks runs the current pass (s.pass) over every pass block of the m buffer rows:
// serially, or split into contiguous runs of blocks, one per worker. Each block writes only its
// own slots, which are merged in block order afterwards.
func (s *mdavState) forBlocks() {
	nb := (s.m + blockRows - 1) / blockRows
	if s.pool == nil || s.m < s.parRows {
		for b := 0; b < nb; b++ {
			s.block(b)
		}
		return
	}
	s.pool.run(nb, s.blockFn)
}

// pass kinds run by forBlocks.
const (
	passFarthest = iota
	passNearest
)

func (s *mdavState) block(b int) {
	lo, hi := b*blockRows, min((b+1)*blockRows, s.m)
	if s.pass == passFarthest {
		s.farthestBlock(b, lo, hi)
	} else {
		s.nearestBlock(b, lo, hi)
	}
}

// resum recomputes every block sum (after a compaction).
func (s *mdavState) resum() {
	ns := (s.m + sumRows - 1) / sumRows
	b := 0
	if s.rows != nil {
		for ; b+8 <= s.m/sumRows; b += 8 {
			s.sumOctet(b)
		}
	}
	for ; b < ns; b++ {
		s.sumBlock(b)
	}
	s.dirty = s.dirty[:0]
}

// centroid sets s.cent to the mean of the live rows from the block sums, in block order.
func (s *mdavState) centroid() {
	ns := (s.m + sumRows - 1) / sumRows
	if s.rows != nil && 4*len(s.dirty) >= ns {
		// most blocks lost a row (large k): recompute them eight at a time where all are
		// whole (sumOctet); recomputing a block that lost none gives the same bits
		whole := s.m / sumRows
		b := 0
		for ; b+8 <= whole; b += 8 {
			if slices.Contains(s.bdirty[b:b+8], true) {
				s.sumOctet(b)
			}
		}
		for ; b < ns; b++ {
			if s.bdirty[b] {
				s.sumBlock(b)
			}
		}
	} else {
		for _, b := range s.dirty {
			s.sumBlock(b)
		}
	}
	s.dirty = s.dirty[:0]
	d := s.d
	colSums(s.cent, s.bsum[:ns*d], d)
	for j := range s.cent {
		s.cent[j] /= float64(s.alive)
	}
}

// materialize fills the lane buffer with the rows of the m buffer records (dead ones
// included, so the blocks stay as they are, as −0s: kill). Before any row died or moved (act
// the identity) it converts z lane group by lane group (toLaneBuffer), in z's own memory when
// z is scratch (own) and large enough for whole lane groups, which saves a table of fresh
// memory; s.z is then no longer the table.
func (s *mdavState) materialize() {
	d := s.d
	need := ((s.m + 3) &^ 3) * d
	if s.m == len(s.act) && s.alive == s.m && len(s.deadPos) == 0 {
		if s.own && cap(s.z) >= need {
			s.rows = s.z[:need]
			toLaneBuffer(s.rows, s.z[:s.m*d], s.m, d)
			s.z = nil
			return
		}
		s.rows = make([]float64, need)
		toLaneBuffer(s.rows, s.z[:s.m*d], s.m, d)
		return
	}
	s.rows = make([]float64, need)
	negZero := math.Copysign(0, -1)
	for t, i := range s.act[:s.m] {
		for j, v := range s.z[int(i)*d : int(i)*d+d] {
			if s.dead[t] {
				v = negZero
			}
			s.rows[mdavindex.LaneOffset(t, j, d)] = v
		}
	}
}

// toLaneBuffer writes the n rows of the row-major table src (d columns) into dst in the lane
// layout of mdavindex.LaneOffset, the lanes of a last partial group set to +0. dst has
// ⌈n/4⌉·4·d values and may be src itself (a lane group occupies the same 4·d values as its
// four rows): each group is copied out before it is written.
func toLaneBuffer(dst, src []float64, n, d int) {
	tmp := make([]float64, 4*d)
	for g := 0; 4*g < n; g++ {
		r := min(4, n-4*g) // rows in the group
		clear(tmp)
		copy(tmp, src[4*g*d:(4*g+r)*d])
		out := dst[4*g*d : 4*(g+1)*d]
		for j := range d {
			out[4*j] = tmp[j]
			out[4*j+1] = tmp[d+j]
			out[4*j+2] = tmp[2*d+j]
			out[4*j+3] = tmp[3*d+j]
		}
	}
}

// maintain removes the dead rows, stably and in place, once they are an eighth of the buffer.
func (s *mdavState) maintain() {
	if len(s.deadPos) == 0 || 8*len(s.deadPos) < s.m {
		return
	}
	d := s.d
	if s.pivotOK {
		s.remapRoots() // before the rows move
	}
	w := slices.Min(s.deadPos) // the first dead row; the rows before it stay
	if s.rows != nil && useAVX2 {
		w = compactLanesAVX2(&s.rows[0], &s.act[0], &s.dead[0], d, w, s.m)
	} else {
		w = s.compactGo(w)
	}
	s.m = w
	s.smpOK = false
	clear(s.dead[:s.m+len(s.deadPos)])
	s.deadPos = s.deadPos[:0]
	for b := range s.deadIn {
		s.deadIn[b] = s.deadIn[b][:0]
	}
	s.resum()
	if s.onCompact != nil {
		s.onCompact()
	}
}

// distBlock fills s.dist[lo:hi] with the squared distances of buffer rows lo..hi−1 to the
// point in s.qb (lo is a multiple of 4; the lanes past hi in the last group are scratch).
func (s *mdavState) distBlock(lo, hi int) {
	groups := (hi - lo + 3) / 4
	mdavindex.DistLanes(s.dist[lo:lo+4*groups], s.rows[lo*s.d:(lo+4*groups)*s.d], s.qb, s.d, groups)
}

// maskDead sets the distances of the dead rows of pass block b to NaN after distBlock, so that
// the passes need no test of the dead flags: a NaN distance is neither larger than the best
// nor within a threshold, so no dead row is taken, as none was when the flags were tested.
func (s *mdavState) maskDead(b int) {
	nan := math.NaN()
	for _, t := range s.deadIn[b] {
		s.dist[t] = nan
	}
}

// farthestFrom returns the live buffer row farthest from q (lowest index on ties).
func (s *mdavState) farthestFrom(q []float64) int {
	mdavindex.BroadcastQuery(s.qb, q)
	s.pass = passFarthest
	s.forBlocks()
	return s.mergeArg()
}

// farthestBlock is the farthestFrom work of pass block b over buffer rows [lo, hi): the
// fused pass (scanBlock) with no row within its threshold.
func (s *mdavState) farthestBlock(b, lo, hi int) {
	s.scanBlock(b, lo, hi, math.Inf(-1))
}

// mergeArg merges the per-block argmax positions in block order (strict >, so the lowest
// position wins ties).
func (s *mdavState) mergeArg() int {
	nb := (s.m + blockRows - 1) / blockRows
	best, bi := -1.0, -1
	for b := 0; b < nb; b++ {
		t := s.blockArg[b]
		if t < 0 {
			continue
		}
		if v := s.dist[t]; v > best {
			best, bi = v, t
		}
	}
	return bi
}

// distTo fills s.dist with squared distances of the buffer rows to buffer row r and keeps, per
// pass block, the k nearest live rows (with selectK: the live rows within selectNearest's τ)
// and the farthest live row.
func (s *mdavState) distTo(r int) {
	for j := range s.pt {
		s.pt[j] = s.rows[mdavindex.LaneOffset(r, j, s.d)]
	}
	mdavindex.BroadcastQuery(s.qb, s.pt)
	switch {
	case s.selectK:
		s.selectTau()
	case s.heaps == nil:
		nb := (len(s.act) + blockRows - 1) / blockRows
		s.heaps = make([]topK, nb)
		for b := range s.heaps {
			s.heaps[b] = topK{pos: make([]int, 0, s.k), dist: s.dist}
		}
	}
	s.pass = passNearest
	s.forBlocks()
}

// nearestBlock is the distTo work of pass block b over buffer rows [lo, hi).
func (s *mdavState) nearestBlock(b, lo, hi int) {
	if s.selectK {
		s.selectBlock(b, lo, hi)
		return
	}
	h := &s.heaps[b]
	h.reset(s.k)
	s.distBlock(lo, hi)
	s.maskDead(b)
	thr := math.Inf(1) // admit anything until the heap is full
	best, bi := -1.0, -1
	for i, v := range s.dist[lo:hi] {
		// both tests are false for NaN: dead rows (maskDead)
		if v <= thr {
			h.push(lo + i)
			if len(h.pos) == h.k {
				thr = s.dist[h.pos[0]]
			}
		}
		if v > best {
			best, bi = v, lo+i
		}
	}
	s.blockArg[b] = bi
}

// nearest returns the positions of the k active rows nearest to the last distTo point:
// ordered by (distance, position), from the per-block top-k lists merged in block order, or
// with selectK in ascending position (selectNearest).
func (s *mdavState) nearest() []int {
	if s.selectK {
		return s.selectNearest()
	}
	nb := (s.m + blockRows - 1) / blockRows
	all := &s.heaps[0]
	for b := 1; b < nb; b++ {
		for _, t := range s.heaps[b].pos {
			all.push(t)
		}
	}
	s.groupBuf = append(s.groupBuf[:0], all.pos...)
	sortByDist(s.groupBuf, s.dist)
	return s.groupBuf
}

// farthestExcluding returns the active row farthest from the last distTo point among the rows
// not in g (lowest index on ties). The per-block argmax is used unless it falls in g, which
// needs exact distance ties; then the rows are rescanned.
func (s *mdavState) farthestExcluding(g []int) int {
	in := func(t int) bool {
		for _, u := range g {
			if u == t {
				return true
			}
		}
		return false
	}
	if bi := s.mergeArg(); bi >= 0 && !in(bi) {
		return bi
	}
	best, bi := -1.0, -1
	for t := 0; t < s.m; t++ {
		if !s.dead[t] && !in(t) && s.dist[t] > best {
			best, bi = s.dist[t], t
		}
	}
	return bi
}

// topK keeps the k positions with the smallest (dist, position) as a max-heap.
type topK struct {
	k    int
	pos  []int
	dist []float64
}

func (h *topK) reset(k int) { h.k, h.pos = k, h.pos[:0] }

// less reports whether a comes after b in (distance, position) order, i.e. a is "larger".
func (h *topK) larger(a, b int) bool {
	da, db := h.dist[a], h.dist[b]
	return da > db || (da == db && a > b)
}

func (h *topK) push(t int) {
	if len(h.pos) < h.k {
		h.pos = append(h.pos, t)
		i := len(h.pos) - 1
		for i > 0 {
			p := (i - 1) / 2
			if !h.larger(h.pos[i], h.pos[p]) {
				break
			}
			h.pos[i], h.pos[p] = h.pos[p], h.pos[i]
			i = p
		}
		return
	}
	if !h.larger(h.pos[0], t) {
		return
	}
	h.pos[0] = t
	i, n := 0, len(h.pos)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && h.larger(h.pos[r], h.pos[l]) {
			c = r
		}
		if !h.larger(h.pos[c], h.pos[i]) {
			break
		}
		h.pos[i], h.pos[c] = h.pos[c], h.pos[i]
		i = c
	}
}

func sortByDist(pos []int, dist []float64) {
	for i := 1; i < len(pos); i++ {
		for j := i; j > 0; j-- {
			a, b := pos[j-1], pos[j]
			if dist[a] > dist[b] || (dist[a] == dist[b] && a > b) {
				pos[j-1], pos[j] = b, a
			} else {
				break
			}
		}
	}
}
