//go:build linux

package hugeheap

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestParseMode(t *testing.T) {
	for _, c := range []struct {
		in, want string
		err      bool
	}{
		{"always [madvise] never\n", "madvise", false},
		{"[always] madvise never\n", "always", false},
		{"always madvise [never]\n", "never", false},
		{"always madvise never\n", "", true},
		{"", "", true},
		{"] [", "", true},
	} {
		got, err := parseMode([]byte(c.in))
		if got != c.want || (err != nil) != c.err {
			t.Errorf("parseMode(%q) = %q, %v; want %q, error %v", c.in, got, err, c.want, c.err)
		}
	}
}

func TestHugePageSize(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		content string
		want    int
	}{
		{"2097152\n", 2 << 20},
		{"1073741824", 1 << 30},
		{"3000000\n", 2 << 20}, // not a power of two
		{"x", 2 << 20},
		{"-4096", 2 << 20},
	} {
		p := filepath.Join(dir, "size")
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := hugePageSize(p); got != c.want {
			t.Errorf("hugePageSize(%q) = %d, want %d", c.content, got, c.want)
		}
	}
	if got := hugePageSize(filepath.Join(dir, "absent")); got != 2<<20 {
		t.Errorf("hugePageSize(absent) = %d, want the 2 MiB default", got)
	}
}

func minorFaults() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return ru.Minflt
}

// touch writes one byte per 4 KiB page of b and returns the minor faults it took.
func touch(b []byte) int64 {
	f0 := minorFaults()
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	return minorFaults() - f0
}

// TestReserveBacksHeapWithHugePages checks the effect: after Reserve, filling a fresh 64 MiB
// slice takes far fewer page faults than one per 4 KiB page. It first checks, with a mapping
// of its own, that this kernel hands out huge pages on request at all, and skips if not (THP
// mode other than madvise, or no huge page available).
func TestReserveBacksHeapWithHugePages(t *testing.T) {
	if mode, err := thpMode(thpEnabled); err != nil || mode != "madvise" {
		t.Skipf("transparent huge pages: mode %q, %v (the test needs madvise)", mode, err)
	}
	const size = 64 << 20
	pages := int64(size / 4096)
	m, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(m)
	if err := syscall.Madvise(m, syscall.MADV_HUGEPAGE); err != nil {
		t.Skipf("madvise: %v", err)
	}
	if f := touch(m); f > pages/4 {
		t.Skipf("the kernel gave no huge pages to a mapping that asked (%d faults for %d pages)", f, pages)
	}
	res, err := Reserve(4 * size)
	if err != nil {
		t.Fatal(err)
	}
	if res.Bytes == 0 {
		t.Fatalf("Reserve marked nothing: %s", res.Reason)
	}
	// Count from before the allocation: memory reused from a freed stack is cleared by make.
	f0 := minorFaults()
	b := make([]byte, size)
	touch(b)
	if f := minorFaults() - f0; f > pages/4 {
		t.Errorf("allocating and filling 64 MiB after Reserve took %d page faults (%d pages of 4 KiB): the heap did not get huge pages", f, pages)
	}
}

func TestGodebugMadvDontNeedOff(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"", false},
		{"madvdontneed=0", true},
		{"madvdontneed=1", false},
		{"gctrace=1,madvdontneed=0", true},
		{"madvdontneed=0,madvdontneed=1", false},
		{"xmadvdontneed=0", false},
	} {
		if got := godebugMadvDontNeedOff(c.in); got != c.want {
			t.Errorf("godebugMadvDontNeedOff(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}
