//go:build linux

package thp

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if got, ok := Mode(write("enabled", "always [madvise] never\n")); got != "madvise" || !ok {
		t.Errorf("Mode = %q, %v; want madvise, true", got, ok)
	}
	if got, ok := Mode(filepath.Join(dir, "absent")); got != "" || ok {
		t.Errorf("Mode(absent) = %q, %v; want \"\", false", got, ok)
	}
	if got := PageSize(write("size", "1073741824\n")); got != 1<<30 {
		t.Errorf("PageSize = %d, want %d", got, 1<<30)
	}
	for _, p := range []string{write("empty", ""), filepath.Join(dir, "absent")} {
		if got := PageSize(p); got != DefaultPageSize {
			t.Errorf("PageSize(%s) = %d, want the default %d", filepath.Base(p), got, DefaultPageSize)
		}
	}
}
