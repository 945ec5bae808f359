package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// TestStartupInitWork guards the start-up of every sdcbench process (docs/datapath.md
// "Start-up"): the init functions of sdcbench's own packages, as GODEBUG=inittrace=1 reports
// them, allocate at most 1,600 times and 220 KB (1,128 and 147 KB when this test was written,
// from 3,942 and 349 KB before the dataset sets, the lazy metric tables and the Eisel–Lemire
// table from shortPows). A registration that builds tables, formats strings or parses data
// at init again shows here; build it on first use instead. The probe of internal/hugeheap/early
// (one allocation of earlyProbe bytes that finds the top of the heap and is never touched:
// address space, not work) is not counted.
// earlyProbe is internal/hugeheap/early's probeSize.
const earlyProbe = 128 << 10

func TestStartupInitWork(t *testing.T) {
	cmd := exec.Command(binary, "no-such-command")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, _ := cmd.CombinedOutput() // exits 2: unknown command
	line := regexp.MustCompile(`(?m)^init (github\.com/sdcbench/sdcbench/\S*) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)
	var bytes, allocs, pkgs int
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		b, _ := strconv.Atoi(m[2])
		a, _ := strconv.Atoi(m[3])
		if m[1] == "github.com/sdcbench/sdcbench/internal/hugeheap/early" && b >= earlyProbe {
			b, a = b-earlyProbe, a-1
		}
		bytes += b
		allocs += a
		pkgs++
	}
	if pkgs < 20 {
		t.Fatalf("inittrace reported %d sdcbench packages, want the 20 or more linked in:\n%s", pkgs, out)
	}
	t.Logf("init of %d sdcbench packages: %d bytes in %d allocations", pkgs, bytes, allocs)
	if allocs > 1600 || bytes > 220_000 {
		t.Errorf("init of sdcbench's packages allocates %d bytes in %d allocations, want at most 220,000 in 1,600", bytes, allocs)
	}
}
