package releasereport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/internal/browser"
)

// TestPageInBrowser renders release reports in headless Chromium (internal/browser; skipped
// with a message when none is installed): the page loads without an error and without
// fetching anything, its tables and number cells are all there, sorting a table by a click
// works, and its screenshot is not blank.
func TestPageInBrowser(t *testing.T) {
	b := browser.ForTest(t)
	dir := t.TempDir()
	rs := reports(t)
	for _, name := range []string{"local_supp internal", "local_supp external", "mdav", "pram", "noise with NA"} {
		r := rs[name]
		t.Run(name, func(t *testing.T) {
			page, _ := render(t, r)
			// A click on the first heading of the risk table must sort it ascending by
			// measure name: a script appended to a copy clicks and records the order.
			sorter := `<script>window.addEventListener("load",function(){var th=document.querySelector("#columns-table thead th");th.click();th.click();` +
				`var names=[],rows=document.querySelectorAll("#columns-table tbody tr");for(var i=0;i<rows.length;i++)names.push(rows[i].cells[0].textContent);` +
				`document.body.setAttribute("data-sorted",names.join(","));});</script></body>`
			path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".html")
			if err := os.WriteFile(path, []byte(strings.Replace(page, "</body>", sorter, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			want := map[string]int{
				"section":                      5, // summary, data, method, loss, changes
				"table.sortable":               3, // columns, loss, changes; risk, linkage, … below
				"#columns-table tbody tr":      len(r.Columns),
				"#loss-table tbody tr":         len(r.Loss),
				"#changes-table tbody tr":      len(r.Changes),
				"[data-key]":                   strings.Count(page, "data-key="),
				"#risk-table tbody tr":         0,
				"#linkage-table tbody tr":      len(r.Linkage),
				"#highest-table tbody tr":      0,
				"table.matrix":                 0,
				"#frequencies table tbody tr":  0,
				"nav a":                        5,
				`body[data-sorted]`:            1,
				"#summary-table tbody tr":      1,
				"table.sortable th[aria-sort]": 1,
			}
			if r.Risk != nil {
				want["section"]++
				want["table.sortable"]++
				want["nav a"]++
				want["#risk-table tbody tr"] = len(r.Risk.Measures)
				for _, m := range r.Risk.Measures {
					if summaryRisk[m.ID] {
						want["#summary-table tbody tr"]++
					}
				}
				if len(r.Risk.Highest) > 0 {
					want["table.sortable"]++
					want["#highest-table tbody tr"] = len(r.Risk.Highest)
				}
			}
			if r.Linkage != nil {
				want["section"]++
				want["table.sortable"]++
				want["nav a"]++
				want["#summary-table tbody tr"]++ // dbrl
			}
			for _, m := range r.Loss {
				if summaryLoss[m.ID] {
					want["#summary-table tbody tr"]++
				}
			}
			if r.PRAM != nil {
				want["section"]++
				want["nav a"]++
				want["table.matrix"] = len(r.PRAM.Matrices)
			}
			if r.Frequencies != nil {
				want["section"]++
				want["nav a"]++
				want["table.sortable"] += len(r.Frequencies)
				for _, f := range r.Frequencies {
					want["#frequencies table tbody tr"] += len(f.Categories)
				}
			}
			if r.Notes != nil {
				want["section"]++
				want["nav a"]++
			}
			p := b.CheckPage(t, path, want)
			if p.Title != r.Title {
				t.Errorf("title %q, want %q", p.Title, r.Title)
			}
			// Two clicks on "column": descending by name.
			var names []string
			for _, c := range r.Columns {
				names = append(names, c.Name)
			}
			sortDesc(names)
			if !strings.Contains(p.DOM, `data-sorted="`+strings.Join(names, ",")+`"`) {
				t.Errorf("after two clicks the columns table is not sorted by name, descending (%s)", strings.Join(names, ","))
			}
		})
	}
}

// sortDesc sorts names descending as the page's localeCompare does for plain ASCII names.
func sortDesc(names []string) {
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && strings.ToLower(names[j]) > strings.ToLower(names[j-1]); j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
}
