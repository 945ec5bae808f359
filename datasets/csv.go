package datasets

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ReadOptions controls ReadCSV.
type ReadOptions struct {
	// Columns selects and orders the columns to keep, by header name. Nil keeps every
	// column; then every column must be numeric. Unselected columns may hold text.
	Columns []string
	// AllowNonFinite accepts NaN and ±Inf cells (for methods that handle missing values).
	AllowNonFinite bool
	// Mixed reads mixed-type files: a selected column with a cell that is not a number (other
	// than a missing marker, a token of NA) becomes categorical, its labels kept as they are
	// written; missing cells are NaN in a numeric column and code −1 in a categorical one;
	// so is "NaN", which WriteCSV writes for a missing number. Without Mixed every selected
	// cell must be a number (a missing marker only with AllowNonFinite).
	Mixed bool
	// NA is the set of missing-value markers; the zero NA is the default ("NA" and the
	// empty cell).
	NA NA
	// Categorical names columns read as categories even when every cell is a number (codes
	// such as region = 1..7). It implies Mixed for those columns.
	Categorical []string
}

// ReadCSV reads a numeric table with a header row from r. name labels the input in errors
// (a file path or a dataset name). The header must be present, non-empty and free of
// duplicates; every row must have as many fields as the header; every selected cell must
// parse as a float64 and, unless opt.AllowNonFinite, be finite. Leading and trailing spaces
// around a number are ignored. A missing marker (a token of opt.NA) is a number only with
// opt.AllowNonFinite or opt.Mixed, where it reads as NaN.
//
// A regular file (any io.ReadSeeker) is parsed as it is read, in chunks, by a fast,
// allocation-light reader (csvfast.go, docs/datapath.md); any other input
// is read whole into memory first (through LimitRecords). Whatever the fast reader does not
// handle itself — an error of any kind, a quoted field with an escaped quote or a line break —
// is parsed again from the start by the encoding/csv reader (readCSVStd), so results and
// errors are exactly that reader's.
func ReadCSV(r io.Reader, name string, opt ReadOptions) (*Dataset, error) {
	if rs, ok := r.(io.ReadSeeker); ok {
		if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
			return readSeeker(rs, start, name, opt)
		}
	}
	buf, err := readAll(LimitRecords(r, name))
	if err != nil { // the standard reader meets the same bytes, then the same error
		return readCSVStd(io.MultiReader(bytes.NewReader(buf), errReader{err}), name, opt)
	}
	open := func() (*lineSource, error) { return newBytesSource(buf), nil }
	if d, ok := readFast(open, int64(len(buf)), name, opt); ok {
		return d, nil
	}
	return readCSVStd(bytes.NewReader(buf), name, opt)
}

// readSeeker is ReadCSV on an input that can be read again from start.
func readSeeker(rs io.ReadSeeker, start int64, name string, opt ReadOptions) (*Dataset, error) {
	var size int64
	if end, err := rs.Seek(0, io.SeekEnd); err == nil {
		size = end - start
	}
	open := func() (*lineSource, error) {
		if _, err := rs.Seek(start, io.SeekStart); err != nil {
			return nil, err
		}
		return newStreamSource(rs, streamChunk), nil
	}
	if d, ok := readFast(open, size, name, opt); ok {
		return d, nil
	}
	if _, err := rs.Seek(start, io.SeekStart); err != nil {
		return nil, csvErr(name, err)
	}
	return readCSVStd(rs, name, opt)
}

// ReadFile reads a CSV file with ReadCSV, naming the file in errors.
func ReadFile(path string, opt ReadOptions) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	defer f.Close()
	return ReadCSV(f, path, opt)
}

// WriteCSV writes d with a header row. Numbers use the shortest representation that reads
// back to the same float64 (strconv 'g', -1), so a written table reads back bit-identical.
func WriteCSV(w io.Writer, d *Dataset) error { return writeCSV(w, d, "", false) }

// WriteCSVNA is WriteCSV writing every missing cell as the first token of na, so that the
// file reads back with the same tokens; with the default set it is WriteCSV (a missing
// category is "NA", a missing number "NaN").
func WriteCSVNA(w io.Writer, d *Dataset, na NA) error {
	if na.IsDefault() {
		return writeCSV(w, d, "", false)
	}
	return writeCSV(w, d, na.Tokens()[0], true)
}

// csvField quotes s for a CSV field when it needs it.
func csvField(s string) string {
	if s == "" || !strings.ContainsAny(s, ",\"\r\n") && strings.TrimSpace(s) == s {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// WriteFile writes d to path atomically: to a temporary file in the same folder, renamed on
// success, so that a failed write never leaves a partial file behind.
func WriteFile(path string, d *Dataset) error {
	return AtomicWrite(path, func(w io.Writer) error { return WriteCSV(w, d) })
}

// AtomicWrite calls write on a temporary file beside path, syncs it to disk and renames it to
// path if write, the sync and the close succeed; otherwise it removes the temporary file and
// returns the error. The temporary file is named ".NAME.sdcbench-tmp-PID-RANDOM" so that one a
// killed process leaves behind is recognised and removed by [RemoveStaleTemps]. A symbolic
// link at path is replaced by the new file, never written through; an existing path that is
// neither a regular file nor a symbolic link (a device, a FIFO, a folder) is refused.
func AtomicWrite(path string, write func(io.Writer) error) (err error) {
	defer func() { err = userFileError(err, path) }() // name path, never the temporary file
	dir, base := ".", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		dir, base = path[:i+1], path[i+1:]
	}
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() && fi.Mode()&os.ModeSymlink == 0 {
		return fmt.Errorf("datasets: %s exists and is not a regular file (%s): not replacing it", path, FileKind(fi.Mode()))
	}
	if DescriptorAlias(path) {
		return fmt.Errorf("datasets: %s names an open file descriptor, not a file: not replacing it", path)
	}
	f, err := os.CreateTemp(dir, "."+base+TempMarker+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Chmod(0o644); err != nil { // CreateTemp makes 0600; results are for everyone to read
		return fail(fmt.Errorf("datasets: %w", err))
	}
	if err := write(f); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("datasets: writing %s: %w", path, err))
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("datasets: writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("datasets: writing %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil { // make the rename durable (best effort)
		d.Sync()
		d.Close()
	}
	return nil
}

// TempMarker is part of the name of every temporary file [AtomicWrite] makes.
const TempMarker = ".sdcbench-tmp-"

// RemoveStaleTemps removes from dir the temporary files of [AtomicWrite] whose process is gone
// (killed before its rename): those named with TempMarker and the ID of a process that no
// longer runs on this machine or, where that cannot be checked, older than a day. Temporary
// files of running processes (a concurrent analysis) are left alone. Errors are ignored: the
// files are only clutter.
func RemoveStaleTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		i := strings.LastIndex(name, TempMarker)
		if !strings.HasPrefix(name, ".") || i < 0 || !e.Type().IsRegular() {
			continue
		}
		pidText, _, _ := strings.Cut(name[i+len(TempMarker):], "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() {
			continue
		}
		if alive, known := processAlive(pid); known && alive {
			continue
		} else if !known {
			if info, err := e.Info(); err != nil || time.Since(info.ModTime()) < 24*time.Hour {
				continue
			}
		}
		os.Remove(filepath.Join(dir, name))
	}
}

// DescriptorAlias reports whether path names an open file descriptor (/dev/stdout,
// /dev/stderr, /dev/stdin, /dev/fd/N, anything under /proc) rather than a file of its own: a
// rename there would replace the alias, not write to the descriptor.
func DescriptorAlias(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	switch abs {
	case "/dev/stdout", "/dev/stderr", "/dev/stdin":
		return true
	}
	return strings.HasPrefix(abs, "/dev/fd/") || strings.HasPrefix(abs, "/proc/")
}

// FileKind names the type of a file mode for messages: "device", "named pipe", ...
func FileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}

// headerList renders the header's column names for an error: each name clipped to MaxEcho
// bytes, and at most 20 names.
func headerList(header []string) string {
	names := make([]string, 0, min(len(header), 21))
	for i, h := range header {
		if i == 20 {
			names = append(names, fmt.Sprintf("… %d more", len(header)-20))
			break
		}
		names = append(names, Clip(h))
	}
	return strings.Join(names, ", ")
}
