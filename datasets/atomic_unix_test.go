//go:build unix

package datasets

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// A symbolic link at the target is replaced by the new file, never written through.
func TestAtomicWriteReplacesSymlink(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside.csv")
	if err := os.WriteFile(outside, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "summary.csv")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if err := AtomicWrite(link, writeString("new\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious\n" {
		t.Errorf("written through the link: %q", b)
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("link not replaced by a regular file: %v %v", fi, err)
	}
}

// A FIFO or device at the target is refused with its name, not replaced by a regular file.
func TestAtomicWriteRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	err := AtomicWrite(fifo, writeString("x\n"))
	if err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "named pipe") {
		t.Fatalf("err = %v", err)
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Error("FIFO replaced")
	}
	if err := AtomicWrite("/dev/null", writeString("x\n")); err == nil || !strings.Contains(err.Error(), "device") {
		t.Errorf("/dev/null: err = %v", err)
	}
	if fi, err := os.Lstat("/dev/null"); err == nil && fi.Mode()&os.ModeDevice == 0 {
		t.Error("/dev/null replaced")
	}
	for _, alias := range []string{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"} {
		before, lerr := os.Lstat(alias)
		if err := AtomicWrite(alias, writeString("x\n")); err == nil || !strings.Contains(err.Error(), "descriptor") {
			t.Errorf("%s: err = %v", alias, err)
		}
		if after, err := os.Lstat(alias); lerr == nil && (err != nil || after.Mode() != before.Mode()) {
			t.Errorf("%s replaced", alias)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

// The temporary files of a killed writer are removed; those of a running one stay.
func TestRemoveStaleTemps(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("no child process: %v", err)
	}
	dead := cmd.Process.Pid
	stale := filepath.Join(dir, ".runs.csv"+TempMarker+strconv.Itoa(dead)+"-123")
	live := filepath.Join(dir, ".summary.csv"+TempMarker+strconv.Itoa(os.Getppid())+"-456")
	own := filepath.Join(dir, ".best.csv"+TempMarker+strconv.Itoa(os.Getpid())+"-789")
	user := filepath.Join(dir, "notes.tmp")
	for _, p := range []string{stale, live, own, user} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	RemoveStaleTemps(dir)
	if _, err := os.Stat(stale); err == nil {
		t.Error("stale temporary file kept")
	}
	for _, p := range []string{live, own, user} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed", p)
		}
	}
}
