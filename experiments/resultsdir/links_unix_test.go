//go:build unix

package resultsdir

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

var testHeader = []string{"run_id", "dataset", "status"}

// TestTruncatedRunsGzKept: a truncated runs.csv.gz stops the resume with an error naming it,
// and the file is neither deleted nor replaced.
func TestTruncatedRunsGzKept(t *testing.T) {
	for _, name := range []string{RunsFileGz, TracesFile + ".gz"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			for i := 0; i < 2000; i++ {
				zw.Write([]byte("run" + strconv.Itoa(i) + ",census,ok\n"))
			}
			zw.Close()
			cut := z.Bytes()[:z.Len()/2]
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, cut, 0o644); err != nil {
				t.Fatal(err)
			}
			a, _, err := OpenAppender(dir, testHeader)
			if err == nil {
				a.Close()
				t.Fatal("truncated file accepted")
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "truncated") {
				t.Errorf("error does not name the file: %v", err)
			}
			if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, cut) {
				t.Errorf("%s deleted or changed: %v", name, err)
			}
			if _, err := os.Stat(strings.TrimSuffix(path, ".gz")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a fresh %s was started beside it", strings.TrimSuffix(name, ".gz"))
			}
		})
	}
}

// TestSymlinkedFilesRefused: a results folder whose lock, runs.csv, traces.csv or manifest.json
// is a symbolic link is refused by Lock and OpenAppender with the link's name, and the link's
// target is neither created nor appended to.
func TestSymlinkedFilesRefused(t *testing.T) {
	for _, name := range []string{lockFile, RunsFile, TracesFile, ManifestFile, RunsFileGz} {
		t.Run(name, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			target := filepath.Join(outside, "victim")
			link := filepath.Join(dir, name)
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			unlock, err := Lock(dir)
			if err == nil {
				unlock()
				t.Fatal("Lock accepted a symlinked " + name)
			}
			if !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("Lock error: %v", err)
			}
			if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("Lock created the link's target")
			}
			// an existing target is not appended to either
			if err := os.WriteFile(target, []byte("run_id,dataset,status\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if a, _, err := OpenAppender(dir, testHeader); err == nil {
				a.Append([]string{"x", "census", "ok"}, "x", nil)
				a.Close()
				t.Error("OpenAppender accepted a symlinked " + name)
			}
			if b, _ := os.ReadFile(target); string(b) != "run_id,dataset,status\n" {
				t.Errorf("target written: %q", b)
			}
		})
	}
}

// TestAppendNoFollow: O_NOFOLLOW stops the append even when the link appears after the checks.
func TestAppendNoFollow(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(target, nil, 0o644)
	link := filepath.Join(dir, RunsFile)
	os.Symlink(target, link)
	if f, err := openAppend(link, testHeader); err == nil {
		f.Close()
		t.Fatal("openAppend followed the link")
	}
	if b, _ := os.ReadFile(target); len(b) != 0 {
		t.Errorf("target written: %q", b)
	}
}

// TestLockRemovesStaleTemps: the temporary file of a killed merge is removed at the next lock.
func TestLockRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("no child process: %v", err)
	}
	stale := filepath.Join(dir, "."+RunsFile+datasets.TempMarker+strconv.Itoa(cmd.Process.Pid)+"-1")
	os.WriteFile(stale, []byte("half"), 0o644)
	unlock, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	if _, err := os.Stat(stale); err == nil {
		t.Error("stale temporary file kept")
	}
}
