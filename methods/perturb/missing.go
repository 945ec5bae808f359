package perturb

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/covariance"
	"github.com/sdcbench/sdcbench/methods"
)

// Missing values of the perturbative methods (docs/perturbative.md "Missing values"): the
// rules of sdcMicro 5.8.1's addNoise, rankSwap and shuffle, and for noise_mult (not in
// sdcMicro) the same as additive noise. A missing cell stays missing in every release.

// Info.Missing texts.
const (
	missingNoise   = "kept missing; column SDs (and means) over the available values, as sdcMicro addNoise (sd(x, na.rm = TRUE)); a draw is still made for the cell"
	missingCorr    = "kept missing; noise covariance from the complete rows, as sdcMicro addNoise (cov(na.omit(x)))"
	missingRestr   = "kept missing; column means over the available values, as sdcMicro addNoise (colMeans(x, na.rm = TRUE)); n counts every row"
	missingMult    = "kept missing (sdcMicro has no multiplicative noise; the rule of additive noise); a draw is still made for the cell"
	missingRank    = "kept missing; ranks, coding and the window among the available values, as sdcMicro rankSwap"
	missingShuffle = "kept missing; before shuffling each column's missing cells are filled with values drawn at random from its available ones (sdcMicro shuffle), then set missing again"
)

// checkDataMissing rejects tables a numeric masking cannot handle: too few rows, categorical
// columns and infinite values. Missing values are accepted (each method's rule above).
func checkDataMissing(id string, d *datasets.Dataset, minN int) error {
	if d.N < minN {
		return fmt.Errorf("%s: dataset %s has %d rows, need at least %d", id, d.Name, d.N, minN)
	}
	return methods.CheckNumericNA(id, d)
}

// checkScaled is checkDataMissing for a table whose availScaling s is at hand: it returns
// the same error, and without a scan of the cells when every column mean is finite. A column
// holding ±Inf has a mean of ±Inf or NaN whichever way availScaling computes it (the sums
// over its values are not finite, and datasets.ScalingOf leaves such a column unrescaled),
// so finite means prove that there is none; other tables take checkDataMissing's way.
func checkScaled(id string, d *datasets.Dataset, minN int, s datasets.Scaling) error {
	if d.N < minN || len(s.Mean) != d.P || slices.ContainsFunc(s.Mean, notFinite) {
		return checkDataMissing(id, d, minN)
	}
	for j := 0; j < d.P; j++ {
		if d.IsCategorical(j) {
			return checkDataMissing(id, d, minN)
		}
	}
	return nil
}

// checkedScaling returns d's availScaling after checkScaled's checks for at least minN rows:
// Validate's errors for the noise methods, without Validate's scan of every cell. The scaling
// is computed only for a table with enough rows (else the error says so).
func checkedScaling(id string, d *datasets.Dataset, minN int) (datasets.Scaling, error) {
	var s datasets.Scaling
	if d.N >= minN {
		s = availScaling(d)
	}
	return s, checkScaled(id, d, minN, s)
}

// notFinite reports whether v is NaN or ±Inf.
func notFinite(v float64) bool { return v-v != 0 }

// availScaling returns the mean and sample SD of every column of d over its available values
// (R's mean(x, na.rm = TRUE), sd(x, na.rm = TRUE)), computed as datasets.ScalingOf computes
// them; a column with fewer than two available values has SD NaN. Without missing values it
// is ScalingOf(d).
func availScaling(d *datasets.Dataset) datasets.Scaling {
	// A missing cell makes its column's mean NaN, so a table whose means are all numbers has
	// none (no separate scan for them); a NaN mean may also come from infinities: then scan.
	if s := datasets.ScalingOf(d); !slices.ContainsFunc(s.Mean, math.IsNaN) || !d.HasMissing() {
		return s
	}
	s := datasets.Scaling{Mean: make([]float64, d.P), SD: make([]float64, d.P)}
	for j := 0; j < d.P; j++ {
		var col []float64
		for i := 0; i < d.N; i++ {
			if v := d.Data[i*d.P+j]; v == v {
				col = append(col, v)
			}
		}
		if len(col) == 0 {
			s.Mean[j], s.SD[j] = math.NaN(), math.NaN()
			continue
		}
		c := datasets.ScalingOf(datasets.New(d.Name, []string{d.Names[j]}, len(col), 1, col))
		s.Mean[j], s.SD[j] = c.Mean[0], c.SD[0]
	}
	return s
}

// completeRows returns the rows of d without a missing value (R's na.omit), as a new
// table, or d itself when it has none.
func completeRows(d *datasets.Dataset) *datasets.Dataset {
	if !d.HasMissing() {
		return d
	}
	var data []float64
	n := 0
rows:
	for i := 0; i < d.N; i++ {
		row := d.Row(i)
		for _, v := range row {
			if v != v {
				continue rows
			}
		}
		data = append(data, row...)
		n++
	}
	return datasets.New(d.Name, d.Names, n, d.P, data)
}

// imputeRandom returns a copy of d whose missing cells are filled, column by column (rows in
// order), with values drawn uniformly with replacement from the column's available values
// (sdcMicro shuffle's imputation), and the mask of the cells filled. A column with no
// available value is an error naming it.
func imputeRandom(id string, d *datasets.Dataset, rng *rand.Rand) (*datasets.Dataset, []bool, error) {
	out := d.Clone()
	mask := make([]bool, len(d.Data))
	for j := 0; j < d.P; j++ {
		var avail []float64
		var holes []int
		for i := 0; i < d.N; i++ {
			if v := d.Data[i*d.P+j]; v == v {
				avail = append(avail, v)
			} else {
				holes = append(holes, i)
			}
		}
		if len(holes) == 0 {
			continue
		}
		if len(avail) == 0 {
			return nil, nil, fmt.Errorf("%s: column %q has no available value to fill its %s missing ones from; leave it out",
				id, datasets.Clip(d.Names[j]), methods.Thousands(len(holes)))
		}
		for _, i := range holes {
			out.Data[i*d.P+j] = avail[rng.IntN(len(avail))]
			mask[i*d.P+j] = true
		}
	}
	return out, mask, nil
}

// availMean returns the mean of column j of d over its available values, computed as
// covariance.Means computes a column mean.
func availMean(d *datasets.Dataset, j int) float64 {
	var col []float64
	for i := 0; i < d.N; i++ {
		if v := d.Data[i*d.P+j]; v == v {
			col = append(col, v)
		}
	}
	if len(col) == 0 {
		return math.NaN()
	}
	return covariance.Means(col, len(col), 1)[0]
}

// withImputed runs protect on d, or, when d has missing values, on imputeRandom's copy of d
// (the draws come first from rng) and sets the filled cells missing again in the release: the
// rule of sdcMicro's shuffle, for shuffle_ds, egadp_sdcmicro and egadp.
func withImputed(id string, d *datasets.Dataset, rng *rand.Rand, protect func(*datasets.Dataset) (*methods.Release, error)) (*methods.Release, error) {
	if !d.HasMissing() {
		return protect(d)
	}
	if rng == nil {
		return nil, fmt.Errorf("%s: nil random generator", id)
	}
	imp, mask, err := imputeRandom(id, d, rng)
	if err != nil {
		return nil, err
	}
	rel, err := protect(imp)
	if err != nil || rel == nil || rel.Masked == nil {
		return rel, err
	}
	for i, m := range mask {
		if m {
			rel.Masked.Data[i] = math.NaN()
		}
	}
	rel.Masked.Name = d.Name
	return rel, nil
}
