package perturb

import (
	"cmp"
	"slices"

	"github.com/sdcbench/sdcbench/internal/radix"
)

// keyed is a value with its record index, sorted contiguously (faster than sorting indices
// through the value slice).
type keyed = radix.Keyed

// order fills buf with (v[i], i) for the indices selected by keep (all when keep is nil) and
// sorts it by value, ascending or descending, ties by record index ascending.
func order(v []float64, desc bool, buf []keyed, keep func(float64) bool) []keyed {
	buf = buf[:0]
	for i, x := range v {
		if keep == nil || keep(x) {
			buf = append(buf, keyed{V: x, I: int32(i)})
		}
	}
	if len(buf) >= radixMin {
		n := len(buf)
		radixOrder(buf, desc, make([]keyed, n), make([]uint64, n), make([]uint64, n))
		return buf
	}
	if desc {
		slices.SortFunc(buf, func(a, b keyed) int {
			if a.V != b.V {
				return cmp.Compare(b.V, a.V)
			}
			return cmp.Compare(a.I, b.I)
		})
	} else {
		slices.SortFunc(buf, func(a, b keyed) int {
			if a.V != b.V {
				return cmp.Compare(a.V, b.V)
			}
			return cmp.Compare(a.I, b.I)
		})
	}
	return buf
}

// radixMin is the size from which order uses a radix sort instead of a comparison sort.
const radixMin = 1 << 15

// radixOrder sorts buf (already in record order) by value with a stable LSD radix sort, so
// equal values keep record order; scratch is reused.
func radixOrder(buf []keyed, desc bool, scratch []keyed, keys, keys2 []uint64) {
	radix.Sort(buf, desc, scratch, keys, keys2)
}
