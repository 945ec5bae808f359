//go:build !amd64 || purego

package mdavindex

const useAVX2 = false

func distLanesAVX2(out, rows, qb *float64, d, groups int) { panic("unreachable") }

func quantMaskAVX2(codes *uint64, prm *float32, d, groups int, t float32) uint64 {
	panic("unreachable")
}

func quantUpperMaskAVX2(codes *uint16, prm *float32, d, groups int, t float32) uint64 {
	panic("unreachable")
}

func prefetchChildren(lbox, rbox *uint64, rnode *laneNode, rcnt *int32) {}

func prefetchRange(p *uint64, n int) {}
