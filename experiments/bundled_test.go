package experiments_test

import (
	"io/fs"
	"os"
	"path/filepath"
)

// bundled stands in for the studies' specs in the harness's tests: the fixtures in
// testdata/bundled (an absolute path, so that tests that change directory still find them).
var bundled = func() fs.FS {
	abs, err := filepath.Abs(filepath.Join("testdata", "bundled"))
	if err != nil {
		panic(err)
	}
	return os.DirFS(abs)
}()
