package datasets

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// tempName matches the name of a temporary file of AtomicWrite.
var tempName = regexp.MustCompile(`/\.[^/]*\.[^/]*tmp`)

// TestAtomicWriteNamesUserFile: AtomicWrite's errors name the user's file, never the temporary
// file beside it: a missing folder, a write error (a full disk), and a target that is a folder
// (Go's "rename TMP PATH: file exists"). The cause stays visible to errors.Is.
func TestAtomicWriteNamesUserFile(t *testing.T) {
	dir := t.TempDir()
	check := func(name string, err error, want string, cause error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) || tempName.MatchString(err.Error()) ||
			strings.Contains(err.Error(), "file exists") {
			t.Errorf("%s: %v, want it to contain %q and no temporary name", name, err, want)
		}
		if cause != nil && !errors.Is(err, cause) {
			t.Errorf("%s: %v does not wrap %v", name, err, cause)
		}
	}
	ok := func(w io.Writer) error { _, err := io.WriteString(w, "x\n"); return err }
	missing := filepath.Join(dir, "nofolder", "out.csv")
	check("missing folder", AtomicWrite(missing, ok), "writing "+missing+": no such file", syscall.ENOENT)

	out := filepath.Join(dir, "out.csv")
	full := func(w io.Writer) error {
		return fmt.Errorf("datasets: write: %w", &os.PathError{Op: "write", Path: w.(*os.File).Name(), Err: syscall.ENOSPC})
	}
	check("full disk", AtomicWrite(out, full), "writing "+out+": no space left on device", syscall.ENOSPC)

	folder := filepath.Join(dir, "folder")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	check("folder target", AtomicWrite(folder, ok), folder+" exists and is not a regular file (a folder)", nil)

	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if tempName.MatchString("/" + e.Name()) {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
	if err := AtomicWrite(out, ok); err != nil {
		t.Fatal(err)
	}
}
