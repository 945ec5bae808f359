package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGzipRoundTrip: a large table is stored as .gz, read back transparently, and unpacked
// again when a run resumes into the folder.
func TestGzipRoundTrip(t *testing.T) {
	dir := t.TempDir()
	var big bytes.Buffer
	big.WriteString("run_id,iter,best,mean,seconds\n")
	for big.Len() <= gzipAbove {
		big.WriteString("0123456789abcdef,1,0.5,0.75,0.001\n")
	}
	path := filepath.Join(dir, TracesFile)
	if err := writeMaybeGz(path, big.Bytes()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("plain file kept beside the .gz")
	}
	tab, err := ReadTable(path)
	if err != nil || len(tab.Rows) != strings.Count(big.String(), "\n")-1 {
		t.Fatalf("read back: %v", err)
	}
	// small data replaces a stale .gz
	if err := writeMaybeGz(path, []byte("run_id,iter,best,mean,seconds\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".gz"); !os.IsNotExist(err) {
		t.Fatal("stale .gz kept")
	}
}

// HoldLockForTest takes the run lock of dir, as a running Execute holds it, and returns its
// release (for the tests of package experiments_test).
func HoldLockForTest(t *testing.T, dir string) func() {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	unlock, err := lockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return unlock
}
