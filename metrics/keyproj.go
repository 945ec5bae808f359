package metrics

import (
	"math/bits"
	"slices"

	"github.com/sdcbench/sdcbench/internal/keyfreq"
)

// keyProjections numbers the projections of a release's exact key tuples (keyfreq.Exact) on
// subsets of the keys, for the measures that count records per combination of some keys
// (SUDA, §4.6; risky_cells, §4.7): two tuples get the same number on a subset S iff they agree
// on every key of S (a missing value a category of its own).
//
// The subsets are visited depth first, each extending its parent by a later key, so that a
// tuple's number on S ∪ {c} is its number on S times the range of c plus its digit: one
// multiply-add a tuple and subset, the numbers of each depth in a reused slice. While the
// numbers' range stays at most limit they are these mixed-radix numbers, which a measure can
// count in a direct array; beyond it they are renumbered densely through a hash map (so every
// later range stays below the tuples times a key's range, and nothing overflows 64 bits).
// docs/scaling.md, "SUDA over the exact key tuples".
type keyProjections struct {
	g     int      // tuples
	card  []uint64 // the digits of key c range over 0..card[c]−1
	digit []uint32 // digit[c·g + t]: the digit of key c of tuple t
	keys  [][]uint32
	limit uint64
	ids   map[uint64]uint32
}

// projDenseMin is the least range of numbers kept as mixed-radix numbers (keyProjections); the
// bound is this or 8 a tuple, whichever is larger, and at most 2^32.
const projDenseMin = 1 << 22

// newKeyProjections returns the projections of the m-key tuples ex (Exact with codes). It
// takes over ex.Codes: each key's codes become its digits 0..L−1 in place (a missing value a
// digit of its own when the key has one).
func newKeyProjections(ex keyfreq.Classes, m int) *keyProjections {
	g := len(ex.Count)
	w := &keyProjections{g: g, card: make([]uint64, m), digit: ex.Codes, keys: make([][]uint32, m)}
	w.limit = min(max(projDenseMin, 8*uint64(g)), 1<<32) // numbers held in 32 bits
	for k, L := range ex.Levels {
		dig := w.digit[k*g : (k+1)*g]
		w.card[k] = uint64(L) + 1
		if !slices.Contains(dig, 0) {
			w.card[k] = uint64(L)
			for t := range dig {
				dig[t]--
			}
		}
	}
	return w
}

// walk calls visit for every non-empty subset S of at most maxDim keys, each after its parent
// S less its highest key, with dim the number of keys in S, S's bits (bit c for key c; only
// meaningful with at most 64 keys, all zero beyond) and keys[t] the number of the projection
// on S of tuple t, every number below span (span ≤ max(limit, tuples)). visit must not keep
// keys; an error it returns ends the walk.
func (w *keyProjections) walk(maxDim int, visit func(dim int, S uint64, keys []uint32, span uint64) error) error {
	return w.visitFrom(0, 0, 0, nil, 1, maxDim, visit)
}

// visitFrom visits the subsets that extend S (depth keys, the highest below from) by one key
// c ≥ from, and theirs in turn.
func (w *keyProjections) visitFrom(S uint64, depth, from int, parent []uint32, span uint64, maxDim int, visit func(dim int, S uint64, keys []uint32, span uint64) error) error {
	if depth == maxDim {
		return nil
	}
	if w.keys[depth] == nil {
		w.keys[depth] = make([]uint32, w.g)
	}
	keys := w.keys[depth]
	for c := from; c < len(w.card); c++ {
		var T uint64
		if len(w.card) <= 64 {
			T = S | 1<<c
		}
		dig := w.digit[c*w.g : (c+1)*w.g]
		hi, sp := bits.Mul64(span, w.card[c])
		switch {
		case parent == nil:
			copy(keys, dig)
		case hi == 0 && sp <= w.limit:
			r := uint32(w.card[c])
			for t, x := range parent {
				keys[t] = x*r + dig[t]
			}
		default:
			if w.ids == nil {
				w.ids = make(map[uint64]uint32, w.g)
			}
			clear(w.ids)
			for t, x := range parent {
				k := uint64(x)*w.card[c] + uint64(dig[t])
				id, ok := w.ids[k]
				if !ok {
					id = uint32(len(w.ids))
					w.ids[k] = id
				}
				keys[t] = id
			}
			sp = uint64(len(w.ids))
		}
		if err := visit(depth+1, T, keys, sp); err != nil {
			return err
		}
		if err := w.visitFrom(T, depth+1, c+1, keys, sp, maxDim, visit); err != nil {
			return err
		}
	}
	return nil
}
