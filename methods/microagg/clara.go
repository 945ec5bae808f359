package microagg

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/internal/distance"
)

// CLARA returns canonical cluster labels of the n×d row-major table z into nc clusters by
// Kaufman and Rousseeuw's CLARA with the defaults of R's cluster::clara
// (docs/microaggregation.md §2.7): Euclidean distances, 5 samples of
// min(n, 40 + 2·nc) records (the first drawn at random, the others made of the best medoids
// so far plus random records), PAM on each sample, every record assigned to its nearest
// medoid (ties: the medoid with the lowest record index), and the medoids with the lowest
// mean distance kept (ties: the earlier sample). When n ≤ the sample size PAM runs once on
// all records. Randomness comes only from rng; R's clara uses its own generator, so clusters
// differ from sdcMicro's.
//
// z is not modified. It panics if nc < 1, nc > n or len(z) != n·d. Cost O(samples·(s²·d +
// PAM swaps·nc²·s²) + samples·n·nc·d) for sample size s.
func CLARA(z []float64, n, d, nc int, rng *rand.Rand) []int32 {
	if nc < 1 || nc > n || len(z) != n*d {
		panic("microagg: CLARA: bad shape or nc")
	}
	size := min(n, 40+2*nc)
	samples := 5
	if n <= size {
		samples = 1
	}
	labels := make([]int32, n)
	best := math.Inf(1)
	var bestMed []int
	pool := make([]int, n)
	for s := 0; s < samples; s++ {
		// the sample: the best medoids so far, then random other records
		sample := slices.Clone(bestMed)
		for i := range pool {
			pool[i] = i
		}
		if n <= size {
			sample = append(sample[:0], pool...)
		} else {
			for _, m := range sample { // move the medoids out of the draw
				pool[m] = -1
			}
			pool = slices.DeleteFunc(pool, func(i int) bool { return i < 0 })
			for t := 0; len(sample) < size; t++ {
				j := t + rng.IntN(len(pool)-t)
				pool[t], pool[j] = pool[j], pool[t]
				sample = append(sample, pool[t])
			}
			pool = pool[:n]
		}
		slices.Sort(sample)
		med := pam(z, d, sample, nc)
		slices.Sort(med)
		var cost float64
		for i := 0; i < n; i++ {
			_, dist := nearestMedoid(z, d, i, med)
			cost += dist
		}
		cost /= float64(n)
		if cost < best {
			best, bestMed = cost, med
		}
	}
	for i := range labels {
		m, _ := nearestMedoid(z, d, i, bestMed)
		labels[i] = int32(m)
	}
	return Canonical(labels)
}

// nearestMedoid returns the position in med (ascending record indices) of the medoid nearest
// to record i and its Euclidean distance; ties go to the lowest record index.
func nearestMedoid(z []float64, d, i int, med []int) (int, float64) {
	best, bm := math.Inf(1), -1
	row := z[i*d : (i+1)*d]
	for t, m := range med {
		if v := distance.Sq(row, z[m*d:(m+1)*d]); v < best {
			best, bm = v, t
		}
	}
	return bm, math.Sqrt(best)
}

// pam returns the record indices of the nc medoids that PAM (BUILD, then best-improvement
// SWAP until no swap lowers the total distance) finds among the records sample (ascending),
// with Euclidean distances; ties go to the lowest position.
func pam(z []float64, d int, sample []int, nc int) []int {
	s := len(sample)
	D := make([]float64, s*s)
	for a := 0; a < s; a++ {
		ra := z[sample[a]*d : (sample[a]+1)*d]
		for b := a + 1; b < s; b++ {
			v := math.Sqrt(distance.Sq(ra, z[sample[b]*d:(sample[b]+1)*d]))
			D[a*s+b], D[b*s+a] = v, v
		}
	}
	isMed := make([]bool, s)
	near := make([]float64, s) // distance to the nearest medoid
	for i := range near {
		near[i] = math.Inf(1)
	}
	var med []int // positions in sample
	for len(med) < nc {
		bestGain, bj := -1.0, -1
		for j := 0; j < s; j++ {
			if isMed[j] {
				continue
			}
			var gain float64
			if len(med) == 0 { // first medoid: minimal total distance
				for i := 0; i < s; i++ {
					gain -= D[j*s+i]
				}
			} else {
				for i := 0; i < s; i++ {
					gain += max(0, near[i]-D[j*s+i])
				}
			}
			if bj < 0 || gain > bestGain {
				bestGain, bj = gain, j
			}
		}
		med = append(med, bj)
		isMed[bj] = true
		for i := 0; i < s; i++ {
			near[i] = min(near[i], D[bj*s+i])
		}
	}
	total := func(med []int) float64 {
		var c float64
		for i := 0; i < s; i++ {
			m := math.Inf(1)
			for _, j := range med {
				m = min(m, D[j*s+i])
			}
			c += m
		}
		return c
	}
	cost := total(med)
	trial := make([]int, nc)
	for {
		bestCost, bm, bh := cost, -1, -1
		for t := range med {
			for h := 0; h < s; h++ {
				if isMed[h] {
					continue
				}
				copy(trial, med)
				trial[t] = h
				if c := total(trial); c < bestCost {
					bestCost, bm, bh = c, t, h
				}
			}
		}
		if bm < 0 {
			break
		}
		isMed[med[bm]], isMed[bh] = false, true
		med[bm], cost = bh, bestCost
	}
	out := make([]int, nc)
	for t, j := range med {
		out[t] = sample[j]
	}
	return out
}
