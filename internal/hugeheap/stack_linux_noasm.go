//go:build linux && (!amd64 || purego)

package hugeheap

// haveStackGrowers says whether growStackTo can grow a stack on this architecture.
const haveStackGrowers = false

func growStackTo(int) { panic("hugeheap: growStackTo: not on this architecture") }
