//go:build unix

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestProtectReportPipedInput: an input read from a pipe (--in /dev/stdin) cannot be read
// again, so the report hashes the bytes protect kept while reading it.
func TestProtectReportPipedInput(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(binary, "protect", "--method", "mdav", "--in", "/dev/stdin", "--columns", "income,expend",
		"--out", "m.csv", "--report", "r.json", "--quiet")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(mixedFile)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protect: %v: %s", err, out)
	}
	r := readReport(t, filepath.Join(dir, "r.json"))
	h := sha256.Sum256([]byte(mixedFile))
	if r.Input.Path != "/dev/stdin" || r.Input.SHA256 != hex.EncodeToString(h[:]) || !strings.Contains(r.Input.HashOf, "pipe") {
		t.Errorf("input %+v, want /dev/stdin with the SHA-256 of the bytes piped in, %x", r.Input, h)
	}
}
