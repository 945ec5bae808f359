package microagg

import (
	"context"
	"fmt"
	"math"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// Missing values in MDAV (docs/microaggregation.md "Missing values"): sdcMicro 5.8.1's rule,
// the OECD C++ Mdav that microaggregation(method = "mdav") calls (src/Mdav.cpp, Mdav.h) with
// NA replaced by a marker and put back afterwards.

// nearer reports whether row a precedes row b in the C++'s hash order: smaller distance, or
// equal distance and a larger row index.
func nearer(pd []float32, a, b int) bool {
	return pd[a] < pd[b] || (pd[a] == pd[b] && a > b)
}

// MDAVMissing is MDAV with sdcMicro's missing-value rule, step by step as its C++ Mdav does it:
//
//   - Column j has weight w_j = 1/Var_j (population variance over its available values; 1 when
//     that is 0, or always when standardize is false). A missing value is at squared distance
//     M_j = w_j·(max_j − min_j)² from any available value and at 0 from another missing one.
//   - Distances are sums over the columns of w_j·(x_j − y_j)², accumulated in float32 as the C++
//     does (TDist is float); the rows of a group are the k nearest in ascending distance with
//     ties taken last row first (the order of its hash sort); farthest rows are the first of
//     equal ones.
//   - A centre (the average of the remaining rows, and a group's mean) averages each column over
//     its available values; a column with none is missing.
//   - The last group (the k..2k−1 rows left) divides each column's sum by the number of rows,
//     available or not, as the C++ does.
//
// A missing cell stays missing in the release (sdcMicro's mdav() puts NA back); every
// available cell gets its group's mean. It returns the release and the canonical labels. Cost
// O(n²/k·p), the C++'s, so it is for the tables with missing values only.
func MDAVMissing(ctx context.Context, d *datasets.Dataset, k int, standardize bool) (*datasets.Dataset, []int32, error) {
	n, p := d.N, d.P
	x := d.Data
	w := make([]float64, p)
	miss := make([]float32, p)
	for j := 0; j < p; j++ {
		w[j] = 1
		var avr, sq float64
		var lo, hi float64
		m := 0
		for i := 0; i < n; i++ {
			v := x[i*p+j]
			if v != v {
				continue
			}
			if m == 0 {
				lo, hi = v, v
			} else {
				lo, hi = min(lo, v), max(hi, v)
			}
			m++
			avr += v
			sq += v * v
		}
		if m > 0 {
			avr /= float64(m)
			sq /= float64(m)
		}
		if v := sq - avr*avr; v != 0 && standardize {
			w[j] /= v
		}
		miss[j] = float32((hi - lo) * (hi - lo) * w[j])
	}
	dist := func(a, b []float64) float32 {
		var s float32
		for j, av := range a {
			bv := b[j]
			if (av != av) != (bv != bv) {
				s += miss[j]
			} else if av == av {
				s += float32((av - bv) * (av - bv) * w[j])
			}
		}
		return s
	}
	next := make([]int, n)
	prev := make([]int, n)
	for i := range next {
		next[i], prev[i] = i+1, i-1
	}
	next[n-1] = -1
	first, left := 0, n
	remove := func(i int) {
		if first == i {
			first = next[i]
		}
		if prev[i] >= 0 {
			next[prev[i]] = next[i]
		}
		if next[i] >= 0 {
			prev[next[i]] = prev[i]
		}
	}
	sum := make([]float64, p)
	cnt := make([]int, p)
	center := make([]float64, p)
	// centre sets center to the per-column mean of the rows, over their available values;
	// div > 0 replaces the count of available values as divisor (the last group).
	centre := func(rows []int, div int) {
		clear(sum)
		clear(cnt)
		for _, i := range rows {
			for j, v := range x[i*p : (i+1)*p] {
				if v == v {
					sum[j] += v
					cnt[j]++
				}
			}
		}
		for j := range center {
			switch {
			case cnt[j] == 0:
				center[j] = math.NaN()
			case div > 0:
				center[j] = sum[j] / float64(div)
			default:
				center[j] = sum[j] / float64(cnt[j])
			}
		}
	}
	out := make([]float64, n*p)
	labels := make([]int32, n)
	for i := range labels {
		labels[i] = -1
	}
	group := int32(0)
	assign := func(rows []int) {
		for _, i := range rows {
			copy(out[i*p:(i+1)*p], center)
			labels[i] = group
			remove(i)
		}
		group++
	}
	pd := make([]float32, n)
	var active, rows []int
	for left-k >= k {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		ngroups := 2
		if left-2*k < k {
			ngroups = 1
		}
		active = active[:0]
		for i := first; i >= 0; i = next[i] {
			active = append(active, i)
		}
		centre(active, 0)
		far := first
		for _, i := range active {
			pd[i] = dist(x[i*p:(i+1)*p], center)
			if pd[i] > pd[far] {
				far = i
			}
		}
		for l := 0; l < ngroups; l++ {
			if l > 0 { // the first group's rows left the list
				active = active[:0]
				for i := first; i >= 0; i = next[i] {
					active = append(active, i)
				}
			}
			farthest := first
			ref := x[far*p : (far+1)*p]
			for _, i := range active {
				pd[i] = dist(x[i*p:(i+1)*p], ref)
				if pd[i] > pd[farthest] {
					farthest = i
				}
			}
			far = farthest
			// The C++ hash-sorts the rows by distance into 2^16 buckets (a monotone function
			// of the float32 distance), each bucket's list ascending with equal distances
			// last-inserted first: the order of (distance ascending, row descending). The k
			// first in that order are kept here by insertion into a sorted list of k.
			rows = rows[:0]
			for _, i := range active {
				if len(rows) == k && !nearer(pd, i, rows[k-1]) {
					continue
				}
				if len(rows) < k {
					rows = append(rows, i)
				} else {
					rows[k-1] = i
				}
				for r := len(rows) - 1; r > 0 && nearer(pd, rows[r], rows[r-1]); r-- {
					rows[r], rows[r-1] = rows[r-1], rows[r]
				}
			}
			centre(rows, 0)
			assign(rows)
		}
		left -= k * ngroups
	}
	if left > 0 {
		rows = rows[:0]
		for i := first; i >= 0; i = next[i] {
			rows = append(rows, i)
		}
		centre(rows, left)
		assign(rows)
	}
	for i, v := range x {
		if v != v {
			out[i] = math.NaN()
		}
	}
	return datasets.New(d.Name, append([]string(nil), d.Names...), n, p, out), Canonical(labels), nil
}

// protectMissing is the release of mdav and ma_mdav on a table with missing values:
// MDAVMissing's (docs/microaggregation.md "Missing values").
func protectMissing(ctx context.Context, name string, d *datasets.Dataset, p methods.Params) (*methods.Release, error) {
	out, labels, err := MDAVMissing(ctx, d, p.Int("k"), p.String("standardize") == "zscore")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &methods.Release{Masked: out, Labels: labels, Diag: partitionDiag(labels),
		Info: map[string]any{"missing_rule": "sdcmicro"}}, nil
}

// missingMDAV is the Info.Missing of mdav and ma_mdav.
const missingMDAV = "aggregated as sdcMicro's C++ Mdav does: distances and means over the available values, a missing value at the column's range from an available one; missing cells stay missing"
