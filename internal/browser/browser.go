// Package browser loads a local HTML page in headless Chromium and reports what a reader would
// meet: the errors the page raised (uncaught exceptions, console.error calls, resources that
// failed to load), the number of elements matching CSS selectors, and a screenshot with a check
// that it is not blank. It is the harness of the browser tests of the HTML reports
// (docs/release-report.md, "Tested in a real browser").
//
// The browser runs as a plain process, one per call, with no DevTools connection: Chromium's
// --dump-dom prints the document after the load event, and a small script that Load puts first
// in a copy of the page records every error and the element counts into the document, where the
// dump carries them out. This reads the page's own view of its errors, so it does not depend on
// the format of Chromium's log lines, which changes between versions.
package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// ErrNotFound is returned by Find when no Chromium executable is installed. Tests skip on it.
var ErrNotFound = errors.New("browser: no Chromium found (install Debian's chromium package: apt-get install -y chromium; or set SDCBENCH_CHROMIUM to the executable)")

// candidates are the executables Find looks for, in order, after SDCBENCH_CHROMIUM.
var candidates = []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless_shell"}

// Find returns the path of the Chromium executable: the environment variable SDCBENCH_CHROMIUM
// when set, else the first of /usr/bin/chromium (Debian's package) and chromium,
// chromium-browser, google-chrome, google-chrome-stable and headless_shell on PATH. It returns
// ErrNotFound when there is none.
func Find() (string, error) { return find(os.Getenv, exec.LookPath, candidates) }

// find is Find with its environment, its executable lookup and its candidates given.
func find(getenv func(string) string, lookPath func(string) (string, error), cands []string) (string, error) {
	if p := getenv("SDCBENCH_CHROMIUM"); p != "" {
		path, err := lookPath(p)
		if err != nil {
			return "", fmt.Errorf("browser: SDCBENCH_CHROMIUM=%s: %w", p, err)
		}
		return path, nil
	}
	for _, c := range cands {
		if path, err := lookPath(c); err == nil {
			return path, nil
		}
	}
	return "", ErrNotFound
}

// Browser is a headless Chromium executable and the settings of its runs. The zero value of a
// field means its default.
type Browser struct {
	// Path is the executable (Find's answer).
	Path string
	// Width and Height are the window's size in CSS pixels (default 1280 × 1600); the
	// screenshot has this size.
	Width, Height int
	// Timeout bounds one run of the browser (default 60 s); the context's deadline applies too.
	Timeout time.Duration
	// Settle is the virtual time the page's timers get after loading before the document is
	// dumped (default 2 s of virtual time, which passes at once when the page is idle).
	Settle time.Duration
}

// New returns a Browser on the executable Find returns, with the default settings.
func New() (*Browser, error) {
	path, err := Find()
	if err != nil {
		return nil, err
	}
	return &Browser{Path: path}, nil
}

// flags are the switches every run gets. Besides headless mode they keep Chromium from
// reaching the network on its own (background networking, component updates, sync) and from
// needing a sandbox or a GPU, as a container or a CI runner has neither; every host name
// resolves to nothing, so a page that loads an external resource fails to load it, at once and
// offline, and the failure is reported as an error of the page.
var flags = []string{
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--no-first-run",
	"--no-default-browser-check",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-extensions",
	"--disable-dev-shm-usage",
	"--hide-scrollbars",
	"--mute-audio",
	"--host-resolver-rules=MAP * ~NOTFOUND",
	"--allow-file-access-from-files",
}

func (b *Browser) size() (w, h int) {
	w, h = b.Width, b.Height
	if w <= 0 {
		w = 1280
	}
	if h <= 0 {
		h = 1600
	}
	return w, h
}

// run starts the browser with the common flags, a fresh profile folder and extra, and returns
// its standard output and standard error. The process and its children are killed when the run
// times out or ctx is done.
func (b *Browser) run(ctx context.Context, extra ...string) (stdout, stderr string, err error) {
	if b.Path == "" {
		return "", "", ErrNotFound
	}
	profile, err := os.MkdirTemp("", "sdcbench-chromium-")
	if err != nil {
		return "", "", fmt.Errorf("browser: profile folder: %w", err)
	}
	defer os.RemoveAll(profile)
	timeout := b.Timeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	w, h := b.size()
	args := append(append([]string{}, flags...), "--user-data-dir="+profile, fmt.Sprintf("--window-size=%d,%d", w, h))
	args = append(args, extra...)
	cmd := exec.CommandContext(ctx, b.Path, args...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Env = append(os.Environ(), "HOME="+profile) // keep ~/.config and caches out of the user's home
	setProcessGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	err = cmd.Run()
	if ctx.Err() != nil {
		return out.String(), errb.String(), fmt.Errorf("browser: %s %s: %w (stderr: %s)", b.Path, extra[len(extra)-1], ctx.Err(), tail(errb.String()))
	}
	if err != nil {
		return out.String(), errb.String(), fmt.Errorf("browser: %s %s: %w (stderr: %s)", b.Path, extra[len(extra)-1], err, tail(errb.String()))
	}
	return out.String(), errb.String(), nil
}

// tail returns the last lines of a log, enough to see why a run failed.
func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 8 {
		lines = lines[len(lines)-8:]
	}
	return strings.Join(lines, "\n")
}
