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
