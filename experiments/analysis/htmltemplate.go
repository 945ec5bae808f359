package analysis

import (
	"embed"
	"html/template"
	"sync"
)

//go:embed templates/report.html.tmpl
var templates embed.FS

// htmlTemplate renders an htmlPage (WriteHTML): styles and the sorting script are inline, so
// the page needs nothing outside itself. The script sorts a table by the clicked column —
// numbers (a cell's data-v, else its leading number) before text, a second click reversing —
// and is written without "<" and "&" (html/template drops comments, so no CDATA section can
// guard them): the page then also parses as XML, which its test relies on. It is parsed on
// first use, not at start-up (docs/datapath.md, "Start-up").
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.ParseFS(templates, "templates/report.html.tmpl"))
})
