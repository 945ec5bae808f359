package analysis

import (
	"fmt"
	"html/template"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// glances returns the answer at a glance per instance of pareto.csv (else of recommend.csv),
// for the first maxAnswerInstances instances as REPORT.md's answer: each (loss, risk) pair's
// Pareto front ordered by loss, the recommendations of recommend.csv and the original's values
// of the trade-off's measures (original.csv). None when the folder has neither table.
func glances(dir string, figs map[string]bool) ([]glance, error) {
	pareto, err := readFolderTable(dir, "pareto.csv")
	if err != nil {
		return nil, err
	}
	rec, err := readFolderTable(dir, "recommend.csv")
	if err != nil {
		return nil, err
	}
	orig, err := readFolderTable(dir, OriginalFile)
	if err != nil {
		return nil, err
	}
	var out []glance
	idx := map[string]int{}
	get := func(name, dataset string) *glance {
		k, ok := idx[name]
		if !ok {
			k = len(out)
			idx[name] = k
			out = append(out, glance{ID: "glance-" + strconv.Itoa(k), Name: name})
			if dataset != "" {
				out[k].Original = originalValues(orig, dataset, pareto, rec)
			}
		}
		return &out[k]
	}
	plot := ""
	for _, id := range slices.Sorted(maps.Keys(figs)) {
		if strings.HasPrefix(id, "plot-rumap_") && plot == "" {
			plot = "#" + id
		}
	}
	if pareto != nil {
		ci := pareto.Col("config")
		cols := pareto.Header[:max(ci, 0)]
		lm, l, rm, r, front := pareto.Col("loss_metric"), pareto.Col("loss"), pareto.Col("risk_metric"), pareto.Col("risk"), pareto.Col("front")
		if ci < 0 || min(lm, l, rm, r, front) < 0 {
			return nil, fmt.Errorf("analysis: %s: not a pareto table (header %v)", filepath.Join(dir, "pareto.csv"), pareto.Header)
		}
		for _, row := range pareto.Rows {
			if len(row) != len(pareto.Header) {
				return nil, fmt.Errorf("analysis: %s: a row of %d cells under %d columns", filepath.Join(dir, "pareto.csv"), len(row), len(pareto.Header))
			}
			g := get(instanceName(cols, row[:ci]), cell0(cols, row, "dataset"))
			g.Plot = plot
			k := slices.IndexFunc(g.Fronts, func(f glanceFront) bool { return f.Loss == row[lm] && f.Risk == row[rm] })
			if k < 0 {
				g.Fronts = append(g.Fronts, glanceFront{Loss: row[lm], Risk: row[rm], Table: &htmlTable{
					Header:  []htmlCell{textCell("configuration"), textCell(row[lm] + " (" + utilityWord(row[lm]) + ")"), textCell(row[rm] + " (risk)")},
					Numeric: []bool{false, true, true}}})
				k = len(g.Fronts) - 1
			}
			if row[front] == "true" {
				t := g.Fronts[k].Table
				t.Rows = append(t.Rows, []htmlCell{textCell(row[ci]), numCell(row[l]), numCell(row[r])})
			}
		}
	}
	if rec != nil {
		in, cfg, loss, lm := rec.Col("instance"), rec.Col("config"), rec.Col("loss_median"), rec.Col("loss_metric")
		el, tot, ru, rul := rec.Col("eligible"), rec.Col("total"), rec.Col("runner_up"), rec.Col("runner_up_loss")
		if min(in, cfg, loss, lm, el, tot, ru, rul) < 0 {
			return nil, fmt.Errorf("analysis: %s: not a recommendation table (header %v)", filepath.Join(dir, "recommend.csv"), rec.Header)
		}
		bounds := rec.Header[loss+1 : el]
		for _, row := range rec.Rows {
			if len(row) != len(rec.Header) {
				return nil, fmt.Errorf("analysis: %s: a row of %d cells under %d columns", filepath.Join(dir, "recommend.csv"), len(row), len(rec.Header))
			}
			ds, _, _ := strings.Cut(row[in], " ") // instanceName puts the dataset first, bare
			if strings.Contains(ds, "=") {
				ds = ""
			}
			g := get(row[in], ds)
			var s strings.Builder
			if row[cfg] == "" {
				fmt.Fprintf(&s, "No configuration meets the risk bound (0 of %s) for <code>%s</code>.", esc(row[tot]), esc(row[lm]))
			} else {
				var risk []string
				for k, b := range bounds {
					risk = append(risk, esc(b)+" "+esc(numText(row[loss+1+k])))
				}
				fmt.Fprintf(&s, "<strong>Recommended, lowest <code>%s</code>: %s</strong> (%s %s; %s), %s of %s configurations within the risk bound",
					esc(row[lm]), esc(row[cfg]), esc(row[lm]), esc(numText(row[loss])), strings.Join(risk, ", "), esc(row[el]), esc(row[tot]))
				if row[ru] != "" {
					fmt.Fprintf(&s, "; runner-up %s (%s)", esc(row[ru]), esc(numText(row[rul])))
				}
				s.WriteString(".")
			}
			g.Recommend = append(g.Recommend, template.HTML(s.String()))
		}
	}
	for i := range out {
		for _, f := range out[i].Fronts { // along the front: loss up, risk down
			slices.SortStableFunc(f.Table.Rows, func(a, b []htmlCell) int {
				return cmpScore(cell(a[1].V), cell(b[1].V))
			})
		}
	}
	if len(out) > maxAnswerInstances {
		out[maxAnswerInstances-1].More = len(out) - maxAnswerInstances
		out = out[:maxAnswerInstances]
	}
	return out, nil
}

// originalValues returns the original's value of each measure of the trade-off (pareto.csv's
// loss and risk metrics, recommend.csv's bounded measures) on dataset, as "metric value".
func originalValues(orig *resultsdir.Table, dataset string, pareto, rec *resultsdir.Table) []htmlCell {
	if orig == nil || orig.Col("dataset") != 0 {
		return nil
	}
	var ms []string
	add := func(m string) {
		if m != "" && !slices.Contains(ms, m) {
			ms = append(ms, m)
		}
	}
	if pareto != nil {
		rm, lm := pareto.Col("risk_metric"), pareto.Col("loss_metric")
		for _, row := range pareto.Rows {
			if rm >= 0 && rm < len(row) {
				add(row[rm])
			}
		}
		for _, row := range pareto.Rows {
			if lm >= 0 && lm < len(row) {
				add(row[lm])
			}
		}
	}
	if rec != nil {
		if loss, el := rec.Col("loss_median"), rec.Col("eligible"); loss >= 0 && el > loss {
			for _, m := range rec.Header[loss+1 : el] {
				add(m)
			}
		}
	}
	errCol := orig.Col("error")
	for _, row := range orig.Rows {
		if len(row) != len(orig.Header) || row[0] != dataset {
			continue
		}
		if errCol >= 0 && row[errCol] != "" {
			return []htmlCell{textCell("not measured: " + row[errCol])}
		}
		var out []htmlCell
		for _, m := range ms {
			if j := orig.Col(m); j >= 0 {
				out = append(out, htmlCell{HTML: template.HTML("<code>" + esc(m) + "</code> " + esc(numText(row[j]))), V: row[j]})
			}
		}
		return out
	}
	return nil
}

// cell0 returns row's value of column name among cols, "" when there is none.
func cell0(cols, row []string, name string) string {
	if j := slices.Index(cols, name); j >= 0 {
		return row[j]
	}
	return ""
}

// numText rounds a CSV number as REPORT.md does (num); other text is returned as it is.
func numText(s string) string {
	if v, err := strconv.ParseFloat(s, 64); err == nil && s != "" {
		return num(v)
	}
	if s == "" {
		return "–"
	}
	return s
}

func esc(s string) string { return template.HTMLEscapeString(s) }

// companions returns the companion reports recorded for dir (resultsdir.CompanionReports)
// that are Markdown, each as a section: a level-2 heading and the report's blocks, its
// headings moved two levels down and its local images embedded.
func companions(dir string, ids map[string]int, sections map[string]string) ([]mdBlock, error) {
	names, err := resultsdir.CompanionReports(dir)
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	var out []mdBlock
	for _, name := range names {
		if filepath.Ext(name) != ".md" || !filepath.IsLocal(name) {
			continue
		}
		data, err := resultsdir.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("analysis: %w", err)
		}
		title := "Companion report: " + name
		out = append(out, mdBlock{Kind: "h", Level: 2, Text: title, HTML: template.HTML(esc(title) + ` (<a href="` + esc(name) + `">` + esc(name) + `</a>)`), ID: uniqueID(ids, title)})
		for _, b := range parseMarkdown(string(data), ids) {
			switch b.Kind {
			case "h":
				b.Level = min(b.Level+2, 6)
			case "figure":
				b.Figure = embedFigure(dir, filepath.ToSlash(filepath.Join(filepath.Dir(name), b.Src)), b.Text, sections)
				b.Figure.ID = uniqueID(ids, "fig "+name+" "+b.Src)
			}
			out = append(out, b)
		}
	}
	return out, nil
}
