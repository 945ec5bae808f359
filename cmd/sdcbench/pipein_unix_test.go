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
