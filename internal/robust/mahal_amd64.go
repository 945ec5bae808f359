//go:build amd64 && !purego

package robust

// hasMahalPairs reports that mahalPairsSSE2 exists (SSE2 is part of every amd64 CPU).
const hasMahalPairs = true

// mahalPairsSSE2 computes the squared Mahalanobis distances of 2·pairs consecutive rows of
// the p-column table y under (mu, the lower factor l), two rows per 128-bit vector
// (mahal_amd64.s); x is scratch of 2p values. Bit-identical to factor.mahalanobisTo.
//
//go:noescape
func mahalPairsSSE2(out, y, mu, l, x *float64, p, pairs int)
