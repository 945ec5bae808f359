//go:build unix

package main

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalStopsPipeReadPromptly: SIGINT or SIGTERM stops `protect --in` and `eval --orig`
// blocked reading a pipe at once (the read's deadline is set on the signal), with an error
// saying what was interrupted, not after the 2 s backstop that exits a still busy process.
func TestSignalStopsPipeReadPromptly(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		sig  os.Signal
		args []string
	}{
		{os.Interrupt, []string{"protect", "--method", "mdav", "--in", "/dev/stdin", "--out", "m.csv"}},
		{syscall.SIGTERM, []string{"eval", "--orig", "/dev/stdin", "--masked", "m.csv", "--metrics", "il1s"}},
	} {
		took, code, e := signalAfter(t, dir, c.sig, 500*time.Millisecond, c.args...)
		if code != 1 || took > interruptGrace/2 || !strings.Contains(e, "interrupted while reading /dev/stdin") {
			t.Errorf("%s: exit %d %v after %v, %q; want exit 1 within %v, interrupted while reading",
				c.args[0], code, took, c.sig, e, interruptGrace/2)
		}
	}
}

// TestSignalStopsMeasure: SIGINT stops `eval` inside a long measure (an attack of 20,000
// targets, each against 20,000 release rows) at once, through the measure's context, with an
// error naming the measure, not after the 2 s backstop.
func TestSignalStopsMeasure(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a,b,c\n")
	for i := 0; i < 20000; i++ {
		b.WriteString(ftoa(float64(i%997)) + "," + ftoa(float64(i%1009)) + "," + ftoa(float64(i%17)) + "\n")
	}
	writeFile(t, dir, "big.csv", b.String())
	took, code, e := signalAfter(t, dir, os.Interrupt, 700*time.Millisecond, "eval", "--orig", "big.csv", "--masked", "big.csv",
		"--metrics", "linkability", "--metric-opt", "aux=a", "--metric-opt", "aux2=b,c", "--metric-opt", "attacks=20000")
	if code != 1 || took > interruptGrace/2 || !strings.Contains(e, "interrupted while computing linkability") {
		t.Errorf("eval linkability: exit %d %v after SIGINT, %q; want exit 1 within %v naming the measure", code, took, e, interruptGrace/2)
	}
}
