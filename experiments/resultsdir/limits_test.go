package resultsdir

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestReadFileGzipBomb is issue 25: a runs.csv.gz that expands past
// datasets.MaxDecompressedBytes is an error naming the file and the limit, not an out-of-memory
// crash.
func TestReadFileGzipBomb(t *testing.T) {
	defer func(m int64) { datasets.MaxDecompressedBytes = m }(datasets.MaxDecompressedBytes)
	datasets.MaxDecompressedBytes = 1 << 20
	dir := t.TempDir()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte("a,b\n"))
	w.Write(make([]byte, 4<<20))
	w.Close()
	path := filepath.Join(dir, "runs.csv")
	if err := os.WriteFile(path+".gz", b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	if !errors.Is(err, datasets.ErrTooLarge) || !strings.Contains(err.Error(), "runs.csv.gz") || !strings.Contains(err.Error(), "1 MiB") {
		t.Errorf("gzip bomb: %v", err)
	}
}
