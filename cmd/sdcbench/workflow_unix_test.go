//go:build unix

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestProtectInFIFO: protect --in reads a FIFO or a pipe once (it used to open it twice and
// report the second, empty reading as "empty file"), and the strict second parse still names
// the row of a missing number.
func TestProtectInFIFO(t *testing.T) {
	dir := t.TempDir()
	const good = "a,b\n1,2\n3,4\n5,7\n6,1\n8,8\n9,3\n"
	fifo := filepath.Join(dir, "in.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString(good)
		f.Close()
	}()
	// A second opening of the FIFO would wait for a writer for ever: bound the command.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "protect", "--method", "mdav", "--param", "k=3", "--in", fifo, "--out", "m.csv")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protect --in FIFO: %v: %s", err, b)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "m.csv")); err != nil || strings.Count(string(b), "\n") != 7 {
		t.Fatalf("m.csv: %q %v", b, err)
	}
	// A pipe (standard input), with a missing number: vmdav's refusal (mdav would aggregate it).
	run := func(input string) (string, int) {
		cmd := exec.Command(binary, "protect", "--method", "vmdav", "--param", "k=3", "--in", "/dev/stdin", "--out", "p.csv")
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(input)
		var errb strings.Builder
		cmd.Stderr = &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return errb.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return errb.String(), 0
	}
	if e, code := run(good); code != 0 {
		t.Fatalf("protect --in /dev/stdin: exit %d: %s", code, e)
	}
	e, code := run("a,b\n1,2\n3,\n5,7\n6,1\n8,8\n9,3\n")
	checkError(t, "missing number from a pipe", e, code, []string{`vmdav: column "b" has 1 missing value`})
	if strings.Contains(e, "empty file") {
		t.Errorf("pipe read twice: %s", e)
	}
}
