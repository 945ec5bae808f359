//go:build linux

package early

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"unsafe"
)

func TestParseMode(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"always [madvise] never\n", "madvise", true},
		{"[always] madvise never\n", "always", true},
		{"always madvise [never]\n", "never", true},
		{"always madvise never\n", "", false},
		{"", "", false},
		{"] [", "", false},
		{"[", "", false},
	} {
		got, ok := parseMode([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("parseMode(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
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
		{"", 2 << 20},
		{"99999999999999999999999\n", 2 << 20},
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

func TestBackOff(t *testing.T) {
	for _, v := range []string{"0", "off"} {
		t.Setenv(envVar, v)
		if res := Back(); res.Collapsed != 0 || res.Marked != 0 || res.Reason != envVar+"="+v {
			t.Errorf("%s=%s: Back() = %+v; want nothing done, reason %q", envVar, v, res, envVar+"="+v)
		}
	}
}

func minorFaults() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return int64(ru.Minflt)
}

func needMadvise(t *testing.T) {
	t.Helper()
	if mode, ok := selectedMode(thpEnabled); !ok || mode != "madvise" {
		t.Skipf("transparent huge pages: mode %q (the test needs madvise)", mode)
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory faults in 4 KiB pages")
	}
}

// TestBackAtMapping checks backAt on mappings of its own laid out like the heap's first
// chunk: pages used here and there below top, then free memory to the chunk's end. The used
// bytes must survive, and touching the whole chunk afterwards must take about one fault per
// huge page, not one per 4 KiB page.
func TestBackAtMapping(t *testing.T) {
	needMadvise(t)
	page := uintptr(hugePageSize(thpPageSize))
	if page != 2<<20 {
		t.Skipf("huge pages of %d bytes", page)
	}
	for _, c := range []struct {
		top               uintptr // offset in the chunk
		collapsed, marked int
	}{
		{300 << 10, 2 << 20, 2 << 20},
		{2 << 20, 2 << 20, 2 << 20},
		{3<<20 + 8<<10, 4 << 20, 0},
		{4 << 20, 4 << 20, 4 << 20}, // the probe at top took a new chunk, mapped to its end
	} {
		m, err := syscall.Mmap(-1, 0, 3*heapChunk, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			t.Skipf("mmap: %v", err)
		}
		start := uintptr(unsafe.Pointer(&m[0]))
		base := (start + heapChunk - 1) &^ (heapChunk - 1)
		chunk := m[base-start : base-start+heapChunk]
		for i := uintptr(0); i < c.top; i += 3 * 4096 { // every third page below top
			chunk[i] = byte(i>>12) | 1
		}
		res := backAt(base+c.top, page)
		t.Logf("top at %d KiB: %+v", c.top>>10, res)
		if res.Reason != "" {
			syscall.Munmap(m)
			t.Skipf("the kernel did not collapse or mark (%s)", res.Reason)
		}
		if res.Collapsed != c.collapsed || res.Marked != c.marked || res.Top != base+c.top {
			t.Errorf("top at %d KiB: backAt = %+v; want %d bytes collapsed, %d marked", c.top>>10, res, c.collapsed, c.marked)
		}
		for i := uintptr(0); i < heapChunk; i += 4096 {
			want := byte(0)
			if i < c.top && i%(3*4096) == 0 {
				want = byte(i>>12) | 1
			}
			if chunk[i] != want {
				t.Fatalf("top at %d KiB: byte %d is %d after backAt, want %d", c.top>>10, i, chunk[i], want)
			}
		}
		f0 := minorFaults()
		for i := 0; i < heapChunk; i += 4096 {
			chunk[i]++
		}
		if f := minorFaults() - f0; f > 4 {
			t.Errorf("top at %d KiB: touching the %d pages of the chunk after backAt took %d faults, want at most one per huge page", c.top>>10, heapChunk/4096, f)
		}
		syscall.Munmap(m)
	}
}

const (
	childEnv   = "EARLY_TEST_CHILD"
	childBytes = 1 << 20
)

// TestInitBacksHeapStart checks the package's init in fresh processes (the test binary itself,
// TestInitChild): after it, allocating and touching 1 MiB of small objects takes far fewer
// faults than one per 4 KiB page; with SDCBENCH_HUGEPAGES=0 (the control) it takes about one
// per page, so the count can tell.
func TestInitBacksHeapStart(t *testing.T) {
	needMadvise(t)
	for _, off := range []bool{false, true} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestInitChild$", "-test.v")
		cmd.Env = append(os.Environ(), childEnv+"=1")
		if off {
			cmd.Env = append(cmd.Env, envVar+"=0")
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		mm := regexp.MustCompile(`child: collapsed=(\d+) marked=(\d+) bytes=(-?\d+) faults=(\d+) reason="(.*)"`).FindSubmatch(out)
		if mm == nil {
			t.Fatalf("child printed no result:\n%s", out)
		}
		collapsed, _ := strconv.Atoi(string(mm[1]))
		marked, _ := strconv.Atoi(string(mm[2]))
		bytes, _ := strconv.Atoi(string(mm[3]))
		faults, _ := strconv.ParseInt(string(mm[4]), 10, 64)
		pages := int64(bytes / 4096)
		t.Logf("%s=0: %v; init collapsed %d and marked %d bytes (%s); %d faults for %d KiB",
			envVar, off, collapsed, marked, mm[5], faults, bytes>>10)
		switch {
		case off && faults <= pages/2:
			t.Errorf("without the init's marks: %d faults for %d pages; the count cannot tell huge pages from small ones here", faults, pages)
		case !off && collapsed+marked == 0:
			t.Skipf("the init collapsed and marked nothing (%s)", mm[5])
		case !off && pages < 64:
			t.Skipf("the test's own start filled the chunk the init backed (%d KiB left)", bytes>>10)
		case !off && faults > pages/8:
			t.Errorf("after the init's marks, allocating and touching %d KiB took %d faults (%d pages of 4 KiB)", bytes>>10, faults, pages)
		}
	}
}

var sink [][]byte

// TestInitChild is the process of TestInitBacksHeapStart: it prints what the package's init
// did and the faults of allocating and touching childBytes of small objects.
func TestInitChild(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		t.Skip("run by TestInitBacksHeapStart")
	}
	res := AtInit()
	bytes := childBytes
	if res.Collapsed+res.Marked > 0 {
		// Only what the init backed: from the heap's top now to the end of its chunk.
		end := (res.Top + heapChunk) &^ (heapChunk - 1)
		bytes = min(bytes, int(end)-int(heapTop())-256<<10)
	}
	f0 := minorFaults()
	for n, i := 0, 0; n < bytes; i++ {
		size := 16 << (i % 7) // 16 … 1024 bytes
		b := make([]byte, size)
		for j := 0; j < size; j += 512 {
			b[j] = 1
		}
		sink = append(sink, b)
		n += size
	}
	fmt.Printf("child: collapsed=%d marked=%d bytes=%d faults=%d reason=%q\n", res.Collapsed, res.Marked, bytes, minorFaults()-f0, res.Reason)
}
