package datasets

// textColumn collects the labels of a categorical column in the order first seen; cells hold
// the label's index into labels until finish sorts them. The label of the previous cell is
// checked first (keys repeat: a sorted file, a dominant category); then labels of at most 8
// bytes — codes, short names — are looked up in an open-addressing table keyed by their
// bytes packed into a word, longer ones in a map.
type textColumn struct {
	labels []string
	last   int // index of the previous cell's label, −1 before the first
	long   map[string]int
	short  []shortSlot // len a power of two, at most half full
	nshort int
}

// shortSlot is an entry of textColumn.short: a label of n ≤ 8 bytes packed into key, and its
// index + 1 (0: empty slot).
type shortSlot struct {
	key uint64
	n   uint8
	id  int32
}

func newTextColumn() *textColumn {
	return &textColumn{long: map[string]int{}, last: -1, short: make([]shortSlot, 64)}
}

func (t *textColumn) id(s []byte) int {
	if t.last >= 0 && t.labels[t.last] == bytesString(s) {
		return t.last
	}
	var k int
	if len(s) <= 8 {
		k = t.shortID(s)
	} else {
		var ok bool
		if k, ok = t.long[bytesString(s)]; !ok {
			k = t.add(s)
			t.long[t.labels[k]] = k
		}
	}
	t.last = k
	return k
}

func (t *textColumn) add(s []byte) int {
	t.labels = append(t.labels, string(s))
	return len(t.labels) - 1
}

func packLabel(s []byte) uint64 {
	var key uint64
	for i, c := range s {
		key |= uint64(c) << (8 * i)
	}
	return key
}

// slot returns the index of the slot holding (key, n) or of the empty slot where it goes.
func (t *textColumn) slot(key uint64, n uint8) int {
	mask := len(t.short) - 1
	h := int(((key ^ uint64(n)) * 0x9e3779b97f4a7c15) >> 40)
	for i := h & mask; ; i = (i + 1) & mask {
		if e := &t.short[i]; e.id == 0 || (e.key == key && e.n == n) {
			return i
		}
	}
}

func (t *textColumn) shortID(s []byte) int {
	key, n := packLabel(s), uint8(len(s))
	i := t.slot(key, n)
	if t.short[i].id != 0 {
		return int(t.short[i].id) - 1
	}
	k := t.add(s)
	t.short[i] = shortSlot{key: key, n: n, id: int32(k + 1)}
	if t.nshort++; 2*t.nshort > len(t.short) {
		old := t.short
		t.short = make([]shortSlot, 2*len(old))
		for _, e := range old {
			if e.id != 0 {
				t.short[t.slot(e.key, e.n)] = e
			}
		}
	}
	return k
}

// finish sorts the labels as setCategorical does and turns column c's label indices into codes.
func (t *textColumn) finish(d *Dataset, c int) {
	sorted := append([]string(nil), t.labels...)
	sortLevels(sorted)
	code := make(map[string]int, len(sorted))
	for k, l := range sorted {
		code[l] = k
	}
	remap := make([]float64, len(t.labels))
	for k, l := range t.labels {
		remap[k] = float64(code[l])
	}
	if d.Levels == nil {
		d.Levels = make([][]string, d.P)
	}
	if sorted == nil {
		sorted = []string{}
	}
	d.Levels[c] = sorted
	for i := 0; i < d.N; i++ {
		if v := d.Data[i*d.P+c]; v == v {
			d.Data[i*d.P+c] = remap[int(v)]
		}
	}
}
