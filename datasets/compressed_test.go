package datasets

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompressedInput: a gzip (or xz, zstd, zip) file given as CSV is called that, with the
// file's name (it was read as binary garbage: `bare "` or a header of control bytes).
func TestCompressedInput(t *testing.T) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("a,b\n1,2\n3,4\n"))
	w.Close()
	path := filepath.Join(t.TempDir(), "data.csv.gz")
	if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []ReadOptions{{}, {Mixed: true}} {
		_, err := ReadFile(path, opt)
		if !errors.Is(err, ErrCompressed) || !strings.Contains(err.Error(), path+": gzip-compressed: decompress it first") {
			t.Errorf("gzip file %+v: %v", opt, err)
		}
	}
	for _, head := range []string{"\xfd7zXZ\x00rest", "\x28\xb5\x2f\xfdrest", "PK\x03\x04rest"} {
		if _, err := ReadCSV(strings.NewReader(head), "f.csv", ReadOptions{Mixed: true}); !errors.Is(err, ErrCompressed) {
			t.Errorf("%q: %v", head[:4], err)
		}
	}
	if d, err := ReadCSV(strings.NewReader("PK,x\n1,2\n"), "f.csv", ReadOptions{}); err != nil || d.N != 1 {
		t.Errorf("plain CSV whose header starts with PK: %v", err)
	}
}
