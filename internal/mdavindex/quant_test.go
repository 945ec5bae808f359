package mdavindex

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestQuantFilterNeverRejectsACandidate checks the 8-bit leaf filter on random leaves (normal,
// wide-ranged, integer-valued and constant columns, duplicated rows) and queries (inside,
// near and far from the leaf): every row whose float64 distance is at most w keeps its bit,
// for thresholds w equal to the rows' own distances (the hardest case) and in between. The
// AVX2 and portable kernels return the same bits, and the filter rejects most far rows.
func TestQuantFilterNeverRejectsACandidate(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var kept, rows int
	for trial := 0; trial < 3000; trial++ {
		d := 1 + rng.IntN(16)
		n := 1 + rng.IntN(64)
		z, scale := quantTestTable(rng, trial, n, d)
		if trial%5 == 0 && n > 1 { // duplicated rows
			copy(z[d:2*d], z[:d])
		}
		idx := make([]int32, n)
		for i := range idx {
			idx[i] = int32(i)
		}
		lo, hi := make([]float64, d), make([]float64, d)
		for j := range lo {
			lo[j], hi[j] = math.Inf(1), math.Inf(-1)
			for i := 0; i < n; i++ {
				lo[j], hi[j] = min(lo[j], z[i*d+j]), max(hi[j], z[i*d+j])
			}
		}
		inv, loBits, invBits, stepBits := make([]float64, d), make([]uint64, d), make([]uint64, d), make([]uint64, d)
		ok := true
		for j := range lo {
			iv, s32, o := quantStep(lo[j], hi[j])
			inv[j], ok = iv, ok && o
			loBits[j], invBits[j], stepBits[j] = math.Float64bits(lo[j]), math.Float64bits(iv), math.Float64bits(float64(s32))
		}
		if !ok {
			continue
		}
		groups := (n + quantGroup - 1) / quantGroup
		codes := make([]uint64, groups*d)
		quantCodes(codes, z, idx, d, lo, inv)
		q := make([]float64, d)
		base := rng.IntN(n)
		for j := range q {
			switch rng.IntN(3) {
			case 0:
				q[j] = z[base*d+j] // on a row
			case 1:
				q[j] = z[base*d+j] + rng.NormFloat64()*scale*1e-6
			default:
				q[j] = lo[j] + (hi[j]-lo[j]+scale)*3*rng.NormFloat64()
			}
		}
		dist := make([]float64, n)
		for i := range dist {
			dist[i] = sqDist(z[i*d:(i+1)*d], q)
		}
		prm := make([]float32, 3*d)
		quantParams(prm, q, loBits, invBits, stepBits)
		for _, w := range []float64{dist[rng.IntN(n)], dist[rng.IntN(n)] * (1 + 1e-12), dist[rng.IntN(n)] / 2, 0} {
			tq, ok := quantThreshold(w)
			if !ok {
				continue
			}
			mask := quantMask(codes, prm, d, groups, tq)
			if g := quantMaskGo(codes, prm, d, groups, tq); g != mask {
				t.Fatalf("trial %d: AVX2 mask %x, portable %x", trial, mask, g)
			}
			for i, s := range dist {
				if s <= w && mask&(1<<i) == 0 {
					t.Fatalf("trial %d (d=%d n=%d): row %d at %v ≤ w = %v was filtered out", trial, d, n, i, s, w)
				}
				if w > 0 && s > 4*w {
					rows++
					if mask&(1<<i) != 0 {
						kept++
					}
				}
			}
		}
	}
	if rows == 0 || float64(kept) > 0.05*float64(rows) {
		t.Fatalf("the filter kept %d of %d rows farther than 4w", kept, rows)
	}
	t.Logf("AVX2 kernel in use: %v; kept %d of %d rows farther than 4w", useAVX2, kept, rows)
}

// TestQuantUpperFilterNeverRejectsACandidate checks the 16-bit upper filter of the farthest
// walk the same way: every row whose float64 distance is at least b keeps its bit, for b equal
// to the rows' own distances; the kernels agree; and most much nearer rows are rejected.
func TestQuantUpperFilterNeverRejectsACandidate(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	var kept, rows int
	for trial := 0; trial < 3000; trial++ {
		d := 1 + rng.IntN(16)
		n := 1 + rng.IntN(64)
		z, scale := quantTestTable(rng, trial, n, d)
		lo, inv, step32 := make([]float64, d), make([]float64, d), make([]float32, d)
		ok := true
		for j := range lo {
			l, h := math.Inf(1), math.Inf(-1)
			for i := 0; i < n; i++ {
				l, h = min(l, z[i*d+j]), max(h, z[i*d+j])
			}
			var o bool
			lo[j] = l
			inv[j], step32[j], o = quantStep16(l, h)
			ok = ok && o
		}
		if !ok {
			continue
		}
		groups := (n + quantGroup - 1) / quantGroup
		codes := make([]uint16, groups*quantGroup*d)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				codes[((i/quantGroup)*d+j)*quantGroup+i%quantGroup] = quantCode16(z[i*d+j], lo[j], inv[j])
			}
		}
		q := make([]float64, d)
		base := rng.IntN(n)
		for j := range q {
			switch rng.IntN(3) {
			case 0:
				q[j] = z[base*d+j]
			case 1:
				q[j] = z[base*d+j] + rng.NormFloat64()*scale*1e-6
			default:
				q[j] = lo[j] + scale*rng.NormFloat64()
			}
		}
		prm := make([]float32, 3*d)
		if !quantUpperParams(prm, q, lo, inv, step32) {
			continue
		}
		dist := make([]float64, n)
		for i := range dist {
			dist[i] = sqDist(z[i*d:(i+1)*d], q)
		}
		for _, b := range []float64{dist[rng.IntN(n)], dist[rng.IntN(n)] * (1 - 1e-12), dist[rng.IntN(n)] * 2} {
			tq, ok := quantUpperThreshold(b)
			if !ok {
				continue
			}
			mask := quantUpperMask(codes, prm, d, groups, tq)
			if g := quantUpperMaskGo(codes, prm, d, groups, tq); g != mask {
				t.Fatalf("trial %d: AVX2 mask %x, portable %x", trial, mask, g)
			}
			for i, s := range dist {
				if s >= b && mask&(1<<i) == 0 {
					t.Fatalf("trial %d (d=%d n=%d): row %d at %v ≥ b = %v was filtered out", trial, d, n, i, s, b)
				}
				if s < b/4 {
					rows++
					if mask&(1<<i) != 0 {
						kept++
					}
				}
			}
		}
	}
	if rows == 0 || float64(kept) > 0.05*float64(rows) {
		t.Fatalf("the filter kept %d of %d rows nearer than b/4", kept, rows)
	}
	t.Logf("kept %d of %d rows nearer than b/4", kept, rows)
}

// quantTestTable returns a random n×d table of the filter tests, by trial % 4: normal values
// at a scale spanning 12 orders of magnitude, an integer grid, constant columns, or values
// near 10⁶ with a tiny spread; and the scale.
func quantTestTable(rng *rand.Rand, trial, n, d int) ([]float64, float64) {
	scale := math.Exp(rng.NormFloat64() * 6)
	z := make([]float64, n*d)
	for i := range z {
		switch trial % 4 {
		case 0:
			z[i] = rng.NormFloat64() * scale
		case 1:
			z[i] = math.Round(rng.NormFloat64() * 3)
		case 2:
			z[i] = float64(i%d) * scale // constant columns
		default:
			z[i] = 1e6 + rng.NormFloat64()*scale*1e-3
		}
	}
	return z, scale
}
