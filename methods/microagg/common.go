package microagg

import (
	"fmt"
	"math"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// kParam is the minimum group size parameter shared by every microaggregation method.
var kParam = methods.ParamSpec{Name: "k", Kind: methods.Int, Default: "3", Min: 2, Max: math.Inf(1),
	Doc: "minimum group size (groups have k..2k−1 records)"}

// standardizeParam selects the space in which distances are computed (spec §0).
var standardizeParam = methods.ParamSpec{Name: "standardize", Kind: methods.String, Default: "zscore",
	Choices: []string{"zscore", "none"}, Doc: "distance space: z-scores (sample SD) or raw values"}

// validateK checks the conditions every microaggregation method needs before it runs: k ≥ minK,
// at least 2k rows (issue 2 makes fewer a bad input; the partition functions themselves still
// return a single group for k ≤ n < 2k, as docs/microaggregation.md §0 says), finite
// data (a missing value is refused with methods.RefuseMissing's advice) and, when
// standardizing, no constant column.
func validateK(name string, d *datasets.Dataset, p methods.Params, minK int) error {
	return validateKMissing(name, d, p, minK, false)
}

// validateKMissing is validateK for a method that accepts missing values when missing is
// true (mdav and ma_mdav, by MDAVMissing): then a table with a missing value is checked for
// k, its size and its column kinds only.
func validateKMissing(name string, d *datasets.Dataset, p methods.Params, minK int, missing bool) error {
	na, err := validateShape(name, d, p, minK, missing)
	if err != nil || na {
		return err
	}
	if p.String("standardize") == "zscore" {
		return checkZScore(name, d)
	}
	return nil
}

// validateShape is validateKMissing without the check that the table can be z-scored (which
// space repeats); na reports that the table has a missing value that the method accepts, so
// that it was checked for k, its size and its column kinds only.
func validateShape(name string, d *datasets.Dataset, p methods.Params, minK int, missing bool) (na bool, err error) {
	return validateShapeOf(name, d, p, minK, missing, finiteNumeric(d))
}

// validateShapeOf is validateShape with finiteNumeric(d) known (fin): a finite numeric table
// needs no other pass over its values (HasMissing is false and RefuseMissing returns nil).
func validateShapeOf(name string, d *datasets.Dataset, p methods.Params, minK int, missing, fin bool) (na bool, err error) {
	k := p.Int("k")
	if k < minK {
		return false, fmt.Errorf("%s: %w k=%d: must be ≥ %d", name, methods.ErrBadParam, k, minK)
	}
	if d.N < 2*k {
		return false, fmt.Errorf("%s: dataset %s has %d rows, fewer than 2k = %d", name, d.Name, d.N, 2*k)
	}
	if fin {
		return false, nil
	}
	if missing && d.HasMissing() {
		return true, methods.CheckNumericNA(name, d)
	}
	return false, methods.RefuseMissing(name, d, methods.AltMicroagg)
}

// finiteNumeric reports whether d has no categorical column and no missing or infinite value,
// in one pass over the values: the tables that validateShape accepts without more checks.
func finiteNumeric(d *datasets.Dataset) bool {
	for j := 0; j < d.P; j++ {
		if d.IsCategorical(j) {
			return false
		}
	}
	return allFinite(d.Data)
}

// checkZScore returns datasets.ZScore's error for d (fewer than 2 rows, a constant column),
// wrapped with the method's name, without computing the z-scores of a table that has none.
func checkZScore(name string, d *datasets.Dataset) error {
	if d.N >= 2 && (spreadColumns(d) || !slices.ContainsFunc(datasets.ScalingOf(d).SD, func(sd float64) bool { return sd == 0 })) {
		return nil
	}
	if _, _, err := datasets.ZScore(d); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// spreadColumns reports, for a table d of n ≥ 2 rows, whether every
// column holds two values that differ (!=) and one of magnitude at least 2^−900: then
// datasets.ScalingOf(d) gives every column an SD > 0, so checkZScore need not compute it.
// When it returns false, checkZScore decides by ScalingOf itself.
//
// Why: a column whose plain SD is below 2^−511 and which is not constant (by the same !=
// test) is computed again by ScalingOf on its values times 2^−e, the largest magnitude then
// y_m in [0.5, 1). Another value differs from it, so it differs from y_m by at least 2^−54
// (the spacing of doubles near 0.5), and one of the two deviates from the mean by at least
// 2^−55: the sum of squares is at least 2^−110, the SD of up to 2^63 values at least 2^−87,
// and the SD in raw units, 2^e times that with e ≥ −899, at least 2^−986, not zero.
func spreadColumns(d *datasets.Dataset) bool {
	const small = 0x1p-900
	p := d.P
	if d.N < 2 {
		return false
	}
	for j := range p {
		// Column j, scanned until both are found: usually within its first rows.
		first := d.Data[j]
		spread, big := false, math.Abs(first) >= small
		for i := j + p; i < len(d.Data) && !(spread && big); i += p {
			v := d.Data[i]
			spread = spread || v != first
			big = big || math.Abs(v) >= small
		}
		if !spread || !big {
			return false
		}
	}
	return true
}

// space returns the table in which distances are computed: z-scores or a copy of the raw data.
func space(d *datasets.Dataset, p methods.Params) ([]float64, error) {
	if p.String("standardize") == "none" {
		// One power of two for the whole table keeps raw distances' order exactly while
		// squared distances of values near 1e308 (or 1e-308) stay in range.
		return datasets.PowerScaled(d.Data), nil
	}
	z, _, err := datasets.ZScore(d)
	return z, err
}

// Aggregate returns the release of a partition: every record replaced by the mean of its
// group in raw units. Each group mean is computed once (members in ascending order) and copied
// to every member, so members' rows are bit-identical. labels must be canonical (0..G−1).
func Aggregate(d *datasets.Dataset, labels []int32) *datasets.Dataset {
	return aggregateInto(nil, d, labels)
}

// aggregateInto is Aggregate writing the released values into dst when it has d.N·d.P
// elements (a buffer the caller owns and no longer needs, such as the distance-space table
// after partitioning: this saves the fresh memory of a second table) and into a new slice
// otherwise.
func aggregateInto(dst []float64, d *datasets.Dataset, labels []int32) *datasets.Dataset {
	G := 0
	for _, l := range labels {
		G = max(G, int(l)+1)
	}
	p := d.P
	sum := make([]float64, G*p)
	cnt := make([]int, G)
	for i, l := range labels {
		cnt[l]++
		row := d.Row(i)
		s := sum[int(l)*p : (int(l)+1)*p]
		for j, v := range row {
			s[j] += v
		}
	}
	overflow := false
	for g := 0; g < G; g++ {
		for j := 0; j < p; j++ {
			sum[g*p+j] /= float64(cnt[g])
			overflow = overflow || math.IsInf(sum[g*p+j], 0)
		}
	}
	if overflow {
		rescaledMeans(d, labels, sum, cnt)
	}
	out := dst
	if len(out) != d.N*p {
		out = make([]float64, d.N*p)
	}
	for i, l := range labels {
		copy(out[i*p:(i+1)*p], sum[int(l)*p:(int(l)+1)*p])
	}
	return datasets.New(d.Name, append([]string(nil), d.Names...), d.N, p, out)
}

// GroupSizes returns the size of each group of a canonical labelling.
func GroupSizes(labels []int32) []int {
	var sizes []int
	for _, l := range labels {
		for int(l) >= len(sizes) {
			sizes = append(sizes, 0)
		}
		sizes[l]++
	}
	return sizes
}

// rescaledMeans recomputes the group means that overflowed (finite values whose sum exceeds
// the float64 range, near ±1.8e308) on the values multiplied by 2^−e, 2^e just above the
// group's largest magnitude in that column: exact scaling, and a mean of values ≤ 2^e in
// magnitude cannot overflow.
func rescaledMeans(d *datasets.Dataset, labels []int32, mean []float64, cnt []int) {
	p := d.P
	for g := range cnt {
		for j := 0; j < p; j++ {
			if !math.IsInf(mean[g*p+j], 0) {
				continue
			}
			var big float64
			for i, l := range labels {
				if int(l) == g {
					big = max(big, math.Abs(d.Data[i*p+j]))
				}
			}
			if math.IsInf(big, 0) || math.IsNaN(big) {
				continue // the data itself is infinite
			}
			_, e := math.Frexp(big)
			var s float64
			for i, l := range labels {
				if int(l) == g {
					s += math.Ldexp(d.Data[i*p+j], -e)
				}
			}
			mean[g*p+j] = math.Ldexp(s/float64(cnt[g]), e)
		}
	}
}
