package browser

import (
	"errors"
	"os"
	"testing"
)

// ForTest returns a Browser for a test, or skips the test, naming the missing package, when no
// Chromium is installed (ErrNotFound). A browser asked for is never skipped silently: an
// SDCBENCH_CHROMIUM that does not exist fails the test, and so does a missing browser when
// SDCBENCH_REQUIRE_BROWSER=1 (set by .ci/run).
func ForTest(tb testing.TB) *Browser {
	tb.Helper()
	return forTest(tb, Find, os.Getenv)
}

// forTest is ForTest with its lookup and environment given.
func forTest(tb testing.TB, find func() (string, error), getenv func(string) string) *Browser {
	tb.Helper()
	path, err := find()
	if errors.Is(err, ErrNotFound) && getenv("SDCBENCH_REQUIRE_BROWSER") != "1" {
		tb.Skipf("skipped: %v", err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return &Browser{Path: path}
}
