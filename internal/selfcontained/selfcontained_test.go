// Package selfcontained holds a test that keeps the repository readable on its own: no file may
// point into the working notes the project was built from (a folder named shared beside the
// repository, which readers never see). Documentation lives in docs/ (docs/architecture.md).
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

// workingNotes matches a pointer into the working notes (the folder name is split so that
// this file does not match itself).
var workingNotes = regexp.MustCompile(`shared` + `/(spec|seeds|datasets|tools|hooks)\b`)

// skipDirs are not part of what a reader reads: generated results, build output, VCS data.
var skipDirs = map[string]bool{".git": true, "results": true, "bin": true, "out": true, "testdata": true}

// textExt are the files checked.
var textExt = map[string]bool{".go": true, ".md": true, ".toml": true, ".csv": true, ".R": true, ".sh": true, ".txt": true, "": true}

func TestNoPointersToWorkingNotes(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found from %s: %v", root, err)
	}
	var bad []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
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
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for line := 1; sc.Scan(); line++ {
			if workingNotes.MatchString(sc.Text()) {
				rel, _ := filepath.Rel(root, path)
				bad = append(bad, rel+":"+strconv.Itoa(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Errorf("%d lines point into the working notes (point to docs/ or the publication instead):\n%s",
			len(bad), strings.Join(bad, "\n"))
	}
}
