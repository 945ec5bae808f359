// Package mdavindex answers the nearest- and farthest-record queries of MDAV and its
// relatives over a shrinking set of records exactly as a scan over the live records would.
//
// Index answers MDAV's queries (the live record farthest from a point, the k live records
// nearest to a record, with deletion); its Tree, or a Tree of its own, answers the k-nearest,
// bounded nearest and radius queries of VMDAV, CBFS, GSMS and RMDM. Every answer is the
// scan's bit for bit, ties to the lowest record index.
//
// It exists beside the general exact k-d tree of internal/kdtree because MDAV's loop needs
// what that tree does not hold:
//
//   - deletable rows: records leave the set after every group, so a Tree flags them, counts
//     them out of its nodes and is rebuilt over the live records once enough are gone;
//   - the farthest-point walk: an Index keeps a pivot list sorted by distance to an earlier
//     centroid and stops its walk at a triangle-inequality bound;
//   - the coded filters (quant.go): from 65,536 records the tree's leaves keep 8-bit codes
//     and the pivot list 16-bit codes, whose float32 lower (upper) bounds decide, without
//     changing any answer, which exact distances are computed;
//   - the lane layout: rows stored four at a time, column-interleaved (LaneOffset), so that
//     the distance kernel DistLanes reads four rows' column as one 256-bit vector.
//
// Every distance is the column-order sum of separately rounded squares (no FMA), as the
// scans of methods/microagg compute it, so the indexed and the scan paths give the same
// partitions. On amd64 with AVX2 the distance and filter kernels are assembly
// (kernel_amd64.s); the build tag purego selects the portable Go kernels, which return the
// same bits (`make test` runs the package's tests both ways; `make bench-asm` measures what
// the assembly buys, docs/scaling.md).
package mdavindex
