package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/internal/browser"
)

// TestHTMLInBrowser renders the report.html of an analysed folder (testdata/small with plots)
// in headless Chromium (internal/browser; skipped with a message when none is installed): the
// page loads without an error and without fetching anything, the browser finds every table,
// inline plot, glance card and summary row the page was written with, two clicks on a heading
// of the summary table sort it descending, and the screenshot is not blank.
func TestHTMLInBrowser(t *testing.T) {
	b := browser.ForTest(t)
	dir, _, _, page := analysedSmall(t)
	src := string(page)
	summary := readCSVFile(t, filepath.Join(dir, "summary.csv"))

	// The click test runs in a copy, so the page under test stays the one analyze wrote.
	sorter := `<script>window.addEventListener("load",function(){var th=document.querySelector("#summary-csv thead th");th.click();th.click();` +
		`document.body.setAttribute("data-sort",th.getAttribute("aria-sort"));});</script></body>`
	path := filepath.Join(dir, "report-click.html")
	if err := os.WriteFile(path, []byte(strings.Replace(src, "</body>", sorter, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"table.sortable":               strings.Count(src, `<table class="sortable"`),
		"figure svg":                   strings.Count(src, "<figure") - strings.Count(src, `<img src="data:`),
		"section.card":                 strings.Count(src, `class="card"`),
		"#summary-csv tbody tr":        len(summary) - 1,
		"#at-a-glance":                 1,
		`body[data-sort="descending"]`: 1,
	}
	if want["figure svg"] == 0 || want["table.sortable"] == 0 || want["section.card"] == 0 {
		t.Fatalf("the analysed page has no figure, table or card to look for: %v", want)
	}
	b.CheckPage(t, path, want)
}
