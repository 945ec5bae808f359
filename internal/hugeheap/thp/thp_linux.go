//go:build linux

package thp

import "syscall"

// Mode returns the selected mode of the file at path (EnabledFile, or a copy in tests); ok is
// false when it cannot be read or selects none.
func Mode(path string) (mode string, ok bool) {
	b, ok := readSmall(path)
	if !ok {
		return "", false
	}
	return ParseMode(b)
}

// PageSize returns the huge page size the file at path (PageSizeFile, or a copy in tests)
// holds, DefaultPageSize when it cannot be read or holds no power of two.
func PageSize(path string) int {
	b, ok := readSmall(path)
	if !ok {
		return DefaultPageSize
	}
	return ParsePageSize(b)
}

// readSmall returns the first 128 bytes of a file (the sysfs files read here are shorter).
func readSmall(path string) ([]byte, bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	var buf [128]byte
	n, err := syscall.Read(fd, buf[:])
	if err != nil || n <= 0 {
		return nil, false
	}
	return buf[:n:n], true
}

// madvCollapse is MADV_COLLAPSE (Linux 6.1), which the syscall package does not name.
const madvCollapse = 25

// Madvise is madvise(2) on [addr, addr+n) with the given advice.
func Madvise(addr, n uintptr, advice int) syscall.Errno {
	_, _, e := syscall.Syscall(syscall.SYS_MADVISE, addr, n, uintptr(advice))
	return e
}

// Collapse turns [p, p+n) into huge pages at once (madvise(MADV_COLLAPSE), Linux 6.1: the
// pages in use are copied, the rest is backed without faults), trying again up to three times
// while the kernel finds a page busy (EAGAIN: another thread touching it). EINVAL means
// nothing is mapped there yet (nothing to copy; MADV_HUGEPAGE can still mark it) or a kernel
// without MADV_COLLAPSE.
func Collapse(p, n uintptr) syscall.Errno {
	var errno syscall.Errno
	for range 3 {
		if errno = Madvise(p, n, madvCollapse); errno != syscall.EAGAIN {
			break
		}
	}
	return errno
}
