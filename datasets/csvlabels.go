package datasets

import "encoding/binary"

// textColumn collects the labels of a categorical column in the order first seen; cells hold
// the label's index into labels until finishText sorts them. Labels of at most 8 bytes — codes,
// short names — are looked up in an open-addressing table keyed by their bytes packed into a
// word (no string is made but for a new label); longer ones in a map, after a comparison with
// the last long label found (keys repeat: a sorted file, a dominant category). Short labels
// are not compared with the previous cell's first: with keys in random order that branch is
// mispredicted so often that it cost more than the lookup it saves (docs/datapath.md).
type textColumn struct {
	labels []string
	last   int // index of the last long label looked up, −1 before the first
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

// id returns the index of label s, adding it if it is new.
func (t *textColumn) id(s []byte) int {
	if len(s) <= 8 {
		return t.shortID(s, packLabel(s), uint8(len(s)))
	}
	if t.last >= 0 && t.labels[t.last] == bytesString(s) {
		return t.last
	}
	k, ok := t.long[bytesString(s)]
	if !ok {
		k = t.add(s)
		t.long[t.labels[k]] = k
	}
	t.last = k
	return k
}

func (t *textColumn) add(s []byte) int {
	t.labels = append(t.labels, string(s))
	return len(t.labels) - 1
}

// packLabel packs a label of at most 8 bytes into a word, its first byte lowest. When s's
// capacity allows, the word is loaded at once and the bytes after s are masked off.
func packLabel(s []byte) uint64 {
	if cap(s) >= 8 {
		return binary.LittleEndian.Uint64(s[:8]) & (1<<(8*uint(len(s))) - 1)
	}
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

// shortID is id for a label s of at most 8 bytes, packed into key, of length n.
func (t *textColumn) shortID(s []byte, key uint64, n uint8) int {
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

// finishText sorts the labels of d's text columns (cols[c] non-nil) as setCategorical does
// and turns their label indices into codes, in one pass over the rows.
func finishText(d *Dataset, cols []*textColumn) {
	var text []int
	var remaps [][]float64
	for c, t := range cols {
		if t == nil {
			continue
		}
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
		text = append(text, c)
		remaps = append(remaps, remap)
	}
	if len(text) == 0 {
		return
	}
	for i := 0; i < d.N; i++ {
		row := d.Data[i*d.P : (i+1)*d.P]
		for k, c := range text {
			if v := row[c]; v == v {
				row[c] = remaps[k][int(v)]
			}
		}
	}
}
