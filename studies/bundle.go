package studies

import (
	"io"
	"io/fs"
	"slices"
	"strings"
	"time"
)

// Bundled returns the experiment files of every registered study as one flat, read-only file
// system: <name>.toml, <name>.expected.csv and <name>.notes.md, each served from the folder of
// the study that owns experiment name. It is what the harness reads bundled specs, published
// numbers and notes from (experiments.Load, the analysis's Config.Bundled).
func Bundled() fs.FS { return bundle(All()) }

// bundle is the union of the studies' experiment files; names are unique across studies
// (Register checks it).
type bundle []Study

// Open opens name from the study that owns it, or the root directory ".".
func (b bundle) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		entries, err := b.ReadDir(".")
		if err != nil {
			return nil, err
		}
		return &rootDir{entries: entries}, nil
	}
	if bundledFile(name) {
		for _, s := range b {
			if f, err := s.Files.Open(name); err == nil {
				return f, nil
			}
		}
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// ReadDir lists the experiment files of every study, sorted by name; "." is the only directory.
func (b bundle) ReadDir(name string) ([]fs.DirEntry, error) {
	if name != "." {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	var out []fs.DirEntry
	for _, s := range b {
		entries, err := fs.ReadDir(s.Files, ".")
		if err != nil {
			return nil, &fs.PathError{Op: "readdir", Path: s.Name, Err: err}
		}
		for _, e := range entries {
			if !e.IsDir() && bundledFile(e.Name()) {
				out = append(out, e)
			}
		}
	}
	slices.SortFunc(out, func(x, y fs.DirEntry) int { return strings.Compare(x.Name(), y.Name()) })
	return out, nil
}

// rootDir is the open root directory of a bundle.
type rootDir struct {
	entries []fs.DirEntry
	off     int
}

func (d *rootDir) Stat() (fs.FileInfo, error) { return rootInfo{}, nil }
func (d *rootDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: ".", Err: fs.ErrInvalid}
}
func (d *rootDir) Close() error { return nil }

// ReadDir returns the next n entries (all remaining ones when n <= 0).
func (d *rootDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.off:]
	if n <= 0 {
		d.off = len(d.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.off += n
	return rest[:n], nil
}

// rootInfo describes the root directory of a bundle.
type rootInfo struct{}

func (rootInfo) Name() string       { return "." }
func (rootInfo) Size() int64        { return 0 }
func (rootInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o555 }
func (rootInfo) ModTime() time.Time { return time.Time{} }
func (rootInfo) IsDir() bool        { return true }
func (rootInfo) Sys() any           { return nil }
