//go:build amd64 && !purego

package mdavindex

import "golang.org/x/sys/cpu"

var useAVX2 = cpu.X86.HasAVX2

// distLanesAVX2 is distLanesGo in AVX2 assembly (kernel_amd64.s): one 256-bit vector holds
// column j of the four rows of a lane group; four groups are processed at once.
//
//go:noescape
func distLanesAVX2(out, rows, qb *float64, d, groups int)

// quantMaskAVX2 is quantMaskGo in AVX2 assembly (kernel_amd64.s): one 256-bit vector holds
// the float32 bounds of a group of eight rows. groups must be at least 1.
//
//go:noescape
func quantMaskAVX2(codes *uint64, prm *float32, d, groups int, t float32) uint64

// quantUpperMaskAVX2 is quantUpperMaskGo in AVX2 assembly (kernel_amd64.s). groups must be
// at least 1.
//
//go:noescape
func quantUpperMaskAVX2(codes *uint16, prm *float32, d, groups int, t float32) uint64

// prefetchChildren asks the CPU to load into the caches the slab runs of a tree node's
// children (six cache lines from lbox and from rbox: the box and, for a leaf, its grid) and
// the right child's node and count, before the search reads them (kernel_amd64.s). A
// prefetch reads no memory the program sees and never faults, even past the slab.
//
//go:noescape
func prefetchChildren(lbox, rbox *uint64, rnode *laneNode, rcnt *int32)

// prefetchRange asks the CPU to load into the caches the n bytes from p, a cache line at a
// time (kernel_amd64.s); like prefetchChildren it reads nothing the program sees.
//
//go:noescape
func prefetchRange(p *uint64, n int)
