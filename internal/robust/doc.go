// Package robust estimates multivariate location and scatter robustly. FastMCD returns the
// reweighted minimum covariance determinant estimate of a table and every row's squared
// Mahalanobis distance under it, as robustbase::covMcd (which sdcMicro calls) computes them.
//
// The estimate depends only on the table, the options and the random generator, never on
// the number of workers. On amd64 the distances of two rows at a time come from an SSE2
// kernel (mahal_amd64.s) that rounds as the portable Go code does, bit for bit; the build
// tag purego selects the portable code everywhere (`make test` runs both).
//
// Both the methods (methods/microagg's RMDM and sdcMicro's MDAV variants) and the measures
// (metrics' robust Mahalanobis distance risk) use it, so it belongs to neither.
package robust
