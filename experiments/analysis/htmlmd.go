package analysis

import (
	"fmt"
	"html"
	"html/template"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// mdBlock is one block of the Markdown that the reports write (REPORT.md and the study
// reports): a heading, a paragraph, a list, a table, a code block or a figure (a paragraph that
// is one local image). Its inline text is already HTML, escaped by mdInline.
type mdBlock struct {
	Kind   string // "h", "p", "ul", "table", "pre", "figure"
	Level  int    // heading level
	ID     string // heading anchor
	Text   string // heading text (plain), code block text, figure title
	HTML   template.HTML
	Items  []template.HTML // list items
	Table  *htmlTable
	Src    string // figure: the image's path in the folder
	Figure *htmlFigure
	Glance []glance // the answer at a glance, placed before the first section
}

var (
	mdHeading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*$`) })
	mdRule    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\|(\s*:?-+:?\s*\|)+\s*$`) })
	mdImage   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^!\[([^\]]*)\]\(([^)\s]+)\)$`) })
	mdNumber  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[–-]$|^[+-]?Inf$|^NaN$`)
	})
)

// parseMarkdown splits the Markdown text md into blocks. It reads the subset the reports
// write — ATX headings, pipe tables with a rule line, "- " lists, fenced code, paragraphs with
// `code`, **bold**, links and images — and treats anything else as paragraph text, so that no
// input is lost. ids keeps heading anchors unique across calls.
func parseMarkdown(md string, ids map[string]int) []mdBlock {
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	var out []mdBlock
	var para []string
	flush := func() {
		if len(para) == 0 {
			return
		}
		text := strings.Join(para, "\n")
		para = nil
		if m := mdImage().FindStringSubmatch(text); m != nil && isLocal(m[2]) {
			out = append(out, mdBlock{Kind: "figure", Text: m[1], Src: m[2]})
			return
		}
		out = append(out, mdBlock{Kind: "p", HTML: mdInline(text)})
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trim := strings.TrimSpace(line)
		switch {
		case trim == "":
			flush()
		case strings.HasPrefix(trim, "```"):
			flush()
			var code []string
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				code = append(code, lines[i])
			}
			out = append(out, mdBlock{Kind: "pre", Text: strings.Join(code, "\n")})
		case mdHeading().MatchString(trim):
			flush()
			m := mdHeading().FindStringSubmatch(trim)
			out = append(out, mdBlock{Kind: "h", Level: len(m[1]), Text: plainText(m[2]), HTML: mdInline(m[2]), ID: uniqueID(ids, m[2])})
		case strings.HasPrefix(trim, "|") && i+1 < len(lines) && mdRule().MatchString(strings.TrimSpace(lines[i+1])):
			flush()
			t := &htmlTable{}
			for _, c := range splitRow(trim) {
				t.Header = append(t.Header, htmlCell{HTML: mdInline(c)})
			}
			t.Numeric = make([]bool, len(t.Header))
			for k := range t.Numeric {
				t.Numeric[k] = true
			}
			for i += 2; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
				cells := splitRow(strings.TrimSpace(lines[i]))
				row := make([]htmlCell, len(t.Header))
				for k := range row {
					c := ""
					if k < len(cells) {
						c = cells[k]
					}
					row[k] = htmlCell{HTML: mdInline(c)}
					if c != "" && !mdNumber().MatchString(c) {
						t.Numeric[k] = false
					}
				}
				t.Rows = append(t.Rows, row)
			}
			i--
			out = append(out, mdBlock{Kind: "table", Table: t})
		case strings.HasPrefix(trim, "- ") || strings.HasPrefix(trim, "* "):
			flush()
			b := mdBlock{Kind: "ul"}
		items:
			for ; i < len(lines); i++ {
				t := strings.TrimSpace(lines[i])
				switch {
				case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* "):
					b.Items = append(b.Items, mdInline(t[2:]))
				case t != "" && strings.HasPrefix(lines[i], "  ") && len(b.Items) > 0: // continuation
					b.Items[len(b.Items)-1] += " " + mdInline(t)
				default:
					i--
					break items
				}
			}
			out = append(out, b)
		default:
			para = append(para, trim)
		}
	}
	flush()
	return out
}

// splitRow returns the cells of a pipe-table row: the text between " | " separators, trimmed.
func splitRow(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	row = strings.TrimSuffix(row, "|")
	parts := strings.Split(" "+row+" ", " | ")
	for k := range parts {
		parts[k] = strings.TrimSpace(parts[k])
	}
	return parts
}

var mdInlineRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("`([^`]*)`|\\*\\*(.+?)\\*\\*|(!?)\\[([^\\]]*)\\]\\(([^)\\s]*)\\)")
})

// mdInline returns the inline Markdown s as HTML: text escaped, `code`, **bold**, links and
// images. A link to another site (http, https or any other scheme) is written as its text
// followed by the address, not as a link, so that the page loads and points nowhere outside
// the folder; an image is written as a link to the file (the figures are placed by the page).
func mdInline(s string) template.HTML {
	var b strings.Builder
	last := 0
	for _, m := range mdInlineRE().FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(html.EscapeString(s[last:m[0]]))
		last = m[1]
		switch {
		case m[2] >= 0:
			fmt.Fprintf(&b, "<code>%s</code>", html.EscapeString(s[m[2]:m[3]]))
		case m[4] >= 0:
			fmt.Fprintf(&b, "<strong>%s</strong>", mdInline(s[m[4]:m[5]]))
		default:
			text, url := s[m[8]:m[9]], s[m[10]:m[11]]
			if !isLocal(url) {
				fmt.Fprintf(&b, "%s (%s)", mdInline(text), html.EscapeString(url))
				continue
			}
			fmt.Fprintf(&b, `<a href="%s">%s</a>`, html.EscapeString(url), mdInline(text))
		}
	}
	b.WriteString(html.EscapeString(s[last:]))
	return template.HTML(b.String())
}

// isLocal reports whether a link target is a path (relative, or an anchor) rather than an
// address with a scheme or a host.
func isLocal(url string) bool {
	if url == "" || strings.HasPrefix(url, "//") || strings.HasPrefix(url, "/") {
		return false
	}
	if i := strings.IndexAny(url, ":/?#"); i >= 0 && url[i] == ':' {
		return false
	}
	return true
}

// plainText drops the inline Markdown marks of s.
func plainText(s string) string {
	s = mdInlineRE().ReplaceAllStringFunc(s, func(m string) string {
		sub := mdInlineRE().FindStringSubmatch(m)
		switch {
		case sub[1] != "" || strings.HasPrefix(m, "`"):
			return sub[1]
		case sub[2] != "":
			return sub[2]
		}
		return sub[4]
	})
	return s
}

var idRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9]+`) })

// uniqueID returns an anchor for the heading text s, made unique by a numeric suffix.
func uniqueID(ids map[string]int, s string) string {
	id := strings.Trim(idRE().ReplaceAllString(strings.ToLower(plainText(s)), "-"), "-")
	if id == "" {
		id = "section"
	}
	ids[id]++
	if n := ids[id]; n > 1 {
		id += "-" + strconv.Itoa(n)
	}
	return id
}
