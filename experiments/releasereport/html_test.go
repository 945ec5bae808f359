package releasereport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

// The page is checked with regular expressions on the template's output, which this package
// writes itself (the standard library has no HTML parser, and golang.org/x/net/html is not a
// dependency): numbers sit in cells of one fixed form, numberCell.
var (
	numberCell = regexp.MustCompile(`<(td|span) class="([^"]*)" data-key="([^"]*)" data-value="([^"]*)">([^<]*)</(td|span)>`)
	// external finds what makes a browser fetch something or leave the page: any src,
	// srcset, poster, data or action attribute, an href that is not a fragment, CSS url()
	// and @import, and the elements that embed other documents.
	external = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\s(src|srcset|poster|data|action|formaction|background)\s*=`),
		regexp.MustCompile(`(?i)\shref\s*=\s*["']?[^"'#\s>]`),
		regexp.MustCompile(`(?i)url\s*\(`),
		regexp.MustCompile(`(?i)@import`),
		regexp.MustCompile(`(?i)<(link|iframe|object|embed|img|video|audio|source|base)\b`),
		regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`),
	}
)

// reports returns one report of each kind the tests render: keys with suppression (internal
// and external), a numeric release, a PRAM release.
func reports(t *testing.T) map[string]*Report {
	return map[string]*Report{
		"local_supp internal": suppressed(t, false),
		"local_supp external": suppressed(t, true),
		"mdav": run(t, "x,y,g\n1,5,a\n2,3,a\n10,8,b\n11,1,b\n7,7,a\n", "mdav", map[string]string{"k": "2"},
			methods.Selection{Columns: []string{"x", "y"}, Keep: []string{"g"}, Keys: []string{"g"}}, metrics.Options{Keys: []string{"g"}}, nil, false),
		"noise with NA": constantColumn(t),
		"pram": run(t, sixRecords, "pram", map[string]string{"pd": "0.6"},
			methods.Selection{Columns: []string{"a", "b"}, Keep: []string{"c", "d"}, Keys: []string{"a", "b"}},
			metrics.Options{Keys: []string{"a", "b"}}, nil, false),
	}
}

func render(t *testing.T, r *Report) (page string, js []byte) {
	t.Helper()
	var h, j bytes.Buffer
	if err := r.WriteHTML(&h); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&j); err != nil {
		t.Fatal(err)
	}
	return h.String(), j.Bytes()
}

// TestPageIsSelfContained: the page names no resource to fetch (no src, no link, no url(),
// no address) and links only within itself.
func TestPageIsSelfContained(t *testing.T) {
	for name, r := range reports(t) {
		t.Run(name, func(t *testing.T) {
			page, _ := render(t, r)
			for _, re := range external {
				if m := re.FindString(page); m != "" {
					t.Errorf("the page holds %q (%s)", m, re)
				}
			}
			for _, m := range regexp.MustCompile(`href="#([^"]*)"`).FindAllStringSubmatch(page, -1) {
				if !strings.Contains(page, `id="`+m[1]+`"`) {
					t.Errorf("link to #%s, which is no element's id", m[1])
				}
			}
		})
	}
	// The checks themselves find what they are for.
	for _, bad := range []string{`<img src="a.png">`, `<a href="https://example.org/">`, `<a href="other.html">`,
		`<style>b{background:url(x.png)}</style>`, `<style>@import "x.css";</style>`, `<link rel="stylesheet" href="x.css">`,
		`<script src="x.js"></script>`, `<p>see //example.org/x</p>`} {
		found := false
		for _, re := range external {
			found = found || re.MatchString(bad)
		}
		if !found {
			t.Errorf("the external-resource checks miss %s", bad)
		}
	}
}

// pointer resolves a JSON pointer (RFC 6901, without escapes) in a decoded document.
func pointer(doc any, ptr string) (any, error) {
	cur := doc
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, fmt.Errorf("%s: no member %q", ptr, tok)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("%s: no element %q", ptr, tok)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("%s: %q below a leaf", ptr, tok)
		}
	}
	return cur, nil
}

// numbers returns the JSON pointer of every number in doc.
func numbers(doc any, at string, out map[string]bool) {
	switch c := doc.(type) {
	case map[string]any:
		for k, v := range c {
			numbers(v, at+"/"+k, out)
		}
	case []any:
		for i, v := range c {
			numbers(v, at+"/"+strconv.Itoa(i), out)
		}
	case json.Number:
		out[at] = true
	}
}

// TestPageNumbersEqualJSON: every number on the page is the number at its data-key in the
// JSON report (exactly, and shown as Value shows it), every number of the JSON report is on
// the page, and every numeric cell carries a key.
func TestPageNumbersEqualJSON(t *testing.T) {
	for name, r := range reports(t) {
		t.Run(name, func(t *testing.T) {
			page, js := render(t, r)
			dec := json.NewDecoder(bytes.NewReader(js))
			dec.UseNumber()
			var doc any
			if err := dec.Decode(&doc); err != nil {
				t.Fatal(err)
			}
			cells := numberCell.FindAllStringSubmatch(page, -1)
			if len(cells) == 0 {
				t.Fatal("no number on the page")
			}
			if n := strings.Count(page, `data-key=`); n != len(cells) {
				t.Errorf("%d data-key attributes, %d in the number form", n, len(cells))
			}
			if n := len(regexp.MustCompile(`class="num[ "]`).FindAllString(page, -1)); n != strings.Count(page, `<td class="num`) || n > len(cells) {
				t.Errorf("%d numeric cells, %d with a key", n, len(cells))
			}
			onPage := map[string]bool{}
			for _, c := range cells {
				key, raw, shown := c[3], c[4], c[5]
				onPage[key] = true
				v, err := pointer(doc, key)
				if err != nil {
					t.Errorf("data-key %s: %v", key, err)
					continue
				}
				var want float64
				switch x := v.(type) {
				case nil:
					want = math.NaN()
				case json.Number:
					if want, err = strconv.ParseFloat(string(x), 64); err != nil {
						t.Fatal(err)
					}
				default:
					t.Errorf("data-key %s is %T %v in the JSON, not a number", key, v, v)
					continue
				}
				got, err := strconv.ParseFloat(raw, 64)
				if err != nil {
					t.Errorf("data-key %s: data-value %q: %v", key, raw, err)
					continue
				}
				if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Errorf("data-key %s: page %v, JSON %v", key, got, want)
				}
				if _, s := Value(Num(want)); s != shown {
					t.Errorf("data-key %s: shows %q, want %q", key, shown, s)
				}
			}
			inJSON := map[string]bool{}
			numbers(doc, "", inJSON)
			for k := range inJSON {
				if !onPage[k] {
					t.Errorf("the JSON number %s is not on the page", k)
				}
			}
		})
	}
}

func TestValue(t *testing.T) {
	for _, c := range []struct {
		v          any
		raw, shown string
	}{
		{4, "4", "4"},
		{uint64(18446744073709551615), "18446744073709551615", "18446744073709551615"},
		{Num(0), "0", "0"},
		{Num(12345678), "12345678", "12345678"},
		{Num(1e-7), "1e-7", "1e-07"},
		{Num(0.123456789), "0.123456789", "0.1235"},
		{Num(1.0 / 3), "0.3333333333333333", "0.3333"},
		{Num(12.081575564999586), "12.081575564999586", "12.08"},
		{Num(2.5773034568286436e-16), "2.5773034568286436e-16", "2.577e-16"},
		{Num(-1.5), "-1.5", "-1.5"},
		{Num(1e20), "100000000000000000000", "1e+20"},
		{Num(1e21), "1e+21", "1e+21"},
		{Num(math.NaN()), "NaN", "NA"},
		{Num(math.Inf(1)), "NaN", "NA"},
		{0.5, "0.5", "0.5"},
	} {
		raw, shown := Value(c.v)
		if raw != c.raw || shown != c.shown {
			t.Errorf("Value(%v) = %q, %q; want %q, %q", c.v, raw, shown, c.raw, c.shown)
		}
	}
}
