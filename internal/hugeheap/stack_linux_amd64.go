//go:build linux && amd64 && !purego

package hugeheap

// haveStackGrowers says whether growStackTo can grow a stack on this architecture.
const haveStackGrowers = true

// Functions with a frame of 2^(k-1) bytes and nothing else (stack_linux_amd64.s): calling one
// from a goroutine with a small stack grows that stack to 2^k bytes.
func growTo22()
func growTo23()
func growTo24()
func growTo25()
func growTo26()
func growTo27()
func growTo28()

// growStackTo grows the calling goroutine's stack to 2^k bytes, minStackLog ≤ k ≤ maxStackLog,
// if it is smaller (reserveOnStack).
func growStackTo(k int) {
	switch k {
	case 22:
		growTo22()
	case 23:
		growTo23()
	case 24:
		growTo24()
	case 25:
		growTo25()
	case 26:
		growTo26()
	case 27:
		growTo27()
	case 28:
		growTo28()
	default:
		panic("hugeheap: growStackTo: k out of range")
	}
}
