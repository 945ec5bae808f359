package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/internal/hugeheap"
)

// censusChildEnv names the census step a child process of freshCensusStep runs, as "n:step"
// ("n:step:huge" to reserve a huge-page heap first, as `sdcbench eval` does).
const censusChildEnv = "SDCBENCH_CENSUS_CHILD"

// censusCSVBytes is about the size of the census table as a CSV file per record (33 MB at
// 10^6): what `sdcbench eval` sizes its huge-page heap reservation from.
const censusCSVBytes = 33

// censusReserve reserves the huge-page heap `sdcbench eval` would reserve for one census file
// of n records (hugeheap.ReserveForInput; eval, given two files, reserves twice that) and
// returns what hugeheap.Reserve did.
func censusReserve(n int) (hugeheap.Result, error) {
	return hugeheap.ReserveForInput(int64(censusCSVBytes * n))
}

// freshCensusStep runs the census step name (censusSteps) on censusTable(n) once in a new
// process — this test binary again, running only TestCensusFreshChild — and returns that call's
// CPU seconds, the minor page faults it took and its check value. That is the first call in a
// fresh process, the heap's growth included, as a command-line run pays it; the table's
// generation (the counterpart of sdcMicro's read.csv) is outside the timing. A step timed
// after other steps in one process reuses their memory and costs less (docs/datapath.md
// "Census scale against sdcMicro").
//
// With huge, the child first reserves the huge-page heap that `sdcbench eval` reserves before it
// reads its files (censusReserve; docs/datapath.md "Fresh memory: huge pages"), so the call is
// timed as the command line runs it on Linux.
func freshCensusStep(t *testing.T, n int, name string, huge bool) (cpu float64, faults int64, value float64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestCensusFreshChild$", "-test.count", "1")
	spec := fmt.Sprintf("%d:%s", n, name)
	if huge {
		spec += ":huge"
	}
	cmd.Env = append(os.Environ(), censusChildEnv+"="+spec)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("census step %s at n=%d in a new process: %v\n%s", name, n, err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) != 4 || f[0] != "census-child" {
			continue
		}
		var err1, err2, err3 error
		cpu, err1 = strconv.ParseFloat(f[1], 64)
		faults, err2 = strconv.ParseInt(f[2], 10, 64)
		value, err3 = strconv.ParseFloat(f[3], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			break
		}
		return cpu, faults, value
	}
	t.Fatalf("census step %s at n=%d: no result line from the child process:\n%s", name, n, out)
	return 0, 0, 0
}

// TestCensusFreshChild is the child process of freshCensusStep: with SDCBENCH_CENSUS_CHILD set
// to "n:step" it generates censusTable(n), collects the garbage of doing so, calls the step
// once and prints "census-child CPU-s minor-faults value" (value with 17 significant digits, so
// the parent reads the exact float back). Skipped otherwise.
func TestCensusFreshChild(t *testing.T) {
	spec := os.Getenv(censusChildEnv)
	if spec == "" {
		t.Skip("child process of freshCensusStep only")
	}
	ns, name, ok := strings.Cut(spec, ":")
	n, err := strconv.Atoi(ns)
	if !ok || err != nil || n < 1 {
		t.Fatalf("%s=%q: want n:step or n:step:huge", censusChildEnv, spec)
	}
	if name, ok = strings.CutSuffix(name, ":huge"); ok {
		if _, err := censusReserve(n); err != nil {
			t.Fatal(err)
		}
	}
	for _, st := range censusSteps(censusTable(n)) {
		if st.name != name {
			continue
		}
		runtime.GC()
		c0, f0 := cpuSeconds(), minorFaults()
		v, err := st.run()
		cpu, faults := cpuSeconds()-c0, minorFaults()-f0
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "census-child %.6f %d %s\n", cpu, faults, strconv.FormatFloat(v, 'g', 17, 64))
		// SDCBENCH_CENSUS_CALLS=k times k−1 further calls (to compare a first call with the
		// next ones in the same process), each after a collection, as "census-child-again".
		calls, _ := strconv.Atoi(os.Getenv("SDCBENCH_CENSUS_CALLS"))
		for range calls - 1 {
			runtime.GC()
			c0, f0 := cpuSeconds(), minorFaults()
			if _, err := st.run(); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&buf, "census-child-again %.6f %d\n", cpuSeconds()-c0, minorFaults()-f0)
		}
		os.Stdout.Write(buf.Bytes())
		return
	}
	t.Fatalf("%s=%q: no census step %q", censusChildEnv, spec, name)
}

// TestCensusFresh logs the CPU seconds and minor page faults of the census steps (frequency,
// ind_risk_mean, global_risk_er), each the first call in a fresh process (freshCensusStep),
// SDCBENCH_CENSUS_REPS times (default 3) at the sizes of SDCBENCH_CENSUS_SDC_N (default
// 100000), alternating the steps. Needs SDCBENCH_LONG=1.
func TestCensusFresh(t *testing.T) {
	if os.Getenv("SDCBENCH_LONG") == "" {
		t.Skip("set SDCBENCH_LONG=1 to time the census steps in fresh processes")
	}
	reps := 3
	if s := os.Getenv("SDCBENCH_CENSUS_REPS"); s != "" {
		var err error
		if reps, err = strconv.Atoi(s); err != nil || reps < 1 {
			t.Fatalf("SDCBENCH_CENSUS_REPS=%q: want a count ≥ 1", s)
		}
	}
	t.Logf("transparent huge pages: %s", transparentHugePages())
	for _, n := range censusSizes(t) {
		for r := 0; r < reps; r++ {
			for _, name := range censusStepNames[:3] {
				for _, huge := range []bool{false, true} {
					cpu, faults, v := freshCensusStep(t, n, name, huge)
					t.Logf("n=%d %s%s: %.3f CPU-s, %d minor faults, value %.10g", n, name, hugeLabel(huge), cpu, faults, v)
				}
			}
		}
	}
}

// hugeLabel names the heap of a fresh census step in the logs.
func hugeLabel(huge bool) string {
	if huge {
		return " (huge-page heap, as eval)"
	}
	return ""
}

// TestCensusStepNames checks that censusStepNames names censusSteps in order.
func TestCensusStepNames(t *testing.T) {
	var got []string
	for _, st := range censusSteps(censusTable(10)) {
		got = append(got, st.name)
	}
	if strings.Join(got, ",") != strings.Join(censusStepNames, ",") {
		t.Errorf("censusSteps are %v, censusStepNames %v", got, censusStepNames)
	}
}
