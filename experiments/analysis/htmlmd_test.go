package analysis

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestMarkdownBlocks checks the Markdown reader on the constructs the reports write: exact HTML
// per case, text escaped, links to other sites written as text.
func TestMarkdownBlocks(t *testing.T) {
	for _, c := range []struct {
		name, md string
		want     string // the blocks, one per line: kind and HTML or cells
	}{
		{"heading", "## Risk–utility trade-off", "h2#risk-utility-trade-off Risk–utility trade-off"},
		{"paragraph", "a `b<c` **d & e**\nf", "p a <code>b&lt;c</code> <strong>d &amp; e</strong>\nf"},
		{"local link", "see [best.csv](best.csv) and [docs](../../docs/analysis.md#x)", `p see <a href="best.csv">best.csv</a> and <a href="../../docs/analysis.md#x">docs</a>`},
		{"other site", "[R](https://www.r-project.org) [m](mailto:a@b) [h](//host/x)", "p R (https://www.r-project.org) m (mailto:a@b) h (//host/x)"},
		{"script", "<script>alert(1)</script>", "p &lt;script&gt;alert(1)&lt;/script&gt;"},
		{"list", "- one\n- `two`\n  more\ntext", "ul one | <code>two</code> more\np text"},
		{"table", "| a | b | c |\n|---|---:|---|\n| x |  | 1.5 |\n| y | – | 2e-3 |\nafter", "table a,b,c [false true true] x,,1.5 | y,–,2e-3\np after"},
		{"figure", "![box](plots/box_x.png)", "figure plots/box_x.png box"},
		{"remote image", "![x](http://h/x.png)", "p x (http://h/x.png)"},
		{"code", "```\na < b\n```", "pre a < b"},
		{"heading after table", "| a |\n|---|\n| 1 |\n## Next", "table a [true] 1\nh2#next Next"},
	} {
		var got []string
		for _, b := range parseMarkdown(c.md, map[string]int{}) {
			switch b.Kind {
			case "h":
				got = append(got, fmt.Sprintf("h%d#%s %s", b.Level, b.ID, b.HTML))
			case "p":
				got = append(got, "p "+string(b.HTML))
			case "ul":
				var items []string
				for _, it := range b.Items {
					items = append(items, string(it))
				}
				got = append(got, "ul "+strings.Join(items, " | "))
			case "pre":
				got = append(got, "pre "+b.Text)
			case "figure":
				got = append(got, "figure "+b.Src+" "+b.Text)
			case "table":
				cells := func(r []htmlCell) string {
					var s []string
					for _, c := range r {
						s = append(s, string(c.HTML))
					}
					return strings.Join(s, ",")
				}
				var rows []string
				for _, r := range b.Table.Rows {
					rows = append(rows, cells(r))
				}
				got = append(got, fmt.Sprintf("table %s %v %s", cells(b.Table.Header), b.Table.Numeric, strings.Join(rows, " | ")))
			}
		}
		if g := strings.Join(got, "\n"); g != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, g, c.want)
		}
	}
}

// TestUniqueIDs checks that headings of the same text get distinct anchors.
func TestUniqueIDs(t *testing.T) {
	ids := map[string]int{}
	var got []string
	for _, s := range []string{"Wins", "Wins", "`x` **y**", "–", "Wins"} {
		got = append(got, uniqueID(ids, s))
	}
	if want := []string{"wins", "wins-2", "x-y", "section", "wins-3"}; !slices.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}
