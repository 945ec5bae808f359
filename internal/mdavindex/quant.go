package mdavindex

import (
	"math"
)

// The 8-bit leaf filter of the k-nearest search at scale (docs/scaling.md, "The coded
// filters", which also gives the rounding argument in full). At 10^6 rows the search is bound by memory traffic: a leaf of 64 rows × 10
// columns is 5 KB of float64, and a query reads 200 leaves. So each leaf also keeps every
// value as one byte, its cell on a 255-step grid over the leaf's box:
//
//	code c = ⌊(x − lo)/Δ⌋ ∈ [0, 255], Δ = (hi − lo)/255,  so x ∈ [lo + c·Δ, lo + (c+1)·Δ].
//
// For a query q, with v = (q − lo)/Δ − ½ in cell units, the gap between q and the cell is
// Δ·max(0, |c − v| − ½), and the sum of the squared gaps over the columns is a lower bound of
// the squared distance. The kernel computes it in float32 with a slack h ≥ ½ that covers the
// rounding of v, of the subtraction and of the cell boundaries, multiplies by a Δ rounded
// down and compares with a threshold rounded up from the k-th best distance w. A row whose
// bound exceeds the threshold has a float64 distance above w and cannot enter the k nearest;
// the other rows (a few per cent) get their exact distance. So the filter changes no answer,
// and a query reads one eighth of the bytes.

// codedMinRows is the index size (tree records at build, pivot-list rows) from which the
// coded filters are used: below it the rows stay in cache and the filters cost more than they
// save. At 20,000 × 10 MDAV took 0.28–0.34 s without them and 0.31–0.38 s with them; at
// 100,000 × 10, 3.3–3.5 s without and 2.8–3.1 s with (side by side, one core each). It is the
// default of Options.CodedMinRows.
const codedMinRows = 1 << 16

// quantGroup is the number of rows whose codes of one column are contiguous (one 8-byte load).
const quantGroup = 8

// quantSlack is the slack, in cell units, for the rounding of the codes' cell boundaries at
// build time (at most 2^-40 cells); quantRel the relative slack of the float32 sum (at most
// (d+3)·2^-24 for d ≤ 16 columns) and of the float64 distance it is compared with.
const (
	quantSlack = 0x1p-20
	quantRel   = 0x1p-18
	// quantMaxW is the largest k-th best distance for which the filter is used: the float32
	// threshold must stay finite.
	quantMaxW = 1e36
	// quantMinStep and quantMaxStep bound the cell widths Δ for which a leaf is coded: the
	// products Δ·gap must neither underflow into float32 subnormals nor overflow.
	quantMinStep = 1e-30
	quantMaxStep = 1e30
	// quantMaxV bounds |v|: a farther query is moved to it, which only shrinks the gap.
	quantMaxV = 0x1p40
)

// quantCodes ORs the codes of the rows idx (len ≤ 64) of the n×d table z into words (zeroed
// by the caller, one word per group of quantGroup rows and column: word g·d + j holds row
// 8g + u's code of column j in bits 8u..8u+7, which is byte u of the word in little-endian
// memory), given the leaf box lo and the inverse steps inv.
func quantCodes(words []uint64, z []float64, idx []int32, d int, lo, inv []float64) {
	for r, i := range idx {
		g, u := r/quantGroup, r%quantGroup
		for j, x := range z[int(i)*d : int(i)*d+d] {
			c := math.Floor((x - lo[j]) * inv[j])
			words[g*d+j] |= uint64(min(max(c, 0), 255)) << (8 * u)
		}
	}
}

// quantStep returns the inverse cell width 1/Δ of a column whose leaf values span [lo, hi]
// and Δ rounded down to float32; ok is false when the leaf cannot be coded (Δ out of
// [quantMinStep, quantMaxStep]). A constant column gets Δ = 1.
func quantStep(lo, hi float64) (inv float64, step32 float32, ok bool) {
	step := (hi - lo) / 255
	if hi == lo {
		step = 1
	}
	if !(step >= quantMinStep && step <= quantMaxStep) {
		return 0, 0, false
	}
	step32 = float32(step)
	if float64(step32) > step {
		step32 = math.Nextafter32(step32, 0)
	}
	return 1 / step, step32, true
}

// quantParams fills prm (3·d float32: v, h, Δ per column) for the query q and a leaf with box
// low corner lo, inverse steps inv and steps step32 (float32 values), all as float64 bits.
func quantParams(prm []float32, q []float64, lo, inv, step32 []uint64) {
	prm = prm[:3*len(q)]
	lo, inv, step32 = lo[:len(q)], inv[:len(q)], step32[:len(q)]
	for j, x := range q {
		v := (x-math.Float64frombits(lo[j]))*math.Float64frombits(inv[j]) - 0.5
		if v > quantMaxV {
			v = quantMaxV
		} else if v < -quantMaxV {
			v = -quantMaxV
		}
		// |c − v| in float32 is within 2^-23·(|v| + 256) of the exact value; twice that,
		// plus the boundaries' slack, keeps the gap a lower bound after the subtraction
		h := (0.5 + quantSlack + 0x1p-22*(math.Abs(v)+256)) * (1 + 0x1p-20)
		prm[3*j], prm[3*j+1], prm[3*j+2] = float32(v), float32(h), float32(math.Float64frombits(step32[j]))
	}
}

// quantThreshold returns the float32 threshold for the k-th best squared distance w: a row
// whose bound exceeds it has a float64 distance above w. ok is false when w is too large.
func quantThreshold(w float64) (float32, bool) {
	if !(w <= quantMaxW) {
		return 0, false
	}
	return float32((w*(1+quantRel) + 1e-30) * (1 + 0x1p-20)), true
}

// quantMask returns a bit per row of the groups·quantGroup rows coded in words (quantCodes):
// set when the row's lower bound does not exceed t (a candidate).
func quantMask(words []uint64, prm []float32, d, groups int, t float32) uint64 {
	if groups == 0 {
		return 0
	}
	_ = words[groups*d-1]
	_ = prm[3*d-1]
	if useAVX2 {
		return quantMaskAVX2(&words[0], &prm[0], d, groups, t)
	}
	return quantMaskGo(words, prm, d, groups, t)
}

// quantMaskGo is the portable kernel; quantMaskAVX2 returns the same bits.
func quantMaskGo(words []uint64, prm []float32, d, groups int, t float32) uint64 {
	var mask uint64
	for g := 0; g < groups; g++ {
		var acc [quantGroup]float32
		for j := 0; j < d; j++ {
			v, h, s := prm[3*j], prm[3*j+1], prm[3*j+2]
			w := words[g*d+j]
			for l := range acc {
				x := float32(uint8(w>>(8*l))) - v
				x = float32(math.Abs(float64(x))) - h
				x = float32(max(x, 0) * s)
				acc[l] = float32(acc[l] + float32(x*x))
			}
		}
		for l, a := range acc {
			if !(a > t) {
				mask |= 1 << (quantGroup*g + l)
			}
		}
	}
	return mask
}

// The 16-bit upper-bound filter of the farthest walk (docs/scaling.md): the pivot list keeps
// every value as a 16-bit code on one grid per column spanning the list, Δ = (hi − lo)/65535.
// For x in cell c, |x − q| ≤ Δ·(|c − v| + ½) with v = (q − lo)/Δ − ½, so the float32 sum of
// (Δ·(|c − v| + h))², with h ≥ ½ covering the roundings and Δ rounded up, bounds the squared
// distance from above; a row whose bound is below the threshold (rounded down from the best
// distance so far) is nearer than the best and cannot be the farthest.

const (
	// quantUpperMinBest is the smallest best distance for which the upper filter is used:
	// the threshold stays far above float32 subnormals.
	quantUpperMinBest = 1e-20
	// quantUpperMaxV is the largest |v| for which a query is filtered (the bound must not
	// be clamped).
	quantUpperMaxV = 0x1p40
)

// quantStep16 returns the inverse cell width of a 16-bit grid over [lo, hi] and the width
// rounded up to float32; ok is false when the width is out of [quantMinStep, quantMaxStep].
// A constant column gets Δ = 1.
func quantStep16(lo, hi float64) (inv float64, step32 float32, ok bool) {
	step := (hi - lo) / 65535
	if hi == lo {
		step = 1
	}
	if !(step >= quantMinStep && step <= quantMaxStep) {
		return 0, 0, false
	}
	step32 = float32(step)
	if float64(step32) < step {
		step32 = math.Nextafter32(step32, float32(math.Inf(1)))
	}
	return 1 / step, step32, true
}

// quantCode16 returns the 16-bit code of value x on the grid (lo, inv).
func quantCode16(x, lo, inv float64) uint16 {
	return uint16(min(max(math.Floor((x-lo)*inv), 0), 65535))
}

// quantUpperParams fills prm (3·d float32: v, h, Δ per column) for the query q on the grids
// (lo, inv, step32); it returns false when q is too far from a grid to be filtered.
func quantUpperParams(prm []float32, q, lo, inv []float64, step32 []float32) bool {
	prm = prm[:3*len(q)]
	lo, inv, step32 = lo[:len(q)], inv[:len(q)], step32[:len(q)]
	for j, x := range q {
		v := (x-lo[j])*inv[j] - 0.5
		if !(math.Abs(v) <= quantUpperMaxV) {
			return false
		}
		// |c − v| in float32 is within 2^-23·(|v| + 65536) of the exact value
		h := (0.5 + quantSlack + 0x1p-22*(math.Abs(v)+65536)) * (1 + 0x1p-20)
		prm[3*j], prm[3*j+1], prm[3*j+2] = float32(v), float32(h), step32[j]
	}
	return true
}

// quantUpperThreshold returns the float32 threshold for the best squared distance b: a row
// whose upper bound is below it has a float64 distance below b. ok is false when b is too
// small or too large.
func quantUpperThreshold(b float64) (float32, bool) {
	if !(b >= quantUpperMinBest && b <= quantMaxW) {
		return 0, false
	}
	return float32((b*(1-quantRel) - 1e-30) * (1 - 0x1p-20)), true
}

// quantUpperMask returns a bit per row of the groups·quantGroup rows of codes: set when the
// row's upper bound is not below t (a candidate).
func quantUpperMask(codes []uint16, prm []float32, d, groups int, t float32) uint64 {
	if groups == 0 {
		return 0
	}
	_ = codes[groups*d*quantGroup-1]
	_ = prm[3*d-1]
	if useAVX2 {
		return quantUpperMaskAVX2(&codes[0], &prm[0], d, groups, t)
	}
	return quantUpperMaskGo(codes, prm, d, groups, t)
}

// quantUpperMaskGo is the portable kernel; quantUpperMaskAVX2 returns the same bits.
func quantUpperMaskGo(codes []uint16, prm []float32, d, groups int, t float32) uint64 {
	var mask uint64
	for g := 0; g < groups; g++ {
		var acc [quantGroup]float32
		for j := 0; j < d; j++ {
			v, h, s := prm[3*j], prm[3*j+1], prm[3*j+2]
			c := codes[(g*d+j)*quantGroup : (g*d+j+1)*quantGroup]
			for l := range acc {
				x := float32(c[l]) - v
				x = float32(math.Abs(float64(x))) + h
				x = float32(x * s)
				acc[l] = float32(acc[l] + float32(x*x))
			}
		}
		for l, a := range acc {
			if !(a < t) {
				mask |= 1 << (quantGroup*g + l)
			}
		}
	}
	return mask
}
