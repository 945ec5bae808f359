//go:build linux

package early

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"unsafe"

	"github.com/sdcbench/sdcbench/internal/hugeheap/thp"
)

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
	if mode, ok := thp.Mode(thp.EnabledFile); !ok || mode != "madvise" {
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
	page := uintptr(thp.PageSize(thp.PageSizeFile))
	if page != 2<<20 {
		t.Skipf("huge pages of %d bytes", page)
	}
	for _, c := range []struct {
		top               uintptr // offset in the chunk
		untouched         bool    // nothing below top was touched: marked, not collapsed
		collapsed, marked int
	}{
		{300 << 10, false, 2 << 20, 2 << 20},
		{2 << 20, false, 2 << 20, 2 << 20},
		{3<<20 + 8<<10, false, 4 << 20, 0},
		{4 << 20, false, 4 << 20, 4 << 20}, // the probe at top took a new chunk, mapped to its end
		{300 << 10, true, 0, 4 << 20},
	} {
		m, err := syscall.Mmap(-1, 0, 3*heapChunk, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			t.Skipf("mmap: %v", err)
		}
		start := uintptr(unsafe.Pointer(&m[0]))
		base := (start + heapChunk - 1) &^ (heapChunk - 1)
		chunk := m[base-start : base-start+heapChunk]
		for i := uintptr(0); i < c.top && !c.untouched; i += 3 * 4096 { // every third page below top
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
		f0 := minorFaults()
		for i := 0; i < heapChunk; i += 4096 {
			chunk[i] += 2
		}
		if f := minorFaults() - f0; f > 4 {
			t.Errorf("top at %d KiB: touching the %d pages of the chunk after backAt took %d faults, want at most one per huge page", c.top>>10, heapChunk/4096, f)
		}
		for i := uintptr(0); i < heapChunk; i += 4096 {
			want := byte(2)
			if i < c.top && i%(3*4096) == 0 && !c.untouched {
				want = byte(i>>12) | 1 + 2
			}
			if chunk[i] != want {
				t.Fatalf("top at %d KiB: byte %d is %d after backAt, want %d", c.top>>10, i, chunk[i], want)
			}
		}
		syscall.Munmap(m)
	}
}

const (
	childEnv   = "EARLY_TEST_CHILD"
	childBytes = 1 << 20
)

// TestInitBacksHeapStart checks the package's init in fresh processes (the test binary itself,
// TestInitChild): after it, touching up to 1 MiB of fresh slices in what the init backed takes
// at most a quarter of the faults it takes with SDCBENCH_HUGEPAGES=0 (the control: one per
// 4 KiB page, which shows that the count can tell); with huge pages it is one per 2 MiB.
func TestInitBacksHeapStart(t *testing.T) {
	needMadvise(t)
	var control float64 // faults per 4 KiB page without the init's marks
	for _, off := range []bool{true, false} {
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
			t.Fatalf("without the init's marks: %d faults for %d pages; the count cannot tell huge pages from small ones here", faults, pages)
		case off:
			control = float64(faults) / float64(pages)
		case collapsed+marked == 0:
			t.Skipf("the init collapsed and marked nothing (%s)", mm[5])
		case pages < 64:
			t.Skipf("the test's own start filled the chunk the init backed (%d KiB left)", bytes>>10)
		case float64(faults) > control*float64(pages)/4:
			t.Errorf("after the init's marks, allocating and touching %d KiB took %d faults (%d pages of 4 KiB; the control took %.2f a page)", bytes>>10, faults, pages, control)
		}
	}
}

var sink [][]byte

// TestInitChild is the process of TestInitBacksHeapStart: it prints what the package's init
// did and the faults of touching, page by page, the slices of 128 KiB it allocates (up to
// childBytes of them) that lie in what the init backed: the huge pages from the heap chunk
// below Result.Top to the end of Top's chunk (all of them in the control). Slices of that size
// come from the page allocator, fresh and so not cleared: only the touch faults.
func TestInitChild(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		t.Skip("run by TestInitBacksHeapStart")
	}
	res := AtInit()
	lo, hi := uintptr(0), ^uintptr(0)
	if res.Collapsed+res.Marked > 0 {
		lo = (res.Top - 1) &^ (heapChunk - 1)
		hi = (res.Top + heapChunk) &^ (heapChunk - 1)
	}
	const size = 128 << 10
	var faults int64
	bytes := 0
	for range 64 {
		if bytes >= childBytes {
			break
		}
		b := make([]byte, size)
		sink = append(sink, b)
		p := uintptr(unsafe.Pointer(&b[0]))
		if p < lo || p+size > hi {
			continue
		}
		f0 := minorFaults()
		for j := 0; j < size; j += 4096 {
			b[j] = 1
		}
		faults += minorFaults() - f0
		bytes += size
	}
	fmt.Printf("child: collapsed=%d marked=%d bytes=%d faults=%d reason=%q\n", res.Collapsed, res.Marked, bytes, faults, res.Reason)
}
