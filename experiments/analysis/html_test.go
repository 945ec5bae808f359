package analysis

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// htmlNode is an element of a parsed report.html: its name, attributes, text and children.
type htmlNode struct {
	Name     string
	Attr     map[string]string
	Text     string // the text of the element and its descendants
	Children []*htmlNode
	Parent   *htmlNode
}

// parseHTML parses the page with encoding/xml in its lenient HTML mode (HTMLAutoClose for the
// void elements, HTMLEntity for the named entities): the page is written to parse as XML too
// (CDATA-wrapped style and script, closed elements), and an unbalanced tag fails the test.
func parseHTML(t *testing.T, page []byte) *htmlNode {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	root := &htmlNode{Name: "#root"}
	cur := root
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("report.html does not parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &htmlNode{Name: tok.Name.Local, Attr: map[string]string{}, Parent: cur}
			for _, a := range tok.Attr {
				name := a.Name.Local
				if a.Name.Space != "" {
					name = a.Name.Space + ":" + name
				}
				n.Attr[name] = a.Value
			}
			cur.Children = append(cur.Children, n)
			cur = n
		case xml.EndElement:
			if cur.Name != tok.Name.Local {
				t.Fatalf("report.html: </%s> closes <%s>", tok.Name.Local, cur.Name)
			}
			cur = cur.Parent
		case xml.CharData:
			for n := cur; n != nil; n = n.Parent {
				n.Text += string(tok)
			}
		}
	}
	if cur != root {
		t.Fatalf("report.html: <%s> is not closed", cur.Name)
	}
	return root
}

// all returns the elements named name under n, in document order ("" for every element).
func (n *htmlNode) all(name string) []*htmlNode {
	var out []*htmlNode
	for _, c := range n.Children {
		if name == "" || c.Name == name {
			out = append(out, c)
		}
		out = append(out, c.all(name)...)
	}
	return out
}

func (n *htmlNode) byID(id string) *htmlNode {
	for _, e := range n.all("") {
		if e.Attr["id"] == id {
			return e
		}
	}
	return nil
}

func (n *htmlNode) text() string { return strings.Join(strings.Fields(n.Text), " ") }

// rows returns the body rows of a table: per row its td elements.
func (n *htmlNode) rows() [][]*htmlNode {
	var out [][]*htmlNode
	for _, tb := range n.all("tbody") {
		for _, tr := range tb.all("tr") {
			out = append(out, tr.all("td"))
		}
	}
	return out
}

func readCSVFile(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// analysedSmall runs the analysis with plots on a copy of testdata/small and returns the
// folder, the result and the parsed page.
func analysedSmall(t *testing.T) (string, *Result, *htmlNode, []byte) {
	t.Helper()
	dir := copyDir(t, filepath.Join("testdata", "small"))
	res, err := Quick(context.Background(), dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	return dir, res, parseHTML(t, page), page
}

var (
	externalURL = regexp.MustCompile(`(?i)^\s*([a-z][a-z0-9+.-]*:|//)`)
	cssURL      = regexp.MustCompile(`(?i)@import|url\(`)
)

// TestHTMLSelfContained checks that report.html loads nothing from outside itself: no src,
// href or other URL attribute with a scheme (data: images aside) or a host, no <link>,
// <iframe>, <object> or <embed>, no script loaded by src, no @import or url() in styles; and
// that every in-page link leads to an element of the page.
func TestHTMLSelfContained(t *testing.T) {
	_, res, doc, page := analysedSmall(t)
	if len(res.Plots) == 0 {
		t.Fatal("no plots")
	}
	ids := map[string]bool{}
	for _, e := range doc.all("") {
		if id := e.Attr["id"]; id != "" {
			if ids[id] {
				t.Errorf("id %q twice", id)
			}
			ids[id] = true
		}
	}
	for _, e := range doc.all("") {
		switch e.Name {
		case "link", "iframe", "object", "embed", "base", "frame", "audio", "video", "source":
			t.Errorf("<%s %v>: an element that loads a resource", e.Name, e.Attr)
		case "script":
			if _, ok := e.Attr["src"]; ok {
				t.Errorf("<script src=%q>", e.Attr["src"])
			}
		case "style":
			if cssURL.MatchString(e.Text) {
				t.Errorf("<style> has @import or url(): %s", e.Text)
			}
		}
		for name, v := range e.Attr {
			if strings.HasPrefix(name, "xmlns") {
				continue // a namespace name, never fetched
			}
			if name == "style" && cssURL.MatchString(v) {
				t.Errorf("<%s style=%q>: url() in a style", e.Name, v)
			}
			if !slices.Contains([]string{"src", "href", "xlink:href", "action", "poster", "srcset", "data", "background", "formaction"}, name) {
				continue
			}
			switch {
			case name == "src" && e.Name == "img" && strings.HasPrefix(v, "data:image/"):
			case externalURL.MatchString(v) || strings.HasPrefix(v, "/"):
				t.Errorf("<%s %s=%q>: not a resource of the page or the folder", e.Name, name, v)
			case strings.HasPrefix(v, "#") && !ids[v[1:]]:
				t.Errorf("<%s %s=%q>: no element has that id", e.Name, name, v)
			}
		}
	}
	if bytes.Contains(bytes.ToLower(page), []byte("http://")) && !bytes.Contains(page, []byte(`xmlns="http://www.w3.org/2000/svg"`)) {
		t.Error("the page names an http address")
	}
	// every figure inline, each linked from a table's section and linking back
	figs := doc.all("figure")
	if len(figs) != len(res.Plots) {
		t.Errorf("%d figures, want %d (the analysis's plots)", len(figs), len(res.Plots))
	}
	for _, f := range figs {
		if len(f.all("svg")) != 1 && len(f.all("img")) != 1 {
			t.Errorf("figure %s: no inline SVG or image", f.Attr["id"])
		}
	}
	linked := map[string]bool{}
	for _, a := range doc.all("a") {
		linked[a.Attr["href"]] = true
	}
	for _, f := range res.Plots {
		if strings.HasPrefix(f.Name, "traces") {
			continue // convergence traces have no table
		}
		if !linked["#plot-"+f.Name] {
			t.Errorf("no table or section links plot %s", f.Name)
		}
	}
	// every table sortable, and the script that sorts them present
	for _, tb := range doc.all("table") {
		if tb.Attr["class"] != "sortable" {
			t.Errorf("table %s is not sortable", tb.Attr["id"])
		}
	}
	if !strings.Contains(doc.all("script")[0].Text, `querySelectorAll("table.sortable th")`) {
		t.Error("no sorting script")
	}
}

// TestHTMLNumbersEqualSummaryCSV checks report.html's numbers against summary.csv: its
// summary table has every row and cell of summary.csv, each number's exact value (data-v) the
// CSV's text and its shown text that value rounded as REPORT.md rounds; and REPORT.md's
// median [Q1, Q3] (n) table, as the page shows it, agrees with summary.csv.
func TestHTMLNumbersEqualSummaryCSV(t *testing.T) {
	dir, _, doc, _ := analysedSmall(t)
	recs := readCSVFile(t, filepath.Join(dir, "summary.csv"))
	header, want := recs[0], recs[1:]
	tb := doc.byID("summary-csv")
	if tb == nil {
		t.Fatal("no summary-csv table")
	}
	var got []string
	for _, th := range tb.all("th") {
		got = append(got, th.text())
	}
	if !slices.Equal(got, header) {
		t.Errorf("header %v, want %v", got, header)
	}
	rows := tb.rows()
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, row := range rows {
		if len(row) != len(header) {
			t.Fatalf("row %d: %d cells", i, len(row))
		}
		for k, td := range row {
			csvText := want[i][k]
			if k < 2 { // metric, config
				if td.text() != csvText {
					t.Errorf("row %d %s: %q, want %q", i, header[k], td.text(), csvText)
				}
				continue
			}
			v, err := strconv.ParseFloat(csvText, 64)
			if err != nil {
				t.Fatalf("summary.csv row %d %s: %v", i+2, header[k], err)
			}
			if td.Attr["data-v"] != csvText {
				t.Errorf("row %d %s: data-v %q, want %q", i, header[k], td.Attr["data-v"], csvText)
			}
			if td.text() != num(v) {
				t.Errorf("row %d %s: shows %q, want %q", i, header[k], td.text(), num(v))
			}
		}
	}
	// REPORT.md's summary, the first table under the Summary heading
	idx := map[[2]string][]string{}
	for _, r := range want {
		idx[[2]string{r[0], r[1]}] = r
	}
	h2 := doc.byID("summary")
	var pivot *htmlNode
	after := false
	for _, e := range doc.all("") {
		if e == h2 {
			after = true
		}
		if after && e.Name == "table" {
			pivot = e
			break
		}
	}
	if pivot == nil {
		t.Fatal("no table under Summary")
	}
	var cols []string
	for _, th := range pivot.all("th") {
		cols = append(cols, th.text())
	}
	checked := 0
	for _, row := range pivot.rows() {
		config := strings.TrimSuffix(row[0].text(), " (reference)")
		for k, td := range row[1:] {
			r, ok := idx[[2]string{cols[k+1], config}]
			if !ok { // REPORT.md shows a measure the original has no row of as empty
				if td.text() != "– [–, –] (0)" {
					t.Errorf("%s %s: %q, and no row in summary.csv", cols[k+1], config, td.text())
				}
				continue
			}
			f := func(s string) string { v, _ := strconv.ParseFloat(s, 64); return num(v) }
			w := fmt.Sprintf("%s [%s, %s] (%s)", f(r[8]), f(r[7]), f(r[9]), r[2])
			if td.text() != w {
				t.Errorf("%s %s: %q, summary.csv says %q", cols[k+1], config, td.text(), w)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("only %d cells of the Summary table checked", checked)
	}
}

// TestHTMLAnswerFirst checks that the page opens with the answer per dataset — the Pareto
// front of pareto.csv ordered by loss and the original's risk of original.csv — before
// REPORT.md's sections,
// which follow in REPORT.md's order.
func TestHTMLAnswerFirst(t *testing.T) {
	dir, _, doc, _ := analysedSmall(t)
	h2 := doc.all("h2")
	if len(h2) == 0 || h2[0].Attr["id"] != "at-a-glance" {
		t.Fatalf("the first section is not the answer at a glance")
	}
	md, err := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(l, "## ") {
			want = append(want, strings.TrimPrefix(l, "## "))
		}
	}
	var got []string
	for _, h := range h2[1:] {
		got = append(got, h.text())
	}
	if !slices.Equal(got, want) {
		t.Errorf("sections %q, want REPORT.md's %q", got, want)
	}
	pareto := readCSVFile(t, filepath.Join(dir, "pareto.csv"))
	orig := readCSVFile(t, filepath.Join(dir, OriginalFile))
	cards := h2[0].Parent.all("section")
	var names []string
	for _, c := range cards {
		names = append(names, c.all("h3")[0].text())
	}
	if !slices.Equal(names, []string{"census", "eia", "tarragona"}) {
		t.Fatalf("cards %v", names)
	}
	for _, c := range cards {
		ds := c.all("h3")[0].text()
		var front [][]string
		for _, r := range pareto[1:] {
			if r[0] == ds && r[7] == "true" {
				front = append(front, []string{r[1], r[3], r[5]})
			}
		}
		slices.SortStableFunc(front, func(a, b []string) int { return cmpScore(cell(a[1]), cell(b[1])) }) // by loss
		var shown [][]string
		for _, row := range c.all("table")[0].rows() {
			shown = append(shown, []string{row[0].text(), row[1].Attr["data-v"], row[2].Attr["data-v"]})
		}
		if !slices.EqualFunc(shown, front, slices.Equal) {
			t.Errorf("%s: front %v, pareto.csv %v", ds, shown, front)
		}
		var hrefs []string
		for _, a := range c.all("a") {
			hrefs = append(hrefs, a.Attr["href"])
		}
		if !slices.Equal(hrefs, []string{"#" + ds, "#plot-rumap_sse_sst_dld"}) {
			t.Errorf("%s: card links %v", ds, hrefs)
		}
		if h := doc.byID(ds); h == nil || h.Name != "h3" || h.text() != ds {
			t.Errorf("%s: the card's link leads to %v", ds, h)
		}
		dld := slices.Index(orig[0], "dld")
		var risk string
		for _, r := range orig[1:] {
			if r[0] == ds {
				risk = r[dld]
			}
		}
		var spans []string
		for _, s := range c.all("span") {
			spans = append(spans, s.text()+"="+s.Attr["data-v"])
		}
		if !slices.Contains(spans, "dld "+numText(risk)+"="+risk) {
			t.Errorf("%s: original %v, want dld %s", ds, spans, risk)
		}
	}
}

// TestRefreshHTML checks `report`'s path: a folder that was not analysed gets no page; an
// analysed one gets the page analyze wrote, byte for byte, plus a companion report recorded
// afterwards, its table and its local image embedded.
func TestRefreshHTML(t *testing.T) {
	raw := copyDir(t, filepath.Join("testdata", "small"))
	if ok, err := RefreshHTML(raw); ok || err != nil {
		t.Fatalf("not analysed: RefreshHTML = %v, %v", ok, err)
	}
	if _, err := os.Stat(filepath.Join(raw, HTMLFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a page in a folder that was not analysed: %v", err)
	}
	dir, res, _, page := analysedSmall(t)
	if ok, err := RefreshHTML(dir); !ok || err != nil {
		t.Fatalf("RefreshHTML = %v, %v", ok, err)
	}
	again, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, page) {
		t.Error("the page written again differs from the analysis's")
	}
	study := "# Study\n\n## Table 3\n\n| item | published | ours |\n|---|---:|---:|\n| a <b> | 1.5 | 1.25 |\n\n![the box](plots/" + res.Plots[0].Name + ".png)\n"
	if err := os.WriteFile(filepath.Join(dir, "STUDY.md"), []byte(study), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := resultsdir.RecordReports(dir, "STUDY.md"); err != nil {
		t.Fatal(err)
	}
	if ok, err := RefreshHTML(dir); !ok || err != nil {
		t.Fatalf("RefreshHTML = %v, %v", ok, err)
	}
	again, _ = os.ReadFile(filepath.Join(dir, HTMLFile))
	doc := parseHTML(t, again)
	sec := doc.byID("companion-report-study-md")
	if sec == nil || !strings.HasPrefix(sec.text(), "Companion report: STUDY.md") {
		t.Fatalf("no companion section")
	}
	var cells []string
	for _, tb := range doc.all("table") {
		for _, row := range tb.rows() {
			if row[0].text() == "a <b>" {
				cells = []string{row[1].text(), row[2].text(), row[1].Attr["class"]}
			}
		}
	}
	if !slices.Equal(cells, []string{"1.5", "1.25", "num"}) {
		t.Errorf("companion table row %v", cells)
	}
	if n := len(doc.all("figure")); n != len(res.Plots)+1 {
		t.Errorf("%d figures, want the %d plots and the companion's", n, len(res.Plots)+1)
	}
}

// TestHTMLRecommendation checks that each dataset's card states recommend.csv's
// recommendation: the configuration, its loss median and the bounded risk, rounded as
// REPORT.md rounds them.
func TestHTMLRecommendation(t *testing.T) {
	dir := copyDir(t, filepath.Join("testdata", "small"))
	cfg, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Plots = Bool(false)
	cfg.RiskBound = map[string]float64{"dld": 25}
	if _, err := Run(context.Background(), dir, cfg); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	doc := parseHTML(t, page)
	rec := readCSVFile(t, filepath.Join(dir, "recommend.csv"))
	col := func(name string) int { return slices.Index(rec[0], name) }
	cards := map[string]string{}
	for _, c := range doc.byID("at-a-glance").Parent.all("section") {
		cards[c.all("h3")[0].text()] = c.text()
	}
	if len(rec) != 4 {
		t.Fatalf("recommend.csv has %d rows, want one per dataset", len(rec)-1)
	}
	for _, r := range rec[1:] {
		card, ok := cards[r[col("instance")]]
		if !ok {
			t.Fatalf("no card for %s", r[col("instance")])
		}
		var want string
		if r[col("config")] == "" {
			want = fmt.Sprintf("No configuration meets the risk bound (0 of %s) for %s.", r[col("total")], r[col("loss_metric")])
		} else {
			want = fmt.Sprintf("Recommended, lowest %s: %s (%s %s; dld %s), %s of %s configurations within the risk bound",
				r[col("loss_metric")], r[col("config")], r[col("loss_metric")], numText(r[col("loss_median")]), numText(r[col("dld")]), r[col("eligible")], r[col("total")])
		}
		if !strings.Contains(card, want) {
			t.Errorf("%s: card %q lacks %q", r[col("instance")], card, want)
		}
	}
}

// TestGlancesBounded checks that the answer at a glance lists the first maxAnswerInstances
// instances, as REPORT.md's answer, and counts the others; a front's rows are ordered by loss.
func TestGlancesBounded(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("dataset,k,config,loss_metric,loss,risk_metric,risk,rank,front\n")
	n := maxAnswerInstances + 5
	for i := range n {
		fmt.Fprintf(&b, "d%02d,3,a,il1s,2,dld,1,1,true\nd%02d,3,b,il1s,1,dld,2,1,true\nd%02d,3,c,il1s,3,dld,3,2,false\n", i, i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "pareto.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := glances(dir, map[string]bool{"plot-rumap_il1s_dld": true, "plot-box_dld": true})
	if err != nil {
		t.Fatal(err)
	}
	if len(g) != maxAnswerInstances || g[len(g)-1].More != 5 || g[0].More != 0 {
		t.Fatalf("%d cards, the last with %d more", len(g), g[len(g)-1].More)
	}
	if g[0].Name != "d00 k=3" || g[0].Plot != "#plot-rumap_il1s_dld" || len(g[0].Fronts) != 1 {
		t.Fatalf("first card %+v", g[0])
	}
	var rows []string
	for _, r := range g[0].Fronts[0].Table.Rows {
		rows = append(rows, fmt.Sprintf("%s %s %s", r[0].HTML, r[1].V, r[2].V))
	}
	if want := []string{"b 1 2", "a 2 1"}; !slices.Equal(rows, want) {
		t.Errorf("front %v, want %v", rows, want)
	}
	bad := filepath.Join(dir, "pareto.csv")
	os.WriteFile(bad, []byte("dataset,config,loss\nx,a,1\n"), 0o644)
	if _, err := glances(dir, nil); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a pareto.csv without its columns: %v", err)
	}
}
