//go:build unix

package analysis

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestAnalyzeRefusesSymlinks: an analysis input (runs.csv, traces.csv, manifest.json) or output
// (summary.csv, REPORT.md, a pivot table, a plot) that is a symbolic link is refused before
// anything is read through it or written, naming the file, as run and merge refuse them; the
// link's target outside the folder is left unchanged. Before, analyze read runs.csv and the
// manifest through links and replaced linked outputs.
func TestAnalyzeRefusesSymlinks(t *testing.T) {
	for _, name := range []string{"runs.csv", "traces.csv", "manifest.json", "summary.csv", "REPORT.md",
		"table_sse_sst.csv", filepath.Join("plots", "box.png")} {
		t.Run(name, func(t *testing.T) {
			dir := copyDir(t, filepath.Join("testdata", "small"))
			outside := filepath.Join(t.TempDir(), "precious")
			content := []byte("precious\n")
			if old, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				content = old // a valid input: only the link is wrong
			}
			if err := os.WriteFile(outside, content, 0o644); err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Join(dir, "plots"), 0o755)
			os.Remove(filepath.Join(dir, name))
			if err := os.Symlink(outside, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			cfg, err := LoadConfig(dir)
			if err == nil {
				cfg.Plots = Bool(false)
				_, err = Run(context.Background(), dir, cfg)
			}
			if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "symbolic link") {
				t.Fatalf("err = %v, want a refusal naming %s as a symbolic link", err, name)
			}
			if b, _ := os.ReadFile(outside); string(b) != string(content) {
				t.Errorf("written through the link: %.80q", b)
			}
			if fi, err := os.Lstat(filepath.Join(dir, name)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link was replaced (%v)", err)
			}
			if _, err := os.Stat(filepath.Join(dir, "REPORT.md")); name != "REPORT.md" && err == nil {
				t.Errorf("REPORT.md written although the analysis was refused")
			}
		})
	}
}

// TestAnalyzeRemovesStaleTemps: the temporary files a killed earlier writer left in the folder
// and in plots/ are removed by the next analysis.
func TestAnalyzeRemovesStaleTemps(t *testing.T) {
	dir := copyDir(t, filepath.Join("testdata", "small"))
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("no child process: %v", err)
	}
	os.MkdirAll(filepath.Join(dir, "plots"), 0o755)
	var stale []string
	for _, p := range []string{filepath.Join(dir, ".best.csv"), filepath.Join(dir, "plots", ".x.png")} {
		p += datasets.TempMarker + strconv.Itoa(cmd.Process.Pid) + "-9"
		os.WriteFile(p, []byte("half"), 0o644)
		stale = append(stale, p)
	}
	cfg, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Plots = Bool(false)
	if _, err := Run(context.Background(), dir, cfg); err != nil {
		t.Fatal(err)
	}
	for _, p := range stale {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("stale temporary file %s kept", p)
		}
	}
}

type failingWriterTo struct{}

func (failingWriterTo) WriteTo(w io.Writer) (int64, error) {
	n, _ := w.Write([]byte("<svg half"))
	return int64(n), errors.New("no space left on device")
}

// TestPlotWriteAtomic: a plot whose write fails (a full disk) leaves the previous file whole and
// no truncated or temporary file behind; so do the tables.
func TestPlotWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "box.svg")
	os.WriteFile(path, []byte("<svg old/>"), 0o644)
	if err := writeTo(path, failingWriterTo{}); err == nil {
		t.Fatal("write error lost")
	}
	if b, _ := os.ReadFile(path); string(b) != "<svg old/>" {
		t.Errorf("old plot damaged: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("files left: %v", ents)
	}
}

// TestPlotsFolderSymlinkRefused: a plots/ that is a symbolic link to a folder elsewhere is
// refused with its name; nothing is written there.
func TestPlotsFolderSymlinkRefused(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	link := filepath.Join(dir, "plots")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	_, err := SaveFigures(link, []Figure{{Name: "x"}})
	if err == nil || !strings.Contains(err.Error(), link) {
		t.Fatalf("err = %v", err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("written through the link: %v", ents)
	}
}
