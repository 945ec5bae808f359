package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func writeFile(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStatsEdgeFiles is issue 25 ("Hangs, crashes…"): a header-only file is a clear error (no
// panic) for every stats test, duplicate column names are refused naming them, and the warnings
// of a test are printed on stderr.
func TestStatsEdgeFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "xy.csv", "x,y\n")
	writeFile(t, dir, "ab.csv", "a,b\n")
	writeFile(t, dir, "p.csv", "p\n")
	writeFile(t, dir, "dup.csv", "x,y,x\n1,2,3\n4,5,6\n")
	writeFile(t, dir, "small.csv", "x,y\n1,2\n4,5\n")
	for _, args := range [][]string{{"wilcoxon", "xy.csv"}, {"wilcoxon", "--paired", "xy.csv"},
		{"friedman", "ab.csv"}, {"adjust", "p.csv"}} {
		_, e, code := sdcbench(t, dir, append([]string{"stats"}, args...)...)
		checkError(t, strings.Join(args, " "), e, code, []string{args[len(args)-1], "no data rows"})
	}
	_, e, code := sdcbench(t, dir, "stats", "wilcoxon", "dup.csv")
	checkError(t, "duplicate", e, code, []string{"dup.csv", "duplicate column", `"x"`})
	out, e, code := sdcbench(t, dir, "stats", "wilcoxon", "small.csv")
	if code != 0 || !strings.Contains(e, "warning: too few observations") || !strings.Contains(out, "too few") {
		t.Errorf("warnings: exit %d, stderr %q", code, e)
	}
}

// TestInputSizeCaps is issue 25: `protect --in /dev/zero` and a single-line CSV longer than
// datasets.MaxRecordBytes end in an error naming the file and the limit, not out of memory.
func TestInputSizeCaps(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "line.csv", "a,b\n"+strings.Repeat("1", 17<<20)+",2\n")
	for _, in := range []string{"line.csv", "/dev/zero"} {
		if _, err := os.Stat(filepath.Join(dir, in)); in == "/dev/zero" && err != nil {
			if _, err := os.Stat(in); err != nil {
				continue
			}
		}
		_, e, code := sdcbench(t, dir, "protect", "--method", "mdav", "--in", in, "--out", "m.csv")
		checkError(t, in, e, code, []string{in, "longer than 16 MiB"})
	}
	_, e, code := sdcbench(t, dir, "stats", "wilcoxon", "line.csv")
	checkError(t, "stats", e, code, []string{"line.csv", "longer than 16 MiB"})
}

// signalAfter starts the binary with args in dir, sends sig after wait and returns the time it
// took to exit after the signal, its exit code and stderr.
// waitCaught waits, up to 10 s, until the process pid catches sig (the SigCgt mask of
// /proc/PID/status): the Go runtime of the child has started. The caller's wait then counts
// from there, not from the exec, which on a loaded machine took over 500 ms once and let the
// signal arrive before the command's handler (signal.NotifyContext in main) and kill it.
// Without /proc it returns at once.
func waitCaught(pid int, sig os.Signal) {
	n, ok := sig.(syscall.Signal)
	if !ok {
		return
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return
		}
		for _, line := range strings.Split(string(b), "\n") {
			if hex, found := strings.CutPrefix(line, "SigCgt:"); found {
				mask, err := strconv.ParseUint(strings.TrimSpace(hex), 16, 64)
				if err != nil || mask&(1<<(uint(n)-1)) != 0 {
					return
				}
			}
		}
	}
}

func signalAfter(t *testing.T, dir string, sig os.Signal, wait time.Duration, args ...string) (time.Duration, int, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	var e strings.Builder
	cmd.Stderr = &e
	stdin, err := cmd.StdinPipe() // held open: a read of stdin blocks
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitCaught(cmd.Process.Pid, sig)
	time.Sleep(wait)
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v: still running 20 s after the signal", args)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return time.Since(sent), code, e.String()
}

// TestSignalStopsLoops is issue 25: SIGINT and SIGTERM stop `stats wilcoxon --exact yes` (its
// exact distribution checks the context) within about a second, and a `protect --in` blocked
// reading a pipe within the grace period (the process exits when a command is still busy
// interruptGrace after the signal).
func TestSignalStopsLoops(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := 0; i < 4000; i++ { // distinct non-zero differences: the exact signed-rank distribution
		b.WriteString(ftoa(float64(i+1)) + ",0\n")
	}
	writeFile(t, dir, "big.csv", b.String())
	// Past stats.MaxExact values the exact distribution is not built at all (the normal
	// approximation, with a warning), so the command ends at once.
	start := time.Now()
	_, e, code := sdcbench(t, dir, "stats", "wilcoxon", "--paired", "--exact", "yes", "big.csv")
	if code != 0 || time.Since(start) > 5*time.Second || !strings.Contains(e, "too large for the exact distribution") {
		t.Errorf("stats wilcoxon --exact yes on 4000 pairs: exit %d after %v, %q", code, time.Since(start), e)
	}
	took, code, e := signalAfter(t, dir, os.Interrupt, time.Second, "protect", "--method", "mdav", "--in", "/dev/stdin", "--out", "m.csv")
	if code != 1 || took > interruptGrace+time.Second || !strings.Contains(e, "interrupted") {
		t.Errorf("protect --in a pipe: exit %d %v after SIGINT, %q", code, took, e)
	}
}
