package datasets

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
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

// readCSVStd is ReadCSV on encoding/csv, field by field: the reference the fast reader is
// tested against and the path of every input the fast reader hands back.
func readCSVStd(r io.Reader, name string, opt ReadOptions) (*Dataset, error) {
	br := bufio.NewReader(LimitRecords(r, name))
	if err := checkCompressed(br, name); err != nil {
		return nil, err
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1 // checked here, with a better message
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil, &ParseError{File: name, Err: ErrEmpty}
	}
	if err != nil {
		return nil, csvErr(name, err)
	}
	hs, err := parseHeader(header, name, opt)
	if err != nil {
		return nil, err
	}
	header, keep, names, forced := hs.header, hs.keep, hs.names, hs.forced
	p := len(keep)
	mixed := opt.Mixed || len(opt.Categorical) > 0
	var data []float64
	var text [][]string // text[c][i]: raw cells of column c, kept while it may turn categorical
	if mixed {
		text = make([][]string, p)
	}
	isText := make([]bool, p)
	isMissing := opt.NA.missing
	n := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && rec[0] == "" && len(header) > 1 {
			continue // blank line
		}
		if len(rec) != len(header) {
			return nil, &ParseError{File: name, Row: line,
				Err: fmt.Errorf("%w: %d fields, header has %d", ErrRagged, len(rec), len(header))}
		}
		for c, j := range keep {
			s := strings.TrimSpace(rec[j])
			if mixed {
				text[c] = append(text[c], s)
				if forced[c] || isText[c] {
					data = append(data, 0)
					continue
				}
				if isMissing(s) {
					data = append(data, math.NaN())
					continue
				}
			} else if opt.AllowNonFinite && opt.NA.Contains(s) {
				data = append(data, math.NaN())
				continue
			}
			v, perr := strconv.ParseFloat(s, 64)
			if perr != nil {
				if errors.Is(perr, strconv.ErrRange) && math.IsInf(v, 0) {
					// a number too large for float64 is an error even in a mixed file:
					// reading it as a label would hide it
					return nil, &ParseError{File: name, Row: line, Column: header[j], Value: rec[j], Err: ErrOutOfRange}
				}
				if mixed {
					isText[c] = true
					data = append(data, 0)
					continue
				}
				return nil, &ParseError{File: name, Row: line, Column: header[j], Value: rec[j], Err: ErrNotNumber}
			}
			if !opt.AllowNonFinite && !mixed && (math.IsNaN(v) || math.IsInf(v, 0)) {
				return nil, &ParseError{File: name, Row: line, Column: header[j], Value: rec[j], Err: ErrNonFinite}
			}
			data = append(data, v)
		}
		n++
	}
	if n == 0 {
		return nil, &ParseError{File: name, Err: ErrNoRows}
	}
	d := New(name, names, n, p, data)
	for c := 0; c < p; c++ {
		if !mixed {
			break
		}
		if forced[c] || isText[c] {
			setCategorical(d, c, text[c], isMissing)
		} else if !opt.AllowNonFinite {
			for i := 0; i < n; i++ {
				if v := data[i*p+c]; math.IsInf(v, 0) || (v != v && !isMissing(text[c][i])) {
					return nil, &ParseError{File: name, Row: i + 2, Column: names[c], Value: text[c][i], Err: ErrNonFinite}
				}
			}
		}
	}
	return d, nil
}

// headerSpec is a parsed header row: the trimmed names, the indices and names of the columns
// read, and which of them are read as categories (opt.Categorical).
type headerSpec struct {
	header []string
	keep   []int
	names  []string
	forced []bool
}

// parseHeader checks the header row (a copy is kept) against opt: names trimmed of spaces
// and byte-order marks, none empty or repeated, every selected and categorical column present.
func parseHeader(header []string, name string, opt ReadOptions) (*headerSpec, error) {
	header = append([]string(nil), header...)
	for j := range header { // spaces and byte-order marks around names
		header[j] = strings.TrimFunc(header[j], func(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' })
	}
	if len(header) == 1 && header[0] == "" {
		return nil, &ParseError{File: name, Row: 1, Err: ErrEmpty}
	}
	pos := map[string]int{}
	for j, h := range header {
		h = strings.TrimSpace(h)
		header[j] = h
		if h == "" {
			return nil, &ParseError{File: name, Row: 1, Value: fmt.Sprintf("column %d", j+1), Err: ErrEmptyName}
		}
		if _, dup := pos[h]; dup {
			return nil, &ParseError{File: name, Row: 1, Column: h, Err: ErrDuplicateName}
		}
		pos[h] = j
	}
	keep := make([]int, 0, len(header))
	names := make([]string, 0, len(header))
	if opt.Columns == nil {
		for j := range header {
			keep = append(keep, j)
		}
		names = append(names, header...)
	} else {
		seen := map[string]bool{}
		for _, c := range opt.Columns {
			j, ok := pos[c]
			if !ok {
				return nil, &ParseError{File: name, Row: 1, Column: c,
					Err: fmt.Errorf("no such column (header has %s)", headerList(header))}
			}
			if seen[c] {
				return nil, &ParseError{File: name, Row: 1, Column: c, Err: ErrDuplicateName}
			}
			seen[c] = true
			keep = append(keep, j)
			names = append(names, c)
		}
	}
	forced := make([]bool, len(keep))
	for _, c := range opt.Categorical {
		j := slices.Index(names, c)
		if j < 0 {
			return nil, &ParseError{File: name, Row: 1, Column: c,
				Err: fmt.Errorf("categorical column not among the columns read (%s)", strings.Join(names, ", "))}
		}
		forced[j] = true
	}
	return &headerSpec{header: header, keep: keep, names: names, forced: forced}, nil
}

// setCategorical turns column c of d into a categorical column with the given raw cells
// (one per row). Levels are sorted: numerically if every label is a number, else by bytes.
// A cell for which isMissing is true is missing.
func setCategorical(d *Dataset, c int, cells []string, isMissing func(string) bool) {
	seen := map[string]bool{}
	var labels []string
	for _, s := range cells {
		if !isMissing(s) && !seen[s] {
			seen[s] = true
			labels = append(labels, s)
		}
	}
	sortLevels(labels)
	code := make(map[string]int, len(labels))
	for k, l := range labels {
		code[l] = k
	}
	if d.Levels == nil {
		d.Levels = make([][]string, d.P)
	}
	d.Levels[c] = append(labels[:0:0], labels...)
	if d.Levels[c] == nil {
		d.Levels[c] = []string{}
	}
	for i, s := range cells {
		if k, ok := code[s]; ok {
			d.Data[i*d.P+c] = float64(k)
		} else {
			d.Data[i*d.P+c] = math.NaN()
		}
	}
}

// SortLevels sorts category labels in place as the reader orders levels: numerically when
// all parse as numbers (as R sorts the levels of a numeric factor), otherwise in byte order.
func SortLevels(labels []string) { sortLevels(labels) }

func sortLevels(labels []string) {
	nums := make(map[string]float64, len(labels))
	for _, l := range labels {
		v, err := strconv.ParseFloat(l, 64)
		if err != nil {
			slices.Sort(labels)
			return
		}
		nums[l] = v
	}
	slices.SortFunc(labels, func(a, b string) int {
		if c := cmp.Compare(nums[a], nums[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
}

// Categorize returns a copy of d in which the named numeric columns are categorical: their
// distinct values, sorted, become the levels (labels in shortest formatting) and NaN is
// missing. Columns already categorical are left as they are; an unknown name is an error.
func (d *Dataset) Categorize(cols []string) (*Dataset, error) {
	out := d.Clone()
	for _, name := range cols {
		j := d.ColIndex(name)
		if j < 0 {
			return nil, fmt.Errorf("datasets: %s: no column %q (have %s)", d.Name, name, strings.Join(d.Names, ", "))
		}
		if out.IsCategorical(j) {
			continue
		}
		categorizeColumn(out, j)
	}
	return out, nil
}

// categorizeColumn makes numeric column j of d categorical in place, as setCategorical would
// from the cells' shortest formatting, but formatting each distinct value once: distinct
// values (by bits, so −0 and 0 stay apart as their labels do) have distinct labels. Small
// non-negative integers, the usual codes, are counted in a table instead of a map.
func categorizeColumn(d *Dataset, j int) {
	const dense = 1024
	var small [dense]int32 // small[k]: 1 + index in vals of the value k, 0 if not seen
	other := map[uint64]int32{}
	var vals []float64
	index := func(v float64) int32 {
		if k := int(v); float64(k) == v && k >= 0 && k < dense && !math.Signbit(v) {
			if small[k] == 0 {
				vals = append(vals, v)
				small[k] = int32(len(vals))
			}
			return small[k] - 1
		}
		b := math.Float64bits(v)
		x, ok := other[b]
		if !ok {
			vals = append(vals, v)
			x = int32(len(vals))
			other[b] = x
		}
		return x - 1
	}
	for i := 0; i < d.N; i++ {
		if v := d.Data[i*d.P+j]; v == v {
			index(v)
		}
	}
	labels := make([]string, len(vals))
	for k, v := range vals {
		labels[k] = formatFloat(v)
	}
	sorted := append([]string(nil), labels...)
	sortLevels(sorted)
	code := make(map[string]int, len(sorted))
	for k, l := range sorted {
		code[l] = k
	}
	remap := make([]float64, len(vals))
	for k, l := range labels {
		remap[k] = float64(code[l])
	}
	if d.Levels == nil {
		d.Levels = make([][]string, d.P)
	}
	if sorted == nil {
		sorted = []string{}
	}
	d.Levels[j] = sorted
	for i := 0; i < d.N; i++ {
		if v := d.Data[i*d.P+j]; v == v {
			d.Data[i*d.P+j] = remap[index(v)]
		}
	}
}

// AlignLevels returns a copy of d whose categorical columns use ref's codes for the same
// label (matched by column name), so that an original and a release read from separate
// files compare code by code. Labels of d unknown to ref are appended to its levels.
// A column categorical in ref and numeric in d is categorized first.
func (d *Dataset) AlignLevels(ref *Dataset) (*Dataset, error) {
	out := d.Clone()
	for j, name := range out.Names {
		r := ref.ColIndex(name)
		if r < 0 || !ref.IsCategorical(r) {
			continue
		}
		if !out.IsCategorical(j) {
			categorizeColumn(out, j) // in place: out is already a copy
		}
		levels := append([]string{}, ref.Levels[r]...)
		code := make(map[string]int, len(levels))
		for k, l := range levels {
			code[l] = k
		}
		remap := make([]float64, len(out.Levels[j]))
		for k, l := range out.Levels[j] {
			c, ok := code[l]
			if !ok {
				c = len(levels)
				code[l] = c
				levels = append(levels, l)
			}
			remap[k] = float64(c)
		}
		for i := 0; i < out.N; i++ {
			if v := out.Data[i*out.P+j]; v == v {
				out.Data[i*out.P+j] = remap[int(v)]
			}
		}
		out.Levels[j] = levels
	}
	return out, nil
}

func csvErr(name string, err error) error {
	if errors.Is(err, ErrTooLarge) {
		return err // names the file and the limit
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: name, Row: pe.Line, Err: pe.Err}
	}
	return &ParseError{File: name, Err: err}
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
