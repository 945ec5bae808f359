package metrics

// The attacks on mixed and categorical columns (docs/synthetic-attacks.md): linkability and
// inference find nearest release records with a Gower distance when a column they read is
// categorical, and inference judges a categorical secret by exact match, as Anonymeter does
// (Giomi et al. 2022; its MixedTypeKNeighbors after Gower 1971, "A general coefficient of
// similarity and some of its properties", Biometrics 27).

import (
	"math"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/distance"
)

// Attack distances (AttackOptions.Distance).
const (
	DistanceAuto      = "auto"      // Gower when a column the attack reads is categorical, else Euclidean
	DistanceEuclidean = "euclidean" // Euclidean on the original's z-scores (Standardize)
	DistanceGower     = "gower"     // the mean over columns of Gower's per-column distances
)

// mixedTables are the release, original and control tables in the mixed form the Gower
// distance and the categorical comparisons read:
//
//   - a numeric column is divided by its range (max − min of its observed values over the
//     three tables; a range of 0 counts as 1, as Anonymeter's scaler does), so that two values
//     differ by at most 1;
//   - a categorical column holds one common code per label: the original's codes, then the
//     labels only the release or the control set have (compared by label, so a release whose
//     levels are ordered otherwise is read right), and −1 for a missing value, which is a
//     category of its own.
type mixedTables struct {
	r, t, c []float64 // c is nil without a control set
	cat     []bool    // per column: categorical
}

// mixedOf builds the mixed tables of in (Masked, Orig, Control, which share their columns).
func mixedOf(in *Input) mixedTables {
	R, T, C := in.Masked, in.Orig, in.Control
	p := T.P
	m := mixedTables{cat: make([]bool, p)}
	m.r, m.t = slices.Clone(R.Data), slices.Clone(T.Data)
	if C != nil {
		m.c = slices.Clone(C.Data)
	}
	tables := []struct {
		d   *datasets.Dataset
		out []float64
	}{{T, m.t}, {R, m.r}}
	if C != nil {
		tables = append(tables, struct {
			d   *datasets.Dataset
			out []float64
		}{C, m.c})
	}
	for j := 0; j < p; j++ {
		if T.IsCategorical(j) {
			m.cat[j] = true
			index := map[string]int{}
			for k, l := range T.Levels[j] {
				if _, ok := index[l]; !ok {
					index[l] = k
				}
			}
			next := len(T.Levels[j])
			for _, tb := range tables {
				levels := T.Levels[j]
				if tb.d.IsCategorical(j) {
					levels = tb.d.Levels[j]
				}
				code := make([]float64, len(levels)) // the table's code → the common code
				for k, l := range levels {
					c, ok := index[l]
					if !ok {
						c = next
						index[l] = c
						next++
					}
					code[k] = float64(c)
				}
				for i := 0; i < tb.d.N; i++ {
					v := tb.d.Data[i*p+j]
					if k := int(v); v == v && k >= 0 && k < len(code) {
						tb.out[i*p+j] = code[k]
					} else {
						tb.out[i*p+j] = -1
					}
				}
			}
			continue
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, tb := range tables {
			for i := 0; i < tb.d.N; i++ {
				if v := tb.d.Data[i*p+j]; v == v {
					lo, hi = min(lo, v), max(hi, v)
				}
			}
		}
		rng := hi - lo
		if !(rng > 0) || math.IsInf(rng, 0) {
			rng = 1
		}
		for _, tb := range tables {
			for i := 0; i < tb.d.N; i++ {
				tb.out[i*p+j] /= rng
			}
		}
	}
	return m
}

// gowerDist returns Gower's distance between the records a and b of the mixed tables: the
// mean over the columns of |a_j − b_j| for a numeric column (1 when either is missing) and
// of 0 or 1 (equal codes or not) for a categorical one (cat[j]). It lies in [0, 1].
func gowerDist(a, b []float64, cat []bool) float64 {
	s := 0.0
	for j, x := range a {
		y := b[j]
		switch {
		case cat[j]:
			if x != y {
				s++
			}
		case x != x || y != y:
			s++
		default:
			s += math.Abs(x - y)
		}
	}
	return s / float64(len(a))
}

// sqDist is the squared Euclidean distance of the z-space attacks, +Inf when a coordinate
// is missing (metrics.md §0.4).
func sqDist(a, b []float64) float64 {
	s := distance.Sq(a, b)
	if s != s {
		return math.Inf(1)
	}
	return s
}

// useGower reports whether an attack reading the columns cols of in uses the Gower distance.
func useGower(in *Input, cols []int) bool {
	switch in.Opt.Attack.Distance {
	case DistanceGower:
		return true
	case DistanceEuclidean:
		return false
	}
	for _, j := range cols {
		if in.Orig.IsCategorical(j) {
			return true
		}
	}
	return false
}

// spaceFor returns the tables an attack reading the column sets cols searches, and per set
// its distance: Gower's on the mixed tables (built by the caller when needed) or, when no
// column read is categorical (DistanceAuto) or with DistanceEuclidean, the squared Euclidean
// distance in the metric space (attackSpace).
func spaceFor(in *Input, cols [][]int, mixed func() *mixedTables) (r, t, c []float64, dists []func(a, b []float64) float64) {
	var all []int
	for _, s := range cols {
		all = append(all, s...)
	}
	dists = make([]func(a, b []float64) float64, len(cols))
	if !useGower(in, all) {
		for k := range dists {
			dists[k] = sqDist
		}
		r, t, c = attackSpace(in)
		return r, t, c, dists
	}
	m := mixed()
	for k, s := range cols {
		cat := make([]bool, len(s))
		for i, j := range s {
			cat[i] = m.cat[j]
		}
		dists[k] = func(a, b []float64) float64 { return gowerDist(a, b, cat) }
	}
	return m.r, m.t, m.c, dists
}
