package experiments

import (
	"os"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// HoldLockForTest takes the run lock of dir, as a running Execute holds it, and returns its
// release (for the tests of package experiments_test).
func HoldLockForTest(t *testing.T, dir string) func() {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	unlock, err := resultsdir.Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	return unlock
}
