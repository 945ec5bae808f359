package studies

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// GenericStudy names the verdicts of the generic seed comparison (seed_comparison.csv written
// by the analysis) in a folder that no study report claims.
const GenericStudy = "Reference values (sdcMicro 5.8.1 and the microaggregation literature)"

// StatusRow counts the verdicts of one table of one study in one results folder, of one source.
type StatusRow struct {
	Study, Table, Folder string
	Source               resultsdir.Source // what the verdicts check (study or reference)
	Counts               map[string]int    // verdict → count
	Items                []StatusItem      // the verdicts, in the folder's order
}

// StatusItem is one verdict of a StatusRow: the cell or claim and its verdict.
type StatusItem struct {
	Item    string
	Verdict resultsdir.Verdict
}

// Status reads every results folder below root (root/*/verdicts.csv and the analysis's
// root/*/seed_comparison.csv) and returns one row per (study, table, folder, source), sorted.
// The folders named *-small hold the reduced grids that CI runs; they reproduce nothing at that
// size and are left out.
// A folder's seed_comparison.csv rows are credited to the study with a Reporter that owns the
// folder's experiment, else to GenericStudy. A verdict or source outside the vocabulary, or an
// empty item, is an error naming the file.
func Status(root string) ([]StatusRow, error) {
	dirs, err := filepath.Glob(filepath.Join(root, "*"))
	if err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	rows := map[[4]string]*StatusRow{}
	add := func(v resultsdir.VerdictRow, folder string) {
		key := [4]string{v.Study, v.Table, folder, string(v.Source)}
		r := rows[key]
		if r == nil {
			r = &StatusRow{Study: v.Study, Table: v.Table, Folder: folder, Source: v.Source, Counts: map[string]int{}}
			rows[key] = r
		}
		r.Counts[string(v.Verdict)]++
		r.Items = append(r.Items, StatusItem{v.Item, v.Verdict})
	}
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		folder := filepath.Base(dir)
		if strings.HasSuffix(folder, "-small") {
			continue
		}
		vs, err := resultsdir.ReadVerdicts(dir)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("reports: %w", err)
		}
		for _, v := range vs {
			add(v, folder)
		}
		path := filepath.Join(dir, "seed_comparison.csv")
		t, err := resultsdir.ReadTable(path)
		if errors.Is(err, resultsdir.ErrNotRegularFile) { // a link: refused as run and analyze do
			return nil, fmt.Errorf("reports: %w", err)
		}
		if err != nil || len(t.Rows) == 0 {
			continue
		}
		study := GenericStudy
		m, err := resultsdir.ReadManifest(dir)
		if errors.Is(err, resultsdir.ErrNotRegularFile) {
			return nil, fmt.Errorf("reports: %w", err)
		}
		if err == nil {
			if st, ok := For(m.Name); ok && st.Report != nil {
				study = st.Cite(m.Name)
			}
		}
		tb, it, src, v := t.Col("table"), t.Col("item"), t.Col("source"), t.Col("verdict")
		if tb < 0 || it < 0 || src < 0 || v < 0 {
			return nil, fmt.Errorf("reports: %s: want columns table, item, source and verdict", path)
		}
		for i, row := range t.Rows {
			vr := resultsdir.VerdictRow{Study: study, Source: resultsdir.Source(row[src]), Table: row[tb], Item: row[it], Verdict: resultsdir.Verdict(row[v])}
			if _, err := resultsdir.ParseVerdict(row[v]); err != nil {
				return nil, fmt.Errorf("reports: %w (%s line %d)", err, path, i+2)
			}
			if _, err := resultsdir.ParseSource(row[src]); err != nil {
				return nil, fmt.Errorf("reports: %w (%s line %d)", err, path, i+2)
			}
			if vr.Item == "" {
				return nil, fmt.Errorf("reports: %s line %d: a verdict without an item", path, i+2)
			}
			add(vr, folder)
		}
	}
	out := make([]StatusRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b StatusRow) int {
		return strings.Compare(a.Study+"\x00"+a.Folder+"\x00"+a.Table+"\x00"+string(a.Source), b.Study+"\x00"+b.Folder+"\x00"+b.Table+"\x00"+string(b.Source))
	})
	return out, nil
}

// Totals counts the verdicts of rows per source, each distinct (study, table, item) once: an item
// that several folders judge (e.g. a number of the publication that no folder can compute) is
// counted with the weakest of its verdicts, the last in resultsdir.Verdicts' order. Judged
// returns the items judged in more than one folder, with their folders and verdicts. An item
// filed under two sources is an error.
func Totals(rows []StatusRow) (totals map[resultsdir.Source]map[resultsdir.Verdict]int, judged []JudgedTwice, err error) {
	type key struct{ study, table, item string }
	type seen struct {
		src     resultsdir.Source
		verdict resultsdir.Verdict
		folders []string
		all     []resultsdir.Verdict
	}
	rank := func(v resultsdir.Verdict) int { return slices.Index(resultsdir.Verdicts(), v) }
	items := map[key]*seen{}
	var order []key
	for _, r := range rows {
		for _, it := range r.Items {
			k := key{r.Study, r.Table, it.Item}
			s := items[k]
			if s == nil {
				s = &seen{src: r.Source, verdict: it.Verdict}
				items[k] = s
				order = append(order, k)
			} else if s.src != r.Source {
				return nil, nil, fmt.Errorf("reports: %s, %s, %q: source %s in one folder, %s in another", r.Study, r.Table, it.Item, s.src, r.Source)
			}
			if rank(it.Verdict) > rank(s.verdict) {
				s.verdict = it.Verdict
			}
			s.folders = append(s.folders, r.Folder)
			s.all = append(s.all, it.Verdict)
		}
	}
	totals = map[resultsdir.Source]map[resultsdir.Verdict]int{resultsdir.SourceStudy: {}, resultsdir.SourceReference: {}}
	for _, k := range order {
		s := items[k]
		totals[s.src][s.verdict]++
		if len(s.folders) > 1 {
			judged = append(judged, JudgedTwice{Study: k.study, Table: k.table, Item: k.item, Folders: s.folders, Verdicts: s.all, Counted: s.verdict})
		}
	}
	return totals, judged, nil
}

// JudgedTwice is an item that more than one folder judges (Totals).
type JudgedTwice struct {
	Study, Table, Item string
	Folders            []string
	Verdicts           []resultsdir.Verdict // in the order of Folders
	Counted            resultsdir.Verdict   // the verdict counted in the totals
}

// WriteStatus writes the reproduction status page in Markdown: per study, one line per
// (folder, table, source) with the count of each verdict, and the totals per source, each
// distinct (study, table, item) counted once (Totals). link is the path from the page to root
// (e.g. "../results").
func WriteStatus(w io.Writer, rows []StatusRow, link string) error {
	totals, judged, err := Totals(rows)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "# Reproduction status\n\n")
	fmt.Fprintf(w, "Generated by `sdcbench status` from the committed results folders (their verdicts.csv and\n")
	fmt.Fprintf(w, "seed_comparison.csv; the reduced *-small grids that CI runs are left out); do not edit by hand.\n")
	fmt.Fprintf(w, "What each verdict and each source means, and how the totals count: [reproducing.md](reproducing.md).\n")
	fmt.Fprintf(w, "Source `study`: a number or claim printed in the publication; `reference`: sdcMicro's output, a formula,\n")
	fmt.Fprintf(w, "the spec's expected values or our own defaults, which check our code but reproduce nothing of the publication.\n\n")
	verdicts := resultsdir.Verdicts()
	var study string
	for _, r := range rows {
		if r.Study != study {
			study = r.Study
			fmt.Fprintf(w, "\n## %s\n\n| folder | table | source | %s |\n|---|---|---|%s\n", study, joinVerdicts(verdicts, " | "),
				strings.Repeat("---:|", len(verdicts)))
		}
		cells := make([]string, len(verdicts))
		for i, v := range verdicts {
			cells[i] = fmt.Sprint(r.Counts[string(v)])
		}
		for v, n := range r.Counts {
			if _, err := resultsdir.ParseVerdict(v); err != nil {
				return fmt.Errorf("reports: %s, %s: unknown verdict %q (%d rows)", r.Folder, r.Table, v, n)
			}
		}
		fmt.Fprintf(w, "| [%s](%s/%s) | %s | %s | %s |\n", r.Folder, link, r.Folder, r.Table, r.Source, strings.Join(cells, " | "))
	}
	fmt.Fprintf(w, "\n## Total\n\n")
	fmt.Fprintf(w, "Each distinct (study, table, item) counted once; an item judged in several folders counts with the weakest\n")
	if len(judged) > 0 {
		fmt.Fprintf(w, "of its verdicts (the last in the order of the columns; the items are listed below).\n\n")
	} else {
		fmt.Fprintf(w, "of its verdicts (the last in the order of the columns); today no item is judged in more than one folder.\n\n")
	}
	fmt.Fprintf(w, "| source | %s | all |\n|---|%s---:|\n", joinVerdicts(verdicts, " | "), strings.Repeat("---:|", len(verdicts)))
	all := map[resultsdir.Verdict]int{}
	for _, src := range []resultsdir.Source{resultsdir.SourceStudy, resultsdir.SourceReference} {
		cells := make([]string, len(verdicts))
		n := 0
		for i, v := range verdicts {
			cells[i] = fmt.Sprint(totals[src][v])
			n += totals[src][v]
			all[v] += totals[src][v]
		}
		fmt.Fprintf(w, "| %s | %s | %d |\n", src, strings.Join(cells, " | "), n)
	}
	cells := make([]string, len(verdicts))
	n := 0
	for i, v := range verdicts {
		cells[i] = fmt.Sprint(all[v])
		n += all[v]
	}
	fmt.Fprintf(w, "| all | %s | %d |\n", strings.Join(cells, " | "), n)
	if len(judged) > 0 {
		fmt.Fprintf(w, "\n### Items judged in more than one folder (counted once)\n\n| study | table | item | folders: verdicts | counted |\n|---|---|---|---|---|\n")
		for _, j := range judged {
			fv := make([]string, len(j.Folders))
			for i := range j.Folders {
				fv[i] = j.Folders[i] + ": " + string(j.Verdicts[i])
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", j.Study, j.Table, j.Item, strings.Join(fv, "; "), j.Counted)
		}
	}
	return nil
}

func joinVerdicts(vs []resultsdir.Verdict, sep string) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = string(v)
	}
	return strings.Join(s, sep)
}
