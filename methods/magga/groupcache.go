package magga

// groupCache remembers, per member set, whether the group's centroid links to one of its
// own members (the DLD hit of dldHits). The answer depends on the member set only: the
// centroid is summed over the members in ascending index order, so equal sets give
// bit-identical centroids, bounds and searches. Children share most groups with their
// parents, so most groups of a generation were already tested.
//
// The table is direct-mapped: a slot holds one member set, written over on collision, and
// a lookup compares the stored set element by element, so a hit never depends on the hash
// being collision-free. Lookups and stores do not allocate.
type groupCache struct {
	width int      // most members a group can have, 2k−1
	mask  uint64   // slots − 1
	key   []uint64 // member-set hash per slot, 0 = empty
	size  []uint8  // member count per slot
	hit   []bool   // the cached answer
	mem   []int32  // slots × width member indices
}

// newGroupCache returns a cache for groups of at most width members with slots rounded up
// to a power of two.
func newGroupCache(width, slots int) *groupCache {
	s := 1
	for s < slots {
		s <<= 1
	}
	return &groupCache{width: width, mask: uint64(s - 1),
		key: make([]uint64, s), size: make([]uint8, s), hit: make([]bool, s),
		mem: make([]int32, s*width)}
}

// hashMembers mixes an ascending member list into a non-zero 64-bit key.
func hashMembers(m []int32) uint64 {
	h := uint64(len(m)) * 0x9e3779b97f4a7c15
	for _, v := range m {
		h ^= uint64(uint32(v))
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	return h | 1
}

// lookup returns the slot of m, its key and whether the slot holds m.
func (c *groupCache) lookup(m []int32) (slot int, key uint64, found bool) {
	key = hashMembers(m)
	slot = int(key & c.mask)
	if c.key[slot] != key || int(c.size[slot]) != len(m) {
		return slot, key, false
	}
	stored := c.mem[slot*c.width : slot*c.width+len(m)]
	for i, v := range m {
		if stored[i] != v {
			return slot, key, false
		}
	}
	return slot, key, true
}

// store records the answer for m in slot (from lookup), unless m is wider than the cache.
func (c *groupCache) store(slot int, key uint64, m []int32, hit bool) {
	if len(m) > c.width {
		return
	}
	c.key[slot], c.size[slot], c.hit[slot] = key, uint8(len(m)), hit
	copy(c.mem[slot*c.width:], m)
}
