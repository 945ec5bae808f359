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

// TestAnalyzeReplacesSymlinkedOutputs: an analysis output that is a symbolic link (summary.csv
// to a file outside the folder) is replaced by the new file, never written through; the
// temporary files a killed earlier writer left in the folder and in plots/ are removed.
func TestAnalyzeReplacesSymlinkedOutputs(t *testing.T) {
	dir := copyDir(t, filepath.Join("testdata", "small"))
	outside := filepath.Join(t.TempDir(), "precious.csv")
	if err := os.WriteFile(outside, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"summary.csv", "REPORT.md"} {
		os.Remove(filepath.Join(dir, name))
		if err := os.Symlink(outside, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
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
	if b, _ := os.ReadFile(outside); string(b) != "precious\n" {
		t.Errorf("written through the link: %.80q", b)
	}
	for _, name := range []string{"summary.csv", "REPORT.md"} {
		if fi, err := os.Lstat(filepath.Join(dir, name)); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s: not replaced by a regular file (%v)", name, err)
		}
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
