package browser_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/sdcbench/sdcbench/internal/browser"
)

// A test of a generated page: no error, nothing fetched, the tables and plots there, a
// screenshot that is not blank.
func ExampleBrowser_Load() {
	var t *testing.T // the test's
	b := browser.ForTest(t)
	p, err := b.Load(context.Background(), "results/x/report.html", "table", "svg", "table.sortable")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Errors) > 0 || len(p.Resources) > 0 {
		t.Errorf("errors %q, fetched %q", p.Errors, p.Resources)
	}
	if p.Counts["svg"] == 0 {
		t.Error("no plot")
	}
	if err := browser.NotBlank(p.Screenshot); err != nil {
		t.Error(err)
	}
	fmt.Println(p.Counts["table"])
}
