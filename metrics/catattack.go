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
	tabs := []*datasets.Dataset{in.Masked, in.Orig}
	if in.Control != nil {
		tabs = append(tabs, in.Control)
	}
	out, cat := mixedConvert(in.Orig, tabs)
	m := mixedTables{r: out[0], t: out[1], cat: cat}
	if in.Control != nil {
		m.c = out[2]
	}
	return m
}

// mixedConvert returns the tables tabs (with ref's columns) in the mixed form of
// mixedTables: numeric columns divided by their range over all of tabs, categorical ones as
// common codes (ref's codes first, labels only other tables have after them, −1 missing),
// and per column whether it is categorical in ref.
func mixedConvert(ref *datasets.Dataset, tabs []*datasets.Dataset) (out [][]float64, cat []bool) {
	p := ref.P
	cat = make([]bool, p)
	out = make([][]float64, len(tabs))
	for k, d := range tabs {
		out[k] = slices.Clone(d.Data)
	}
	for j := 0; j < p; j++ {
		if ref.IsCategorical(j) {
			cat[j] = true
			index := map[string]int{}
			for k, l := range ref.Levels[j] {
				if _, ok := index[l]; !ok {
					index[l] = k
				}
			}
			next := len(ref.Levels[j])
			for k, d := range tabs {
				levels := ref.Levels[j]
				if d.IsCategorical(j) {
					levels = d.Levels[j]
				}
				code := make([]float64, len(levels)) // the table's code → the common code
				for c, l := range levels {
					v, ok := index[l]
					if !ok {
						v = next
						index[l] = v
						next++
					}
					code[c] = float64(v)
				}
				for i := 0; i < d.N; i++ {
					v := d.Data[i*p+j]
					if c := int(v); v == v && c >= 0 && c < len(code) {
						out[k][i*p+j] = code[c]
					} else {
						out[k][i*p+j] = -1
					}
				}
			}
			continue
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, d := range tabs {
			for i := 0; i < d.N; i++ {
				if v := d.Data[i*p+j]; v == v {
					lo, hi = min(lo, v), max(hi, v)
				}
			}
		}
		rng := hi - lo
		if !(rng > 0) || math.IsInf(rng, 0) {
			rng = 1
		}
		for k, d := range tabs {
			for i := 0; i < d.N; i++ {
				out[k][i*p+j] /= rng
			}
		}
	}
	return out, cat
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
