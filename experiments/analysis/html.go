package analysis

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"html/template"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// HTMLFile is the page an analysis writes beside REPORT.md (docs/analysis.md "report.html").
const HTMLFile = "report.html"

// maxInlineImage bounds an image file embedded in report.html; a larger one is linked.
const maxInlineImage = 4 << 20

// htmlTable is a table of report.html. Every table is sortable by a click on a column's
// heading; a cell's V, when set, is the exact value it shows rounded (the CSV's text), which
// the page sorts by and a reader sees on hovering.
type htmlTable struct {
	ID      string
	Header  []htmlCell
	Rows    [][]htmlCell
	Numeric []bool // right-aligned columns
}

// htmlCell is one cell: its HTML, the exact value (V) and a link (Href) to a figure or section.
type htmlCell struct {
	HTML template.HTML
	V    string
	Href string
}

// htmlFigure is one plot, inline: the SVG of plots/NAME.svg, else the PNG as a data: URL.
type htmlFigure struct {
	ID, Title string
	SVG       template.HTML
	PNG       template.URL
	Missing   string // the file when it could not be embedded
	Back      []htmlLink
}

type htmlLink struct{ Href, Text string }

// glance is the answer at a glance for one instance (docs/analysis.md "The answer first"):
// the Pareto fronts, the recommendation under the risk bound and the unprotected original.
type glance struct {
	ID, Name  string
	Fronts    []glanceFront
	Recommend []template.HTML
	Original  []htmlCell // the original's measures: "metric value", V the exact value
	Plot      string     // the risk–utility map's anchor, "" when there is none
	Details   string     // the anchor of the instance in REPORT.md's answer, "" when none
	More      int        // instances left out after this one (in pareto.csv, recommend.csv)
}

type glanceFront struct {
	Loss, Risk string
	Table      *htmlTable
}

type htmlPage struct {
	Title  string
	Nav    []htmlLink
	Blocks []mdBlock
}

// WriteHTML writes dir/report.html: one self-contained page (no external script, style, font
// or image: plots inline as SVG, or as PNG data when a figure has no SVG) with REPORT.md's
// sections, the answer at a glance first (per instance the Pareto front, the recommendation
// and the original's measures, from pareto.csv, recommend.csv and original.csv), summary.csv
// in full, the companion reports the folder records, sortable tables and links between the
// tables and the plots. It reads only the folder's files, so that `analyze` (after REPORT.md)
// and `report` (after a study report) write the same page from the same data.
func WriteHTML(dir string) error {
	page, err := buildHTML(dir)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := htmlTemplate().Execute(&buf, page); err != nil {
		return fmt.Errorf("analysis: %s: %w", filepath.Join(dir, HTMLFile), err)
	}
	if err := datasets.AtomicWrite(filepath.Join(dir, HTMLFile), func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
		return fmt.Errorf("analysis: %w", err)
	}
	return nil
}

// RefreshHTML writes dir/report.html again (WriteHTML) when dir is an analysed results folder
// (it holds REPORT.md and summary.csv), as `sdcbench report` does after a study report changed
// the companion reports; it reports whether it wrote the page.
func RefreshHTML(dir string) (bool, error) {
	for _, f := range []string{resultsdir.ReportFile, "summary.csv"} {
		if _, err := resultsdir.ReadFile(filepath.Join(dir, f)); errors.Is(err, os.ErrNotExist) {
			return false, nil
		} else if err != nil {
			return false, fmt.Errorf("analysis: %w", err)
		}
	}
	if err := resultsdir.CheckAnalysisOutputs(dir); err != nil {
		return false, fmt.Errorf("analysis: %w", err)
	}
	return true, WriteHTML(dir)
}

func buildHTML(dir string) (*htmlPage, error) {
	md, err := resultsdir.ReadFile(filepath.Join(dir, resultsdir.ReportFile))
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	ids := map[string]int{"at-a-glance": 1, "summary-csv": 1}
	blocks := parseMarkdown(string(md), ids)
	page := &htmlPage{Title: filepath.Base(filepath.Clean(dir))}
	if len(blocks) > 0 && blocks[0].Kind == "h" && blocks[0].Level == 1 {
		page.Title = blocks[0].Text
	}
	sections := map[string]string{} // h2 text → anchor
	for _, b := range blocks {
		if b.Kind == "h" && b.Level == 2 {
			sections[b.Text] = b.ID
		}
	}
	figs := map[string]bool{}
	for i, b := range blocks {
		if b.Kind == "figure" {
			blocks[i].Figure = embedFigure(dir, b.Src, b.Text, sections)
			figs[blocks[i].Figure.ID] = true
		}
	}
	var out []mdBlock
	for i, b := range blocks {
		if b.Kind == "h" && b.Level == 2 && !slices.ContainsFunc(out, func(b mdBlock) bool { return b.Kind == "glance" }) {
			g, err := glances(dir, figs)
			if err != nil {
				return nil, err
			}
			for k := range g { // each card links to its instance's answer in REPORT.md's text
				for j, h := range blocks {
					if h.Kind == "h" && h.Level == 3 && h.Text == g[k].Name && strings.HasPrefix(sectionOf(blocks, j), "The answer") {
						g[k].Details = "#" + h.ID
						break
					}
				}
			}
			if len(g) > 0 {
				page.Nav = append(page.Nav, htmlLink{"#at-a-glance", "At a glance"})
				out = append(out, mdBlock{Kind: "h", Level: 2, ID: "at-a-glance", Text: "At a glance", HTML: "At a glance"})
			}
			out = append(out, mdBlock{Kind: "glance", Glance: g})
		}
		if b.Kind == "h" && b.Level == 2 {
			page.Nav = append(page.Nav, htmlLink{"#" + b.ID, b.Text})
		}
		if i == 0 && b.Kind == "h" && b.Level == 1 {
			continue // the page's title
		}
		if b.Kind == "table" {
			linkMetrics(b.Table, figs)
		}
		out = append(out, b)
		if b.Kind == "h" && b.Level == 2 {
			out = append(out, plotLinks(b.Text, figs)...)
		}
		if b.Kind == "table" && sectionOf(blocks, i) == "Summary" && !slices.ContainsFunc(out, func(b mdBlock) bool { return b.Table != nil && b.Table.ID == "summary-csv" }) {
			t, err := summaryTable(dir, figs)
			if err != nil {
				return nil, err
			}
			if t != nil {
				out = append(out, mdBlock{Kind: "p", HTML: `Every row of <a href="summary.csv">summary.csv</a> (hover a number for its exact value; a metric links to its boxplot):`}, mdBlock{Kind: "table", Table: t})
			}
		}
	}
	comp, err := companions(dir, ids, sections)
	if err != nil {
		return nil, err
	}
	for _, b := range comp {
		if b.Kind == "h" && b.Level == 2 {
			page.Nav = append(page.Nav, htmlLink{"#" + b.ID, b.Text})
		}
	}
	page.Blocks = append(out, comp...)
	for i := range page.Blocks {
		if t := page.Blocks[i].Table; t != nil && t.ID == "" {
			t.ID = fmt.Sprintf("table-%d", i)
		}
	}
	return page, nil
}

// linkMetrics links the metric cells of a table whose first column is "metric" to the metric's
// boxplot: the cell's first word ("sse_sst (lower)" names sse_sst).
func linkMetrics(t *htmlTable, figs map[string]bool) {
	if len(t.Header) == 0 || t.Header[0].HTML != "metric" {
		return
	}
	for _, row := range t.Rows {
		if len(row) == 0 || strings.ContainsRune(string(row[0].HTML), '<') {
			continue
		}
		m, _, _ := strings.Cut(string(row[0].HTML), " ")
		if id := "plot-box_" + slug(html.UnescapeString(m)); figs[id] {
			row[0].Href = "#" + id
		}
	}
}

// sectionOf returns the text of the level-2 heading block i is under.
func sectionOf(blocks []mdBlock, i int) string {
	for ; i >= 0; i-- {
		if blocks[i].Kind == "h" && blocks[i].Level == 2 {
			return blocks[i].Text
		}
	}
	return ""
}

// figureSections maps a figure's name prefix to the sections whose tables it draws.
var figureSections = map[string][]string{
	"box":     {"Summary", "The unprotected original"},
	"curve":   {"Summary"},
	"rumap":   {"Risk–utility trade-off"},
	"profile": {"Performance profiles"},
	"wins":    {"Wins"},
	"gaps":    {"Gaps"},
}

// plotLinks returns, for a section heading, a paragraph linking the figures that draw its
// tables (the reverse of the figures' "tables" links).
func plotLinks(section string, figs map[string]bool) []mdBlock {
	var links []string
	for _, id := range slices.Sorted(maps.Keys(figs)) {
		prefix, _, _ := strings.Cut(strings.TrimPrefix(id, "plot-"), "_")
		if slices.Contains(figureSections[prefix], section) {
			links = append(links, fmt.Sprintf(`<a href="#%s">%s</a>`, template.HTMLEscapeString(id), template.HTMLEscapeString(strings.TrimPrefix(id, "plot-"))))
		}
	}
	if len(links) == 0 {
		return nil
	}
	return []mdBlock{{Kind: "p", HTML: template.HTML(`<span class="plots">Plots: ` + strings.Join(links, " · ") + `</span>`)}}
}

// embedFigure reads the figure src (plots/NAME.png as REPORT.md links it): the SVG beside
// the PNG when there is one (the same drawing, rendered by gonum/plot's vgsvg), else the PNG.
func embedFigure(dir, src, title string, sections map[string]string) *htmlFigure {
	name := strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
	f := &htmlFigure{ID: "plot-" + name, Title: title}
	prefix, _, _ := strings.Cut(name, "_")
	for _, s := range figureSections[prefix] {
		if id, ok := sections[s]; ok {
			f.Back = append(f.Back, htmlLink{"#" + id, s})
		}
	}
	if prefix == "rumap" {
		f.Back = append([]htmlLink{{"#at-a-glance", "At a glance"}}, f.Back...)
	}
	path := filepath.Join(dir, filepath.FromSlash(src))
	if !filepath.IsLocal(filepath.FromSlash(src)) {
		f.Missing = src
		return f
	}
	svgPath := strings.TrimSuffix(path, filepath.Ext(path)) + ".svg"
	if data, err := readSmall(svgPath); err == nil {
		if k := bytes.Index(data, []byte("<svg")); k >= 0 {
			f.SVG = template.HTML(data[k:]) // written by gonum/plot: no script, no external reference
			return f
		}
	}
	data, err := readSmall(path)
	if err != nil {
		f.Missing = src
		return f
	}
	mime := map[string]string{".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif"}[strings.ToLower(filepath.Ext(path))]
	if mime == "" {
		f.Missing = src
		return f
	}
	f.PNG = template.URL("data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data))
	return f
}

// readSmall reads a regular file of at most maxInlineImage bytes.
func readSmall(path string) ([]byte, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxInlineImage {
		return nil, fmt.Errorf("%s: not a regular file of at most %d bytes", path, maxInlineImage)
	}
	return os.ReadFile(path)
}

// readFolderTable reads a table of dir (NAME or NAME.gz); nil without error when there is none.
func readFolderTable(dir, name string) (*resultsdir.Table, error) {
	t, err := resultsdir.ReadTable(filepath.Join(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	return t, nil
}

// numCell returns a cell showing the number text s (a CSV value) rounded as REPORT.md rounds
// (num), with s as its exact value.
func numCell(s string) htmlCell {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return htmlCell{HTML: template.HTML(template.HTMLEscapeString(s))}
	}
	shown := num(v)
	if math.IsInf(v, 0) {
		shown = s
	}
	return htmlCell{HTML: template.HTML(template.HTMLEscapeString(shown)), V: s}
}

func textCell(s string) htmlCell { return htmlCell{HTML: template.HTML(template.HTMLEscapeString(s))} }

// summaryTable returns summary.csv as a table: every row, every column, the numbers rounded
// with their exact values; a metric links to its boxplot.
func summaryTable(dir string, figs map[string]bool) (*htmlTable, error) {
	t, err := readFolderTable(dir, "summary.csv")
	if t == nil || err != nil {
		return nil, err
	}
	h := &htmlTable{ID: "summary-csv", Numeric: make([]bool, len(t.Header))}
	for k, c := range t.Header {
		h.Header = append(h.Header, textCell(c))
		h.Numeric[k] = c != "metric" && c != "config"
	}
	for _, r := range t.Rows {
		row := make([]htmlCell, len(r))
		for k, c := range r {
			switch {
			case h.Numeric[k]:
				row[k] = numCell(c)
			case t.Header[k] == "metric" && figs["plot-box_"+slug(c)]:
				row[k] = htmlCell{HTML: template.HTML(template.HTMLEscapeString(c)), Href: "#plot-box_" + slug(c)}
			default:
				row[k] = textCell(c)
			}
		}
		h.Rows = append(h.Rows, row)
	}
	return h, nil
}
