// Package magga implements MAGGA, the genetic microaggregation of MAGGA study
// (000_cffa7d374931379d.txt, Chapter 4) as docs/magga.md specifies it: a BRKGA-style
// genetic algorithm over label vectors whose individuals are always feasible k-partitions
// (every group has k..2k−1 records) and whose fitness is a weighted sum of sse_sst, dld, il1s
// and il3.
//
// # Pieces
//
//   - [ParseObjective] reads the objective: a preset (fobj1 … fobj5, fobj4_cal, dld_only) or a
//     weighted sum such as "0.5*sse_sst + 0.5*dld" (spec §1).
//   - [Problem] holds what one run computes once from the data: z-scores, SST, the column
//     statistics of il1s and il3, a k-d tree over Z for the group-centroid DLD (spec §2.1) and,
//     when needed, the farthest-insertion tour (spec §4.1). [Problem.Evaluate] computes the
//     metrics of one partition in O(n·d + G·d²) plus one bounded k-d tree query per group,
//     without allocating.
//   - The generators [TSPIndividual], [Decode1] and [Decode2] (spec §4), the biased uniform
//     crossover and [Repair] (spec §5-6) build new individuals; [Feasible] checks the invariant.
//   - [Run] is the generation loop (spec §7) with its fitness cache and parallel evaluation
//     (spec §8); the registered method `magga` wraps it (spec §9).
//
// # Determinism
//
// All random numbers are drawn from the run's *rand.Rand in the serial parts of the loop, in
// the order of spec §7. Repair, hashing and evaluation are deterministic and run in parallel,
// each individual in its own result slot, so a run gives the same result for any number of
// workers.
package magga
