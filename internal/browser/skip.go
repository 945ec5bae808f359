package browser

import (
	"context"
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

// CheckPage loads the self-contained page at path and reports to tb what a reader would meet
// wrong: an error the page raised, a resource it fetched, a selector of want matching another
// number of elements than want says, or a blank screenshot. It returns the page for further
// checks; a browser that cannot load the page fails the test.
func (b *Browser) CheckPage(tb testing.TB, path string, want map[string]int) *Page {
	tb.Helper()
	sels := make([]string, 0, len(want))
	for s := range want {
		sels = append(sels, s)
	}
	p, err := b.Load(context.Background(), path, sels...)
	if err != nil {
		tb.Fatal(err)
	}
	if len(p.Errors) > 0 {
		tb.Errorf("the page raised errors: %q", p.Errors)
	}
	if len(p.Resources) > 0 {
		tb.Errorf("the page fetched %q", p.Resources)
	}
	for s, n := range want {
		if p.Counts[s] != n {
			tb.Errorf("%d elements match %q, want %d", p.Counts[s], s, n)
		}
	}
	if err := NotBlank(p.Screenshot); err != nil {
		tb.Error(err)
	}
	return p
}
