package metrics

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/parallel"
)

// pickCols draws m distinct columns of cols by a partial Fisher–Yates shuffle (m draws
// IntN) and returns them sorted.
func pickCols(cols []int, m int, rng *rand.Rand) []int {
	c := slices.Clone(cols)
	for i := 0; i < m; i++ {
		j := i + rng.IntN(len(c)-i)
		c[i], c[j] = c[j], c[i]
	}
	out := c[:m]
	slices.Sort(out)
	return out
}

// predicate is a conjunction x_c ≤ t_c (le[c]) or x_c ≥ t_c over some columns.
type predicate struct {
	cols []int
	le   []bool
	t    []float64
}

// matchesOne reports whether exactly one row of the n×p table x satisfies q.
func (q *predicate) matchesOne(x []float64, n, p int) bool {
	hits := 0
	for i := 0; i < n; i++ {
		row := x[i*p : (i+1)*p]
		ok := true
		for k, c := range q.cols {
			if q.le[k] && !(row[c] <= q.t[k]) || !q.le[k] && !(row[c] >= q.t[k]) {
				ok = false
				break
			}
		}
		if ok {
			if hits++; hits > 1 {
				return false
			}
		}
	}
	return hits == 1
}

// singlingOut runs the multivariate singling-out attack. Draw order: (1) predicates from
// the release until Attacks distinct ones single out one release record or 20·Attacks tries:
// per try a release row (IntN), Cols columns of Aux (pickCols) and a direction per column
// (IntN(2): 0 is ≤); (2) as many baseline predicates: columns, directions and per column the
// threshold of an independently drawn release row. The predicates are checked on the whole
// original and the whole control set: a control set smaller than the original
// isolates records more easily, so the risk is then conservative (overstated); holdout = 0.5
// makes the two the same size.
func singlingOut(in *Input, ac attackCols, a AttackOptions, rng *rand.Rand) attackCounts {
	R, T, C := in.Masked, in.Orig, in.Control
	p := R.P
	m := min(a.cols(), len(ac.aux))
	want := a.attacks()
	var qs []predicate
	seen := map[string]bool{}
	for try := 0; try < 20*want && len(qs) < want && in.Err() == nil; try++ {
		r := rng.IntN(R.N)
		q := predicate{cols: pickCols(ac.aux, m, rng), le: make([]bool, m), t: make([]float64, m)}
		key := make([]byte, 0, 16*m)
		for k, c := range q.cols {
			q.le[k] = rng.IntN(2) == 0
			q.t[k] = R.Data[r*p+c]
			key = append(key, byte(c), byte(c>>8))
			if q.le[k] {
				key = append(key, 1)
			}
			key = appendFloat(key, q.t[k])
		}
		if seen[string(key)] || !q.matchesOne(R.Data, R.N, p) {
			continue
		}
		seen[string(key)] = true
		qs = append(qs, q)
	}
	base := make([]predicate, len(qs))
	for i := range base {
		q := predicate{cols: pickCols(ac.aux, m, rng), le: make([]bool, m), t: make([]float64, m)}
		for k, c := range q.cols {
			q.le[k] = rng.IntN(2) == 0
			q.t[k] = R.Data[rng.IntN(R.N)*p+c]
		}
		base[i] = q
	}
	tData, tN := T.Data, T.N
	c := attackCounts{nTrain: len(qs), nBase: len(base)}
	for i := range qs {
		if in.Err() != nil {
			break
		}
		if qs[i].matchesOne(tData, tN, p) {
			c.train++
		}
		if base[i].matchesOne(tData, tN, p) {
			c.base++
		}
		if C != nil && qs[i].matchesOne(C.Data, C.N, p) {
			c.ctl++
		}
	}
	if C != nil {
		c.nCtl = len(qs)
	}
	return c
}

func appendFloat(b []byte, v float64) []byte {
	u := math.Float64bits(v)
	for s := 0; s < 64; s += 8 {
		b = append(b, byte(u>>s))
	}
	return b
}

// attackSpace returns the release, original and control tables in the metric space (z-scores
// with the original's mean and SD, or raw with Standardize "none"). Unlike Input.Z it
// accepts a release with another number of rows (a synthetic sample).
func attackSpace(in *Input) (r, t, c []float64) {
	r, t = in.Masked.Data, in.Orig.Data
	if in.Control != nil {
		c = in.Control.Data
	}
	if in.Opt.Standardize == "none" {
		return r, t, c
	}
	sc := scalingOf(in.Orig) // observed cells only (missing.go)
	r, t = sc.Apply(nil, in.Masked), sc.Apply(nil, in.Orig)
	if c != nil {
		c = sc.Apply(nil, in.Control)
	}
	return r, t, c
}

// gather returns the columns cols of the n×p table x as a contiguous n×len(cols) table.
func gather(x []float64, n, p int, cols []int) []float64 {
	out := make([]float64, 0, n*len(cols))
	for i := 0; i < n; i++ {
		for _, c := range cols {
			out = append(out, x[i*p+c])
		}
	}
	return out
}

// nearest writes into dst the indices of the len(dst) rows of the n×m table r nearest to q
// by the distance d (sqDist: squared Euclidean, gowerDist: Gower's; ties go to the lower
// index), nearest first. A NaN distance counts as +Inf: such a row is never nearer than one
// with a distance (metrics.md §0.4).
func nearest(dst []int, dist []float64, r []float64, n, m int, q []float64, d func(a, b []float64) float64) {
	k := len(dst)
	cnt := 0
	for i := 0; i < n; i++ {
		s := d(q, r[i*m:(i+1)*m])
		if s != s {
			s = math.Inf(1)
		}
		if cnt == k && !(s < dist[k-1]) {
			continue
		}
		j := min(cnt, k-1)
		for j > 0 && s < dist[j-1] {
			dist[j], dst[j] = dist[j-1], dst[j-1]
			j--
		}
		dist[j], dst[j] = s, i
		cnt = min(cnt+1, k)
	}
}

// targets draws na distinct rows of an n-row table (Perm).
func targets(n, na int, rng *rand.Rand) []int { return rng.Perm(n)[:na] }

// numAttacks is the number of targets: Attacks capped by the original and control sizes.
func numAttacks(a AttackOptions, t, c *datasets.Dataset) int {
	na := min(a.attacks(), t.N)
	if c != nil {
		na = min(na, c.N)
	}
	return na
}

// linkability runs the linkability attack, in z-space or, when a column of aux or aux2 is
// categorical, with the Gower distance (catattack.go). Draw order: the original targets
// (Perm), the control targets (Perm), then per original target two baseline sets of k
// distinct release rows (each by IntN draws, a repeat drawn again).
func linkability(in *Input, ac attackCols, a AttackOptions, rng *rand.Rand) attackCounts {
	R, T, C := in.Masked, in.Orig, in.Control
	r, t, cz, dists := spaceFor(in, [][]int{ac.aux, ac.aux2}, func() *mixedTables { m := mixedOf(in); return &m })
	p, k := R.P, min(a.neighbors(), R.N)
	na := numAttacks(a, T, C)
	tt := targets(T.N, na, rng)
	var ct []int
	if C != nil {
		ct = targets(C.N, na, rng)
	}
	rA, rB := gather(r, R.N, p, ac.aux), gather(r, R.N, p, ac.aux2)
	mA, mB := len(ac.aux), len(ac.aux2)
	linked := func(x []float64, rows []int) int {
		ok := make([]bool, len(rows))
		parallel.Blocks(len(rows), rowBlock, 0, func(lo, hi int) {
			n1, n2, dist := make([]int, k), make([]int, k), make([]float64, k)
			qa, qb := make([]float64, mA), make([]float64, mB)
			for q := lo; q < hi; q++ {
				if in.Err() != nil {
					return
				}
				row := x[rows[q]*p : (rows[q]+1)*p]
				for j, c := range ac.aux {
					qa[j] = row[c]
				}
				for j, c := range ac.aux2 {
					qb[j] = row[c]
				}
				nearest(n1, dist, rA, R.N, mA, qa, dists[0])
				nearest(n2, dist, rB, R.N, mB, qb, dists[1])
				ok[q] = intersects(n1, n2)
			}
		})
		cnt := 0
		for _, v := range ok {
			if v {
				cnt++
			}
		}
		return cnt
	}
	c := attackCounts{nTrain: na, nBase: na, nCtl: len(ct)}
	c.train = linked(t, tt)
	if C != nil {
		c.ctl = linked(cz, ct)
	}
	n1, n2 := make([]int, k), make([]int, k)
	for range tt {
		distinct(n1, R.N, rng)
		distinct(n2, R.N, rng)
		if intersects(n1, n2) {
			c.base++
		}
	}
	return c
}

// distinct fills dst with distinct uniform draws from [0, n) (len(dst) ≤ n), in draw order.
func distinct(dst []int, n int, rng *rand.Rand) {
	for i := range dst {
		for {
			v := rng.IntN(n)
			if !slices.Contains(dst[:i], v) {
				dst[i] = v
				break
			}
		}
	}
}

func intersects(a, b []int) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// inference runs the attribute-inference attack: the guess of a target's secret is the
// secret of its nearest release record on aux (z-space distance, or Gower's when a column of
// aux is categorical: catattack.go). A numeric secret is guessed when |guess − secret| ≤
// tolerance·SD (SD of the original's secret column, raw units); a categorical one when the
// labels are equal, a missing value guessing a missing value (Anonymeter's exact match).
// Draw order: original targets (Perm), control targets (Perm), then per original target the
// baseline's random release row (IntN).
func inference(in *Input, ac attackCols, a AttackOptions, rng *rand.Rand) attackCounts {
	R, T, C := in.Masked, in.Orig, in.Control
	var mixed *mixedTables
	mixedOnce := func() *mixedTables {
		if mixed == nil {
			m := mixedOf(in)
			mixed = &m
		}
		return mixed
	}
	r, t, cz, dists := spaceFor(in, [][]int{ac.aux}, mixedOnce)
	p, s := R.P, ac.secret
	// The secret as compared: raw values, or the common category codes.
	sr, st, sc := R.Data, T.Data, []float64(nil)
	if C != nil {
		sc = C.Data
	}
	tol := a.tolerance() * scalingOf(T).SD[s] // observed cells only
	if T.IsCategorical(s) {
		m := mixedOnce()
		sr, st, sc, tol = m.r, m.t, m.c, 0
	}
	na := numAttacks(a, T, C)
	tt := targets(T.N, na, rng)
	var ct []int
	if C != nil {
		ct = targets(C.N, na, rng)
	}
	rA, mA := gather(r, R.N, p, ac.aux), len(ac.aux)
	hits := func(x, secret []float64, rows []int) int {
		ok := make([]bool, len(rows))
		parallel.Blocks(len(rows), rowBlock, 0, func(lo, hi int) {
			nb, dist, qa := make([]int, 1), make([]float64, 1), make([]float64, mA)
			for q := lo; q < hi; q++ {
				if in.Err() != nil {
					return
				}
				i := rows[q]
				for j, c := range ac.aux {
					qa[j] = x[i*p+c]
				}
				nearest(nb, dist, rA, R.N, mA, qa, dists[0])
				ok[q] = math.Abs(sr[nb[0]*p+s]-secret[i*p+s]) <= tol
			}
		})
		cnt := 0
		for _, v := range ok {
			if v {
				cnt++
			}
		}
		return cnt
	}
	c := attackCounts{nTrain: na, nBase: na, nCtl: len(ct)}
	c.train = hits(t, st, tt)
	if C != nil {
		c.ctl = hits(cz, sc, ct)
	}
	for _, i := range tt {
		g := sr[rng.IntN(R.N)*p+s]
		if math.Abs(g-st[i*p+s]) <= tol {
			c.base++
		}
	}
	return c
}
