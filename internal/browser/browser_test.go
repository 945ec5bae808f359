package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestInstrumentPlacesProbeFirst(t *testing.T) {
	for _, c := range []struct {
		name, page, before string
	}{
		{"head", `<!DOCTYPE html><html lang="en"><head><title>x</title><script>a()</script></head></html>`, `<!DOCTYPE html><html lang="en"><head>`},
		{"head with attributes", "<html><HEAD class=\"h\">\n<script>a()</script>", "<html><HEAD class=\"h\">"},
		{"no head", `<!doctype html><html><body><script>a()</script>`, `<!doctype html><html>`},
		{"doctype only", `<!DOCTYPE html><p>x</p><script>a()</script>`, `<!DOCTYPE html>`},
		{"fragment", `<p>x</p><script>a()</script>`, ``},
		{"header is not head", `<html><body><header>h</header><script>a()</script>`, `<html>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := instrument([]byte(c.page), []string{"table", "svg circle"})
			if err != nil {
				t.Fatal(err)
			}
			s := string(out)
			if !strings.HasPrefix(s, c.before+"<script>(function(){") {
				t.Errorf("probe not right after %q:\n%s", c.before, s)
			}
			if !strings.HasSuffix(s, c.page[len(c.before):]) {
				t.Errorf("page after the probe changed:\n%s", s)
			}
			if strings.Count(s, "\n") != strings.Count(c.page, "\n") {
				t.Errorf("the probe added lines: %d, page has %d", strings.Count(s, "\n"), strings.Count(c.page, "\n"))
			}
			if !strings.Contains(s, `sels=["table","svg circle"]`) {
				t.Errorf("selectors not in the probe:\n%s", s)
			}
		})
	}
}

func encodeRecord(t *testing.T, r record) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return "<!--sdcbench-browser:" + base64.StdEncoding.EncodeToString(b) + "-->"
}

func TestParseDump(t *testing.T) {
	done := record{Errors: []string{"console.error: x"}, Counts: map[string]int{"td": 4}, Title: "T", Loaded: true}
	p, err := parseDump("<html><body>b</body>" + encodeRecord(t, record{Loaded: false}) + encodeRecord(t, done) + "</html>")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Errors, done.Errors) || p.Counts["td"] != 4 || p.Title != "T" {
		t.Errorf("parseDump = %+v, want the last record %+v", p, done)
	}
	if p.DOM != "<html><body>b</body>"+encodeRecord(t, record{Loaded: false})+"</html>" {
		t.Errorf("DOM = %q: want the last record taken out", p.DOM)
	}
	for _, c := range []struct{ name, dom, want string }{
		{"no record", "<html></html>", "no record"},
		{"not loaded", "<html>" + encodeRecord(t, record{Errors: []string{"e1"}}) + "</html>", "did not finish loading before the document was dumped (errors so far: e1)"},
		{"bad base64", "<html><!--sdcbench-browser:@@--></html>", "no record"},
		{"bad json", "<html><!--sdcbench-browser:" + base64.StdEncoding.EncodeToString([]byte("{")) + "--></html>", "the probe's record"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseDump(c.dom)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("parseDump error = %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestInk(t *testing.T) {
	white := color.RGBA{255, 255, 255, 255}
	for _, c := range []struct {
		name  string
		w, h  int
		black int // pixels painted black, in row order
		want  float64
	}{
		{"blank", 10, 10, 0, 0},
		{"ten pixels", 10, 10, 10, 0.1},
		{"dark background", 4, 5, 15, 0.25}, // black is the background, white the ink
		{"empty", 0, 0, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			img := image.NewRGBA(image.Rect(0, 0, c.w, c.h))
			for i := 0; i < c.w*c.h; i++ {
				col := white
				if i < c.black {
					col = color.RGBA{0, 0, 0, 255}
				}
				img.Set(i%c.w, i/c.w, col)
			}
			if got := Ink(img); got != c.want {
				t.Errorf("Ink = %v, want %v", got, c.want)
			}
		})
	}
	blank := image.NewRGBA(image.Rect(0, 0, 100, 100))
	if err := NotBlank(blank); err == nil || !strings.Contains(err.Error(), "is blank") {
		t.Errorf("NotBlank(blank) = %v, want an error", err)
	}
	blank.Set(3, 4, white)
	blank.Set(5, 6, white) // 2 of 10^4 pixels: exactly MinInk
	if err := NotBlank(blank); err != nil {
		t.Errorf("NotBlank(2 pixels of 10^4) = %v, want nil", err)
	}
}

// TestFindWithoutBrowser: with no candidate installed, Find says how to install one, and
// ForTest skips the test with that message, unless SDCBENCH_REQUIRE_BROWSER=1 makes it fail.
func TestFindWithoutBrowser(t *testing.T) {
	none := func(string) (string, error) { return "", exec.ErrNotFound }
	noEnv := func(string) string { return "" }
	if _, err := find(noEnv, none, candidates); err != ErrNotFound || !strings.Contains(err.Error(), "apt-get install -y chromium") {
		t.Errorf("find = %v, want ErrNotFound naming the package", err)
	}
	found := func(c string) (string, error) {
		if c == "chromium-browser" {
			return "/opt/bin/chromium-browser", nil
		}
		return "", exec.ErrNotFound
	}
	if p, err := find(noEnv, found, candidates); p != "/opt/bin/chromium-browser" || err != nil {
		t.Errorf("find = %q, %v; want the first candidate found", p, err)
	}
	missing := func() (string, error) { return "", ErrNotFound }
	var skipped bool
	t.Run("skips", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		forTest(t, missing, noEnv)
	})
	if !skipped {
		t.Error("ForTest without a browser did not skip")
	}
	require := func(k string) string {
		if k == "SDCBENCH_REQUIRE_BROWSER" {
			return "1"
		}
		return ""
	}
	ftb := &fatalTB{TB: t}
	func() {
		defer func() { recover() }() // fatalTB stops forTest with a panic, as FailNow would
		forTest(ftb, missing, require)
	}()
	if !ftb.fatal || ftb.skipped {
		t.Errorf("ForTest with SDCBENCH_REQUIRE_BROWSER=1 and no browser: failed %v, skipped %v; want a failure", ftb.fatal, ftb.skipped)
	}
}

// fatalTB records Fatal and Skip instead of ending the test.
type fatalTB struct {
	testing.TB
	fatal, skipped bool
}

func (f *fatalTB) Helper()              {}
func (f *fatalTB) Fatal(...any)         { f.fatal = true; panic("fatal") }
func (f *fatalTB) Skipf(string, ...any) { f.skipped = true; panic("skip") }

func TestFindHonoursEnvironment(t *testing.T) {
	t.Setenv("SDCBENCH_CHROMIUM", filepath.Join(t.TempDir(), "no-such-browser"))
	if _, err := Find(); err == nil || !strings.Contains(err.Error(), "SDCBENCH_CHROMIUM") {
		t.Errorf("Find with a missing SDCBENCH_CHROMIUM = %v, want an error naming it", err)
	}
}

// TestLoad runs the browser on small pages, each showing one thing Load must see.
func TestLoad(t *testing.T) {
	b := ForTest(t)
	dir := t.TempDir()
	for _, c := range []struct {
		name       string
		page       string
		selectors  []string
		wantCounts map[string]int
		wantErrors []string // substrings, one per error, in order
		wantRes    []string
		blank      bool // the screenshot is blank
	}{
		{
			name: "clean page",
			page: `<!DOCTYPE html><html><head><title>Clean</title><style>td{color:#333}</style></head><body><h1>A clean page</h1>
<table id="t"><tr><th>a</th></tr><tr><td>1</td></tr><tr><td>2</td></tr></table>
<svg width="50" height="50"><circle cx="10" cy="10" r="5"/><circle cx="30" cy="30" r="5"/></svg>
<script>window.addEventListener("load",function(){var r=document.createElement("tr");r.innerHTML="<td>3</td>";document.getElementById("t").appendChild(r);});</script>
</body></html>`,
			selectors:  []string{"table", "td", "svg circle", "script", "img", "tr:nth-child("},
			wantCounts: map[string]int{"table": 1, "td": 3, "svg circle": 2, "script": 1, "img": 0, "tr:nth-child(": -1},
		},
		{
			name:  "empty page",
			page:  `<!DOCTYPE html><html><head><title>Empty</title></head><body></body></html>`,
			blank: true,
		},
		{
			name:  "white text",
			page:  `<body style="background:#fff;color:#fff"><h1>Invisible</h1></body>`,
			blank: true,
		},
		{
			name:       "uncaught exception",
			page:       "<html><body><p>x</p>\n<script>\nnoSuchFunction();\n</script></body></html>",
			wantErrors: []string{"ReferenceError: noSuchFunction is not defined at " + fileURL(filepath.Join(dir, "uncaught exception.html")) + ":3:"},
			blank:      true, // a lone "x" inks fewer pixels than MinInk
		},
		{
			name:       "console error",
			page:       `<p>x</p><script>console.log("fine"); console.error("boom", {a: 1}, 2);</script>`,
			wantErrors: []string{`console.error: boom {"a":1} 2`},
			blank:      true, // a lone "x" inks fewer pixels than MinInk
		},
		{
			name:       "unhandled rejection",
			page:       `<p>x</p><script>Promise.reject(new Error("late"));</script>`,
			wantErrors: []string{"unhandled rejection: Error: late"},
			blank:      true, // a lone "x" inks fewer pixels than MinInk
		},
		{
			name:       "external image",
			page:       `<h1>A heading</h1><img src="http://example.invalid/x.png">`,
			selectors:  []string{"img"},
			wantCounts: map[string]int{"img": 1},
			wantErrors: []string{"failed to load <img src=http://example.invalid/x.png>"},
			wantRes:    []string{"http://example.invalid/x.png"},
		},
		{
			name:    "external background",
			page:    `<div style="width:10px;height:10px;background:url(https://example.invalid/bg.png)">x</div>`,
			wantRes: []string{"https://example.invalid/bg.png"},
			blank:   true, // a lone "x" inks fewer pixels than MinInk
		},
		{
			name:       "missing local script",
			page:       `<p>x</p><script src="nothere.js"></script>`,
			wantErrors: []string{"failed to load <script src=" + fileURL(filepath.Join(dir, "nothere.js")) + ">"},
			blank:      true, // a lone "x" inks fewer pixels than MinInk
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".html")
			if err := os.WriteFile(path, []byte(c.page), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := b.Load(context.Background(), path, c.selectors...)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Errors) != len(c.wantErrors) {
				t.Errorf("errors = %q, want %d containing %q", p.Errors, len(c.wantErrors), c.wantErrors)
			} else {
				for i, w := range c.wantErrors {
					if !strings.Contains(p.Errors[i], w) {
						t.Errorf("error %d = %q, want it to contain %q", i, p.Errors[i], w)
					}
				}
			}
			for sel, want := range c.wantCounts {
				if got, ok := p.Counts[sel]; !ok || got != want {
					t.Errorf("count of %q = %d (present %v), want %d", sel, got, ok, want)
				}
			}
			if !slices.Equal(p.Resources, c.wantRes) {
				t.Errorf("resources = %q, want %q", p.Resources, c.wantRes)
			}
			if strings.Contains(p.DOM, "sdcbench-browser") {
				t.Errorf("the probe's record is left in the DOM")
			}
			if bb := p.Screenshot.Bounds(); bb.Dx() != 1280 || bb.Dy() != 1600 {
				t.Errorf("screenshot is %v, want 1280 × 1600", bb)
			}
			if err := NotBlank(p.Screenshot); (err != nil) != c.blank {
				t.Errorf("NotBlank = %v (ink %.5f), want blank %v", err, Ink(p.Screenshot), c.blank)
			}
			left, _ := filepath.Glob(filepath.Join(dir, ".sdcbench-browser-*"))
			if len(left) > 0 {
				t.Errorf("Load left its copies behind: %q", left)
			}
		})
	}
}

// TestScreenshot: the screenshot of the page as it is (Load's is of its instrumented copy).
func TestScreenshot(t *testing.T) {
	b := ForTest(t)
	dir := t.TempDir()
	for _, c := range []struct {
		name, page string
		blank      bool
	}{
		{"heading", `<body><h1>Hello</h1></body>`, false},
		{"empty page", `<!DOCTYPE html><html><body></body></html>`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".html")
			if err := os.WriteFile(path, []byte(c.page), 0o644); err != nil {
				t.Fatal(err)
			}
			img, err := b.Screenshot(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			if bb := img.Bounds(); bb.Dx() != 1280 || bb.Dy() != 1600 {
				t.Errorf("screenshot is %v, want 1280 × 1600", bb)
			}
			if err := NotBlank(img); (err != nil) != c.blank {
				t.Errorf("NotBlank = %v (ink %.5f), want blank %v", err, Ink(img), c.blank)
			}
		})
	}
}
