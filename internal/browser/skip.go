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
	b, err := New()
	if errors.Is(err, ErrNotFound) && os.Getenv("SDCBENCH_REQUIRE_BROWSER") != "1" {
		tb.Skipf("skipped: %v", err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
