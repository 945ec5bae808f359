//go:build amd64 && !purego

package microagg

// sumBlocks8AVX2 computes the column sums of the eight whole sum blocks (8·sumRows rows) of
// the lane buffer that start at rows, d ≥ 1 columns, into out[8j+i] (block i, column j): per
// block and column, the rows' values added in ascending row order to +0 with the scalar
// loop's roundings (mdavkernels_amd64.s).
//
//go:noescape
func sumBlocks8AVX2(out, rows *float64, d int)

// scanLanesAVX2 is scanLanesGo in AVX2 assembly (mdavkernels_amd64.s). groups ≥ 1; dead must be
// readable for 4·groups flags.
//
//go:noescape
func scanLanesAVX2(dist, rows, qb *float64, dead *bool, bm *uint64, best *float64, arg *int, d, groups, first, limit int, tau float64)

// compactLanesAVX2 is compactLanesGo in assembly (mdavkernels_amd64.s); it needs no AVX2 but
// shares its switch.
//
//go:noescape
func compactLanesAVX2(rows *float64, act *int32, dead *bool, d, w, m int) int
