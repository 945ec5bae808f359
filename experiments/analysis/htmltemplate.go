package analysis

import (
	"embed"
	"html/template"
)

//go:embed templates/report.html.tmpl
var templates embed.FS

// htmlTemplate renders an htmlPage (WriteHTML): styles and the sorting script are inline, so
// the page needs nothing outside itself.
var htmlTemplate = template.Must(template.ParseFS(templates, "templates/report.html.tmpl"))
