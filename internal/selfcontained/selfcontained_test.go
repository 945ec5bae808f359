// Package selfcontained holds a test that keeps the repository readable on its own: no file may
// point into the working notes the project was built from (a folder named shared beside the
// repository, which readers never see, or its numbered seeds). Documentation lives in docs/
// (docs/architecture.md). The committed results folders are checked too: their Markdown reports
// (manifest.json, which records the run as it happened, is not read).
package selfcontained

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// workingNotes matches a pointer into the working notes: a path into the folder, the folder
// beside the repository, or one of its numbered seeds (the words are split so that this file
// does not match itself).
var workingNotes = regexp.MustCompile(notesDir + `/(spec|seeds|datasets|tools|hooks)\b` + `|\.\./` + notesDir + `\b` + `|\b[Ss]eed` + `[- ]0\d\d\b`)

// notesDir is the name of the working-notes folder, kept in one place so that this file names
// no path into it.
const notesDir = "shared"

// skipDirs are not part of what a reader reads: generated results, build output, VCS data.
var skipDirs = map[string]bool{".git": true, "results": true, "bin": true, "out": true, "testdata": true}

// textExt are the files checked.
var textExt = map[string]bool{".go": true, ".md": true, ".toml": true, ".csv": true, ".R": true, ".sh": true, ".txt": true, "": true}

// pointers returns the lines (path:line, relative to root) of the file path that match
// workingNotes.
func pointers(root, path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var bad []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if workingNotes.MatchString(sc.Text()) {
			rel, _ := filepath.Rel(root, path)
			bad = append(bad, rel+":"+strconv.Itoa(line))
		}
	}
	return bad, sc.Err()
}

func TestWorkingNotesPattern(t *testing.T) {
	for s, want := range map[string]bool{
		"see ../" + notesDir + "/spec/magga.md":                     true,
		"the " + notesDir + "/spec/README.md defines them":          true,
		"in ../" + notesDir + ", beside the repository":             true,
		"as " + "seed" + " 000 Table 5.5":                           true,
		"Seed" + " 003 says":                                        true,
		"The " + "seed" + "-000 tables":                             true,
		"The machine was shared with other jobs":                    false,
		"the seed's winner (0.1, 0.2, 0.9)":                         false,
		"seed = 2002001":                                            false,
		"random seed 17":                                            false,
		"That file cannot be shared, so none of these are computed": false,
	} {
		if got := workingNotes.MatchString(s); got != want {
			t.Errorf("%q: match %v, want %v", s, got, want)
		}
	}
}

func TestNoPointersToWorkingNotes(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found from %s: %v", root, err)
	}
	var bad []string
	// The committed results folders: their Markdown reports (not manifest.json).
	err := filepath.WalkDir(filepath.Join(root, "results"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".md" {
			return err
		}
		b, err := pointers(root, path)
		bad = append(bad, b...)
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (skipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !textExt[filepath.Ext(path)] || d.Name() == "sdcbench" {
			return nil
		}
		b, err := pointers(root, path)
		bad = append(bad, b...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Errorf("%d lines point into the working notes (point to docs/ or the publication instead):\n%s",
			len(bad), strings.Join(bad, "\n"))
	}
}
