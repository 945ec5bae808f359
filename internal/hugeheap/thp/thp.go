// Package thp reads the kernel's transparent huge page settings (the selected mode and the
// size of a huge page) and makes the madvise calls that mark or collapse huge pages. It imports only syscall, so that internal/hugeheap/early, which must be
// initialised before most packages, can use it as well as internal/hugeheap
// (docs/datapath.md, "Fresh memory: huge pages").
package thp

// The kernel's settings, read at each call (no package state).
const (
	// EnabledFile lists the modes ("always", "madvise", "never") with the selected one in
	// brackets.
	EnabledFile = "/sys/kernel/mm/transparent_hugepage/enabled"
	// PageSizeFile holds the size of a huge page in bytes.
	PageSizeFile = "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
)

// DefaultPageSize is the huge page size PageSize assumes when the kernel does not say (x86-64).
const DefaultPageSize = 2 << 20

// ParseMode returns the selected mode of the content of a file like EnabledFile, the text
// between its first '[' and its first ']'; ok is false when there is none.
func ParseMode(b []byte) (mode string, ok bool) {
	i, j := -1, -1
	for k, c := range b {
		if c == '[' && i < 0 {
			i = k
		} else if c == ']' && j < 0 {
			j = k
		}
	}
	if i < 0 || j < i {
		return "", false
	}
	return string(b[i+1 : j]), true
}

// ParsePageSize returns the decimal number before the first newline of b if it is a power of
// two, else DefaultPageSize.
func ParsePageSize(b []byte) int {
	v := 0
	for _, c := range b {
		if c == '\n' {
			break
		}
		if c < '0' || c > '9' || v > 1<<40 {
			return DefaultPageSize
		}
		v = v*10 + int(c-'0')
	}
	if v <= 0 || v&(v-1) != 0 {
		return DefaultPageSize
	}
	return v
}
