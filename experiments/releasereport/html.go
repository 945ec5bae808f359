package releasereport

import (
	_ "embed"
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/sdcbench/sdcbench/metrics"
)

//go:embed report.html.tmpl
var pageTemplate string

// page returns the parsed template of the HTML report: one self-contained file (inline style
// and script, no external resource), its numbers in cells that carry the JSON pointer of the
// same number in the JSON report (data-key) and its exact value (data-value, which the
// sortable tables sort by). It is parsed on first use, not at start-up (docs/datapath.md,
// "Start-up").
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"num":     func(ptr string, v any) template.HTML { return cell("td", ptr, v, "") },
		"numSpan": func(ptr string, v any) template.HTML { return cell("span", ptr, v, "") },
		"numDiag": func(ptr string, v Num, diag bool) template.HTML {
			if diag {
				return cell("td", ptr, v, "diag")
			}
			return cell("td", ptr, v, "")
		},
		"numCmp": func(ptr string, after, before Num, id string) template.HTML {
			return cell("td", ptr, after, compare(id, float64(before), float64(after)))
		},
		"ptr":         func(format string, a ...any) string { return fmt.Sprintf(format, a...) },
		"join":        strings.Join,
		"summaryRisk": func(id string) bool { return summaryRisk[id] },
		"summaryLoss": func(id string) bool { return summaryLoss[id] },
	}).Parse(pageTemplate))
})

// summaryRisk and summaryLoss are the measures the summary at the top repeats (with dbrl).
var (
	summaryRisk = map[string]bool{"kanon_viol_2": true, "ind_risk_max": true, "global_risk_er": true}
	summaryLoss = map[string]bool{"il1s": true, "sse_sst": true, "ut1": true, "pram_changed": true, "n_suppressed": true}
)

// WriteHTML writes the report as one self-contained HTML page.
func (r *Report) WriteHTML(w io.Writer) error {
	return page().Execute(w, r)
}

// cell renders a number in a tag with its JSON pointer and exact value.
func cell(tag, ptr string, v any, class string) template.HTML {
	raw, shown := Value(v)
	cls := "num"
	if class != "" {
		cls += " " + class
	}
	if tag == "span" {
		cls = strings.TrimPrefix(cls, "num")
		cls = strings.TrimSpace(cls + " num-inline")
	}
	return template.HTML(fmt.Sprintf(`<%s class="%s" data-key="%s" data-value="%s">%s</%s>`,
		tag, cls, html.EscapeString(ptr), html.EscapeString(raw), html.EscapeString(shown), tag))
}

// Value returns a number's exact value (the shortest decimal that reads back as it, as the
// JSON report writes it; "NaN" when undefined), which data-value holds, and the text the page shows: "NA" when undefined, an
// integer in full, anything else with four significant digits.
func Value(v any) (raw, shown string) {
	var f float64
	switch x := v.(type) {
	case Num:
		f = float64(x)
	case float64:
		f = x
	case int:
		return strconv.Itoa(x), strconv.Itoa(x)
	case uint64:
		return strconv.FormatUint(x, 10), strconv.FormatUint(x, 10)
	default:
		panic(fmt.Sprintf("releasereport: not a number: %T", v))
	}
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return "NaN", "NA"
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return exact(f), strconv.FormatFloat(f, 'f', 0, 64)
	}
	return exact(f), strconv.FormatFloat(f, 'g', 4, 64)
}

// compare returns "better" or "worse" when the release's value of measure id is better or
// worse than the original's by the measure's direction, "" otherwise.
func compare(id string, before, after float64) string {
	m, err := metrics.Lookup(id)
	if err != nil || math.IsNaN(before) || math.IsNaN(after) || before == after {
		return ""
	}
	lower := after < before
	switch m.Info().Better {
	case metrics.Lower:
		if lower {
			return "better"
		}
		return "worse"
	case metrics.Higher:
		if lower {
			return "worse"
		}
		return "better"
	}
	return ""
}
