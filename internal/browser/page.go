package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Page is what Load saw of a page.
type Page struct {
	// Errors are the page's errors in the order they happened: uncaught exceptions
	// (Chromium's message, "Uncaught ReferenceError: … at URL:line:column"), rejected promises nobody handled ("unhandled rejection: …"), calls of
	// console.error ("console.error: …"), elements whose resource failed to load ("failed to
	// load <img src=…>"), and Content-Security-Policy violations. A page that works has none.
	Errors []string
	// Counts maps each selector given to Load to the number of elements
	// document.querySelectorAll found for it once the page had loaded and its load handlers
	// had run (the harness's own script and record are not counted).
	Counts map[string]int
	// Resources are the URLs of the resources the page requested (the Resource Timing entries:
	// scripts, style sheets, images, fonts, fetches, CSS backgrounds), the page itself not
	// included. A self-contained page has none. A file:// resource that does not exist makes
	// no entry; an element's shows in Errors.
	Resources []string
	// Title is the document's title.
	Title string
	// DOM is the serialized document after loading, as Chromium's --dump-dom printed it,
	// with the harness's record taken out.
	DOM string
	// Screenshot is the window (Browser.Width × Browser.Height pixels, the top of the page)
	// at the same moment, taken in the same run (the probe changes nothing visible).
	Screenshot image.Image
}

// probe is the script Load puts first in the page's copy. It records errors as they happen and,
// once the load handlers have run (a zero timeout after the load event), the element counts, the
// requested resources and the title, into a comment at the end of the root element:
// "sdcbench-browser:" and the record as base64 JSON, which --dump-dom prints. It removes its own
// element first, so that the page's script count is the page's. %s is the selectors' JSON.
const probe = `<script>(function(){
var rec={errors:[],counts:{},resources:[],title:"",loaded:false},sels=%s,note=null;
function write(){var r=document.documentElement;if(!r)return;
var s=btoa(unescape(encodeURIComponent(JSON.stringify(rec))));
if(!note){note=document.createComment("");}
note.data="sdcbench-browser:"+s;if(note.parentNode!==r)r.appendChild(note);}
function add(m){rec.errors.push(String(m));write();}
function str(x){try{if(x instanceof Error)return x.stack||String(x);if(typeof x==="object")return JSON.stringify(x);}catch(e){}return String(x);}
var ce=console.error;console.error=function(){var a=[];for(var i=0;i<arguments.length;i++)a.push(str(arguments[i]));add("console.error: "+a.join(" "));return ce.apply(console,arguments);};
window.addEventListener("error",function(e){var t=e.target;
if(t&&t!==window&&t.tagName){add("failed to load <"+t.tagName.toLowerCase()+" "+(t.src?"src="+t.src:"href="+t.href)+">");return;}
add((e.message||"uncaught error")+(e.filename?" at "+e.filename+":"+e.lineno+":"+e.colno:""));},true);
window.addEventListener("unhandledrejection",function(e){add("unhandled rejection: "+str(e.reason));});
document.addEventListener("securitypolicyviolation",function(e){add("content security policy: "+e.violatedDirective+" blocked "+e.blockedURI);});
function finish(){rec.counts={};for(var i=0;i<sels.length;i++){try{rec.counts[sels[i]]=document.querySelectorAll(sels[i]).length;}catch(e){rec.counts[sels[i]]=-1;}}
rec.resources=[];var es=performance.getEntriesByType("resource");for(var j=0;j<es.length;j++)rec.resources.push(es[j].name);
rec.title=document.title;rec.loaded=true;write();}
window.addEventListener("load",function(){setTimeout(finish,0);});
var me=document.currentScript;if(me&&me.parentNode)me.parentNode.removeChild(me);
})();</script>`

// record is the probe's record.
type record struct {
	Errors    []string       `json:"errors"`
	Counts    map[string]int `json:"counts"`
	Resources []string       `json:"resources"`
	Title     string         `json:"title"`
	Loaded    bool           `json:"loaded"`
}

var (
	recordRE = regexp.MustCompile(`<!--sdcbench-browser:([A-Za-z0-9+/=]*)-->`)
	// headRE, htmlRE and doctypeRE find where the probe goes: after <head>, else after <html>,
	// else after the doctype, else at the very start.
	headRE    = regexp.MustCompile(`(?i)<head(\s[^>]*)?>`)
	htmlRE    = regexp.MustCompile(`(?i)<html(\s[^>]*)?>`)
	doctypeRE = regexp.MustCompile(`(?i)^\s*<!doctype[^>]*>`)
)

// instrument returns the page with the probe placed before any of its own scripts run.
func instrument(page []byte, selectors []string) ([]byte, error) {
	sels, err := json.Marshal(selectors)
	if err != nil {
		return nil, err
	}
	if selectors == nil {
		sels = []byte("[]")
	}
	// One line, so that the page's own line numbers stay as they are unless its <head> shares
	// a line with its scripts.
	p := strings.ReplaceAll(fmt.Sprintf(probe, sels), "\n", "")
	at := 0
	for _, re := range []*regexp.Regexp{headRE, htmlRE, doctypeRE} {
		if loc := re.FindIndex(page); loc != nil {
			at = loc[1]
			break
		}
	}
	out := make([]byte, 0, len(page)+len(p))
	out = append(out, page[:at]...)
	out = append(out, p...)
	return append(out, page[at:]...), nil
}

// parseDump takes the probe's record out of the document --dump-dom printed.
func parseDump(dom string) (*Page, error) {
	ms := recordRE.FindAllStringSubmatchIndex(dom, -1)
	if len(ms) == 0 {
		return nil, fmt.Errorf("browser: the page's document holds no record of the probe (did the page replace its root element or fail to parse?)")
	}
	m := ms[len(ms)-1]
	raw, err := base64.StdEncoding.DecodeString(dom[m[2]:m[3]])
	if err != nil {
		return nil, fmt.Errorf("browser: the probe's record: %w", err)
	}
	var r record
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("browser: the probe's record %q: %w", raw, err)
	}
	if !r.Loaded {
		return nil, fmt.Errorf("browser: the page did not finish loading before the document was dumped (errors so far: %s)", strings.Join(r.Errors, "; "))
	}
	return &Page{Errors: r.Errors, Counts: r.Counts, Resources: r.Resources, Title: r.Title,
		DOM: dom[:m[0]] + dom[m[1]:]}, nil
}

// fileURL returns the file:// URL of an absolute path.
func fileURL(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// Load opens the HTML file path in the browser and returns the errors the page raised, the
// number of elements each selector matches, the resources it requested, its document and a
// screenshot, all from one run of the browser.
//
// The browser loads a copy of the page with the probe script put first in its head; the copy
// is written beside the page (a hidden file, removed afterwards), so that relative links
// resolve as they do for the page itself. An error is returned when the browser cannot run or
// the page does not finish loading; the page's own errors are in Page.Errors.
func (b *Browser) Load(ctx context.Context, path string, selectors ...string) (*Page, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	page, err := instrument(src, selectors)
	if err != nil {
		return nil, fmt.Errorf("browser: %s: %w", path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(abs), ".sdcbench-browser-*.html")
	if err != nil {
		return nil, fmt.Errorf("browser: a copy of %s beside it: %w", path, err)
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(page); err != nil {
		f.Close()
		return nil, fmt.Errorf("browser: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	settle := b.Settle
	if settle <= 0 {
		settle = 2 * time.Second
	}
	shots, err := os.MkdirTemp("", "sdcbench-screenshot-")
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	defer os.RemoveAll(shots)
	shot := filepath.Join(shots, "shot.png")
	out, _, err := b.run(ctx, "--dump-dom", "--screenshot="+shot, fmt.Sprintf("--virtual-time-budget=%d", settle.Milliseconds()), fileURL(f.Name()))
	if err != nil {
		return nil, err
	}
	p, err := parseDump(out)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	if p.Screenshot, err = readPNG(shot); err != nil {
		return nil, fmt.Errorf("browser: the screenshot of %s: %w", path, err)
	}
	// Name the page, not its copy, in what the page reports.
	copyURL, pageURL := fileURL(f.Name()), fileURL(abs)
	p.Resources = removeSelf(p.Resources, copyURL)
	for i, e := range p.Errors {
		p.Errors[i] = strings.ReplaceAll(e, copyURL, pageURL)
	}
	return p, nil
}

// removeSelf drops the page's own URL from the resources (with or without a fragment).
func removeSelf(res []string, self string) []string {
	out := res[:0]
	for _, r := range res {
		if base, _, _ := strings.Cut(r, "#"); base != self {
			out = append(out, r)
		}
	}
	return out
}
