// Package keyfreq counts, for every record of a table, the records compatible with it on a set
// of key columns, a missing value (NaN) matching anything (sdcMicro freqCalc; metrics.md §4.1).
package keyfreq

import "math"

// Bits returns a hashable form of v: its bit pattern, with −0 as +0 and every NaN as one value.
func Bits(v float64) uint64 {
	if v != v {
		return 0x7ff8000000000001
	}
	return math.Float64bits(v + 0)
}

// AppendKey appends to buf the key of row i of the row-major table d (p columns) on columns cols:
// the little-endian Bits of each value, so that rows with equal keys get equal byte strings.
func AppendKey(buf []byte, d []float64, p, i int, cols []int) []byte {
	for _, l := range cols {
		b := Bits(d[i*p+l])
		for t := 0; t < 8; t++ {
			buf = append(buf, byte(b>>(8*t)))
		}
	}
	return buf
}

// Count returns, for each row j of the n×p row-major table d, f[j], the number of rows
// compatible with j on the key columns cols, and F[j], the sum of their weights w (F = f when
// w is nil): row i is compatible with j iff on every key x_ik = x_jk or one of them is missing
// (NaN). d, cols and w are not modified.
//
// Counts are exact sums of whole numbers. Weighted sums are added in a fixed order over the
// distinct key tuples (numbered by first appearance, each tuple's weight summed in row order):
// for a tuple with a missing key, the compatible tuples in ascending order from 0; for a
// complete tuple, its own weight, then the compatible tuples with a missing key in ascending
// order. (This is the order of the pairwise definition, so the sums are bit for bit those of
// comparing every pair of tuples.)
//
// Cost: without a missing key value (and with at most 8 keys of at most 255 values each) the
// key values are coded in one pass over the rows and each record's codes form a mixed-radix
// number below Π L_k for L_k values of key k; when that fits in 32 bits the
// records are partitioned on its high bits and the tuples of each part found in a direct array
// over its low bits (completeTuples), with no per-tuple codes: O(n·m) time and 8 bytes a record
// (the codes, then the numbers and the partition; the numbers become the records' tuples) besides
// the per-tuple sums (docs/scaling.md, "Distinct key tuples at census scale").
// With missing values the same pass codes the keys (a missing value is code 0, a digit of its
// own) and, when the numbers fit in 32 bits, the same partition finds the distinct tuples, which
// are then renumbered by first appearance (distinctPacked). Otherwise the key columns are coded
// one by one, each record's key tuple is one mixed-radix number with a digit for a missing value
// (when the product of the code ranges fits in 64 bits) and the distinct tuples are found
// through a direct array over those numbers when the code space is at most 8 entries a record
// and 2^26, by radix-sorting the numbers when they fit in 32 bits, and through a hash table
// otherwise. The distinct tuples are then grouped by their missingness pattern (the
// set of keys that are missing); tuples of patterns P and Q are compatible iff they agree on
// the keys outside P ∪ Q. With an exact mixed-radix number a tuple masked on Q is its number
// less Q's digits, so each tuple walks up the lattice of masks and finds its partners whose
// missing keys contain its own (for a complete tuple, all of them) in one bitmap (or hash set,
// split by the numbers' zero sets, which the complete tuples walk first key by first key) of
// the numbers below the tuples with a missing key; the pairs of patterns neither of which
// contains the other are hash joins of the smaller group against the larger (a bit filter on
// the codes of a few keys outside both skipping most probes of a small group). Without an exact
// number, or where that index would take more than about one mark per record, every pair of
// patterns is such a join: O(n·m + π·c·m) for m keys, c distinct tuples and π patterns
// present. (Comparing every
// tuple with a missing key with every tuple, as this function did before, cost O(u·c·m) for u
// such tuples: 12 CPU-s at 10^5 records with 2 % missing cells; docs/scaling.md, "Frequencies
// with missing key values".) Weighted, the compatible pairs of tuples with a missing key are
// also bucketed by tuple, and every tuple, in ascending order, adds its sum to those of its
// partners with a missing key, so that each sum is added in the order above without sorting
// any tuple's partners.
func Count(d []float64, n, p int, cols []int, w []float64) (f, F []float64) {
	f, F = make([]float64, n), make([]float64, n)
	if n == 0 {
		return f, F
	}
	var wt weights
	if w != nil {
		wt = weights{d: w, p: 1}
	}
	of, tf, tF := tuplesOf(d, n, p, cols, wt)
	for i, t := range of {
		f[i], F[i] = tf[t], tF[t]
	}
	return f, F
}

// Tuples are the frequencies of Count per distinct key tuple: record i's f and F are
// F[Of[i]] and FW[Of[i]]. A tuple's records are the records with its key values exactly (a
// missing value matching only a missing value); its F and FW are those of Count. The numbering
// of the tuples is unspecified.
type Tuples struct {
	Of []int32   // the tuple of each record
	F  []float64 // per tuple: the records compatible with it (sdcMicro fk)
	FW []float64 // per tuple: the sum of their weights (sdcMicro Fk); F itself if unweighted
}

// Frequencies returns Count's frequencies of the n×p row-major table d on the key columns cols
// per distinct key tuple, with the weights in column wcol of d (read in place; wcol < 0:
// unweighted), bit for bit those of Count with that column as w.
//
// Per tuple they take less memory than Count's two per-record slices (at 10^6 census records
// about 0.3·10^6 tuples), and a sum over the records of a function of f and F, taken in record
// order through Of, is bit for bit the sum over Count's per-record values (docs/datapath.md,
// "Census scale against sdcMicro").
func Frequencies(d []float64, n, p int, cols []int, wcol int) Tuples {
	if n == 0 {
		return Tuples{Of: []int32{}, F: []float64{}, FW: []float64{}}
	}
	var wt weights
	if wcol >= 0 {
		wt = weights{d: d, p: p, c: wcol}
	}
	of, tf, tF := tuplesOf(d, n, p, cols, wt)
	return Tuples{Of: of, F: tf, FW: tF}
}

// tuplesOf returns the tuple of each of the n records of d (Count) on the key columns cols,
// and per tuple f and F with the weights w (unweighted: F is f). Without a missing key value
// the tuples come from completeTuples; otherwise (codeRows stops at the first missing value)
// every tuple is numbered by first appearance and joined with its compatible tuples (count).
func tuplesOf(d []float64, n, p int, cols []int, w weights) (of []int32, tf, tF []float64) {
	var ts *tuples
	var h hasher
	if buf, levels, missing, ok := codeRows(d, n, p, cols, false); ok {
		if !missing {
			if of, cnt, wsum, ok := completeTuples(buf, n, len(cols), levels, w, maxSplitBits); ok {
				return of, cnt, wsum
			}
		}
		h = newHasher(levels)
		if missing {
			ts, _ = distinctPacked(buf, n, len(cols), levels, w, h)
		}
		if ts == nil {
			if keys, ok := rowKeys(buf, n, len(cols), levels); ok {
				ts = distinctKeys(keys, n, len(cols), levels, w.slice(n), h)
			}
		}
	}
	if ts == nil {
		ts, h = distinctOf(d, n, p, cols, w.slice(n))
	}
	tf, tF = count(ts, h, w.d != nil)
	return ts.of, tf, tF
}

// distinctOf returns the distinct tuples of d on the key columns cols, coded column by column
// (codeKeys, else codeColumns), with weights w (nil: none), and the hasher it used: the path
// of tuplesOf and Exact when the row-wise coding (codeRows) does not apply.
func distinctOf(d []float64, n, p int, cols []int, w []float64) (*tuples, hasher) {
	if keys, levels, ok := codeKeys(d, n, p, cols); ok {
		h := newHasher(levels)
		return distinctKeys(keys, n, len(cols), levels, w, h), h
	}
	codes, levels := codeColumns(d, n, p, cols)
	h := newHasher(levels)
	return distinct(codes, n, len(cols), levels, w, h), h
}
