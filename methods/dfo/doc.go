// Package dfo implements the derivative-free search over the number of groups of the DFO paper
// (Araújo & Aloise, "Um algoritmo de otimização livre de derivadas para a proteção de dados
// individuais"), specified in docs/dfo.md.
//
// Microaggregation is minimum-SSE clustering with a minimum group size k. The number of
// groups G is left free: an integer pattern search (Algorithm 2, PatternSearch) moves G inside
// [⌊n/(2k−1)⌋, ⌊n/k⌋] and scores each probe with a surrogate F′(G), the SSE that a
// size-constrained local search reaches at that G.
//
// The building blocks can be used one at a time:
//
//   - Partition: labels with group sizes, sums and centroids kept up to date, O(d) per move;
//   - Local.SBM (single best move, the paper's "h-means") and Local.BR (batch reassignment,
//     Lloyd, the paper's "k-means"), each unconstrained or restricted (Strategy I);
//   - Local.Repair (the feasibility routine) and Local.StrategyII (search, repair, repeat);
//   - Surrogate, whose default is HMKM (sbm then br, both with Strategy II);
//   - WarmStart, KMeansPP and RandomStart, the initial partitions at a new G;
//   - PatternSearch (Algorithm 2 on any cached F′) and Scan (the exhaustive gscan baseline);
//   - Run, the whole method, registered as `dfo`.
//
// Tie rules everywhere: the lowest record index first, then the lowest group id; an
// improvement must be strict by tol = 1e-12·SST. With the default warm initialization the
// method draws no random numbers and is bit-reproducible.
package dfo
