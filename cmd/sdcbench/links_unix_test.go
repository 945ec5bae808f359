//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// smallCSV writes a numeric table of 12 rows to dir/name and returns its text.
func smallCSV(t *testing.T, dir, name string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := 0; i < 12; i++ {
		b.WriteString(ftoa(float64(i*7%5)) + "," + ftoa(float64(i)) + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestProtectOutIsIn: --out or --groups naming the --in file (the same path, another spelling,
// a symbolic or a hard link to it) is refused before anything is written; the original data
// stays as it was.
func TestProtectOutIsIn(t *testing.T) {
	dir := t.TempDir()
	orig := smallCSV(t, dir, "in.csv")
	if err := os.Symlink("in.csv", filepath.Join(dir, "sym.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, "in.csv"), filepath.Join(dir, "hard.csv")); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"in.csv", "./in.csv", filepath.Join(dir, "in.csv"), "sym.csv", "hard.csv"} {
		for _, flag := range []string{"--out", "--groups"} {
			args := []string{"protect", "--method", "mdav", "--param", "k=3", "--in", "in.csv", "--out", "m.csv", "--groups", "g.csv"}
			if flag == "--out" {
				args[8] = target
			} else {
				args[10] = target
			}
			_, e, code := sdcbench(t, dir, args...)
			checkError(t, flag+" "+target, e, code, []string{flag, "input file", "--in in.csv"})
			if b, _ := os.ReadFile(filepath.Join(dir, "in.csv")); string(b) != orig {
				t.Fatalf("%s %s: the input was overwritten", flag, target)
			}
		}
	}
	for _, f := range []string{"m.csv", "g.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s written", f)
		}
	}
	// the same path given to --in twice as data is fine for eval, which writes nothing
	if _, e, code := sdcbench(t, dir, "eval", "--orig", "in.csv", "--masked", "sym.csv", "--metrics", "sse_sst"); code != 0 {
		t.Errorf("eval: %s", e)
	}
}

// TestProtectOutDevice: --out onto a device (/dev/null), a named pipe or /dev/stdout writes
// through it and leaves it what it was, never a regular file in its place.
func TestProtectOutDevice(t *testing.T) {
	dir := t.TempDir()
	smallCSV(t, dir, "in.csv")
	args := func(out string) []string {
		return []string{"protect", "--method", "mdav", "--param", "k=3", "--in", "in.csv", "--out", out}
	}
	if f, err := os.OpenFile("/dev/null", os.O_WRONLY, 0); err != nil {
		t.Logf("skipping /dev/null: not writable here (%v)", err)
	} else {
		f.Close()
		if _, e, code := sdcbench(t, dir, args("/dev/null")...); code != 0 {
			t.Errorf("--out /dev/null: %s", e)
		}
		if fi, err := os.Lstat("/dev/null"); err != nil || fi.Mode()&os.ModeDevice == 0 {
			t.Fatalf("/dev/null is no longer a device: %v %v", fi, err)
		}
	}
	// a named pipe: the reader gets the data, the pipe stays a pipe
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if _, e, code := sdcbench(t, dir, args("pipe")...); code != 0 {
		t.Errorf("--out FIFO: %s", e)
	}
	if s := <-got; !strings.HasPrefix(s, "a,b\n") || strings.Count(s, "\n") != 13 {
		t.Errorf("FIFO reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", fi)
	}
	// /dev/stdout onto a pipe, and onto a regular file opened for appending
	out, e, code := sdcbench(t, dir, args("/dev/stdout")...)
	if code != 0 || !strings.HasPrefix(out, "a,b\n") || strings.Count(out, "\n") != 13 {
		t.Errorf("--out /dev/stdout onto a pipe: %q %q", out, e)
	}
	log := filepath.Join(dir, "log.csv")
	os.WriteFile(log, []byte("before\n"), 0o644)
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, args("/dev/stdout")...)
	cmd.Dir, cmd.Stdout = dir, f
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Errorf("--out /dev/stdout onto a file: %v %s", err, errb.String())
	}
	f.Close()
	if b, _ := os.ReadFile(log); !strings.HasPrefix(string(b), "before\na,b\n") {
		t.Errorf("stdout file: %q", b)
	}
}

// TestStatusRefusesSymlinks: status refuses a results folder whose verdicts.csv,
// seed_comparison.csv or manifest.json is a symbolic link, naming the file, as run, merge and
// analyze do (it used to read through the link). The results folder itself may be a link.
func TestStatusRefusesSymlinks(t *testing.T) {
	seed := "table,item,source,verdict\nTable 1,cell,study,exact\n"
	files := map[string]string{
		"verdicts.csv":        "study,source,table,item,verdict\nX (2020),study,Table 1,cell,exact\n",
		"seed_comparison.csv": seed,
		"manifest.json":       `{"name": "tiny"}` + "\n",
	}
	for name, text := range files {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			exp := filepath.Join(dir, "results", "exp")
			if err := os.MkdirAll(exp, 0o755); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(exp, "seed_comparison.csv"), []byte(seed), 0o644)
			outside := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(outside, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(exp, name))
			if err := os.Symlink(outside, filepath.Join(exp, name)); err != nil {
				t.Fatal(err)
			}
			_, e, code := sdcbench(t, dir, "status")
			if code == 0 || !strings.Contains(e, name) || !strings.Contains(e, "symbolic link") {
				t.Errorf("status: exit %d, %q; want a refusal naming %s as a symbolic link", code, e, name)
			}
			// without the link the folder is read
			os.Remove(filepath.Join(exp, name))
			os.WriteFile(filepath.Join(exp, name), []byte(text), 0o644)
			if _, e, code := sdcbench(t, dir, "status"); code != 0 {
				t.Errorf("status without the link: exit %d, %q", code, e)
			}
		})
	}
	// a linked results folder is fine
	dir := t.TempDir()
	real := filepath.Join(t.TempDir(), "real")
	os.MkdirAll(filepath.Join(real, "exp"), 0o755)
	os.WriteFile(filepath.Join(real, "exp", "seed_comparison.csv"), []byte(seed), 0o644)
	if err := os.Symlink(real, filepath.Join(dir, "results")); err != nil {
		t.Fatal(err)
	}
	if out, e, code := sdcbench(t, dir, "status"); code != 0 || !strings.Contains(out, "exp") {
		t.Errorf("status of a linked results folder: exit %d, %q %q", code, out, e)
	}
}
