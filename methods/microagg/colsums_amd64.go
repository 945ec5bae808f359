//go:build amd64 && !purego

package microagg

// colSumsAVX2 is colSums for 1 ≤ d ≤ 16 in AVX2 assembly (colsums_amd64.s): one lane per
// column, so each column is summed in row order from +0 as in the scalar loops. mask holds 16
// words, −1 for the columns below d and 0 above; the first whole rows are read as whole
// vectors (4·⌈d/4⌉ values from the row's start), which must lie within t.
//
//go:noescape
func colSumsAVX2(out, t *float64, mask *int64, d, rows, whole int)
