package experiments

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/metrics"
)

// File names inside a results folder.
const (
	RunsFile     = "runs.csv"
	RunsFileGz   = "runs.csv.gz"
	TracesFile   = "traces.csv"
	ManifestFile = "manifest.json"
	lockFile     = ".sdcbench.lock"
)

// gzipAbove is the runs.csv size above which a finished experiment is stored gzipped.
const gzipAbove = 5 << 20

// Version is the sdcbench version written to manifests.
const Version = "0.1.0"

// Header returns the runs.csv columns of the spec: run_id, dataset, method, one param_<name>
// per parameter of any of its methods (first appearance order), replicate, seed, one column
// per metric and per declared metric component, with profile = true one <metric>_seconds per
// metric and cpu_seconds, peak_heap_mb (profile.go), then seconds, status, error.
func (s *Spec) Header() []string {
	h := []string{"run_id", "dataset", "method"}
	for _, name := range s.paramNames() {
		h = append(h, "param_"+name)
	}
	h = append(h, "replicate", "seed")
	for _, id := range s.Metrics {
		m, _ := metrics.Lookup(id)
		h = append(h, id)
		for _, c := range m.Info().Components {
			h = append(h, id+"_"+c)
		}
	}
	if s.Profile {
		for _, id := range s.Metrics {
			h = append(h, id+"_seconds")
		}
		h = append(h, "cpu_seconds", "peak_heap_mb")
	}
	return append(h, "seconds", "status", "error")
}

func (s *Spec) paramNames() []string {
	var names []string
	for _, m := range s.methods {
		for _, ps := range m.Info().Params {
			if !slices.Contains(names, ps.Name) {
				names = append(names, ps.Name)
			}
		}
	}
	return names
}

// Table is a parsed runs.csv.
type Table struct {
	Header []string
	Rows   [][]string
}

// Col returns the index of a column, or −1.
func (t *Table) Col(name string) int { return slices.Index(t.Header, name) }

// ReadRuns reads dir/runs.csv, or dir/runs.csv.gz when only that exists. A torn last line (no
// final newline, as a killed writer may leave) is ignored.
func ReadRuns(dir string) (*Table, error) { return ReadTable(filepath.Join(dir, RunsFile)) }

// ReadTable reads a CSV file of a results folder (runs.csv, traces.csv, ...), or path+".gz"
// when only that exists, ignoring a torn last line. A missing file is an error wrapping
// os.ErrNotExist.
func ReadTable(path string) (*Table, error) {
	data, err := readMaybeGz(path)
	if err != nil {
		return nil, err
	}
	return parseRuns(data, path)
}

// readMaybeGz returns the content of path, or of path+".gz" decompressed.
func readMaybeGz(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err == nil {
		return data, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("experiments: %w", err)
	}
	f, gerr := os.Open(path + ".gz")
	if gerr != nil {
		return nil, fmt.Errorf("experiments: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("experiments: %s.gz: %w", path, err)
	}
	data, err = io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("experiments: %s.gz: %w", path, err)
	}
	return data, nil
}

func parseRuns(data []byte, name string) (*Table, error) {
	if i := bytes.LastIndexByte(data, '\n'); i < len(data)-1 {
		data = data[:i+1] // drop a torn last line
	}
	cr := csv.NewReader(bytes.NewReader(data))
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("experiments: %s: %w", name, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("experiments: %s: empty file", name)
	}
	return &Table{Header: recs[0], Rows: recs[1:]}, nil
}

// Manifest records where a results folder came from.
type Manifest struct {
	Name       string    `json:"name"`
	SpecHash   string    `json:"spec_hash"`
	Spec       string    `json:"spec"`
	Shard      string    `json:"shard,omitempty"`
	Tool       string    `json:"tool_version"`
	GoVersion  string    `json:"go_version"`
	Started    time.Time `json:"started"`
	Finished   time.Time `json:"finished,omitzero"`
	CPUs       int       `json:"cpus"`
	OS         string    `json:"os"`
	Arch       string    `json:"arch"`
	Workers    int       `json:"workers"`
	Runs       int       `json:"runs"`
	Complete   bool      `json:"complete"`
	Cumulative float64   `json:"run_seconds_total"`
	// Inputs maps each dataset read from a file to the file's SHA-256.
	Inputs map[string]string `json:"inputs,omitempty"`
	// MetricVersions is the definition version of every metric of the spec
	// (metrics.Info.DefinitionVersion); DatasetHashes the content hash of every dataset, by
	// label (DatasetHash). Folders written before sdcbench recorded them have neither.
	MetricVersions map[string]int    `json:"metric_versions,omitempty"`
	DatasetHashes  map[string]string `json:"dataset_hashes,omitempty"`
}

// DatasetHash returns the content hash of a dataset as the runner sees it (after column
// selection): SHA-256 over the column names, the IEEE-754 bits of every value, row-major,
// and the category labels of categorical columns, in hex. Two folders with equal hashes ran on identical data.
func DatasetHash(d *datasets.Dataset) string {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(d.N))
	h.Write(b[:])
	for _, n := range d.Names {
		h.Write([]byte(n))
		h.Write([]byte{0})
	}
	for _, v := range d.Data {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	for j, lv := range d.Levels { // the labels behind a categorical column's codes
		for _, l := range lv {
			fmt.Fprintf(h, "%d\x00%s\x00", j, l)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func newManifest(s *Spec, sh Shard, workers, runs int) *Manifest {
	m := &Manifest{Name: s.Name, SpecHash: s.Hash, Spec: s.Text, Shard: sh.String(), Tool: Version,
		GoVersion: runtime.Version(), Started: time.Now().UTC(), CPUs: runtime.NumCPU(),
		OS: runtime.GOOS, Arch: runtime.GOARCH, Workers: workers, Runs: runs, Inputs: s.Inputs,
		MetricVersions: map[string]int{}, DatasetHashes: map[string]string{}}
	for _, id := range s.Metrics {
		if mt, err := metrics.Lookup(id); err == nil {
			m.MetricVersions[id] = mt.Info().DefinitionVersion()
		}
	}
	for label, d := range s.data {
		m.DatasetHashes[label] = DatasetHash(d)
	}
	return m
}

// ReadManifest reads dir/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("experiments: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("experiments: %s: %w", filepath.Join(dir, ManifestFile), err)
	}
	return &m, nil
}

func writeManifest(dir string, m *Manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("experiments: %w", err)
	}
	return datasets.AtomicWrite(filepath.Join(dir, ManifestFile), func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}

// store appends rows to runs.csv and traces.csv, flushing every row to the OS.
type store struct {
	runs, traces *os.File
	rw, tw       *csv.Writer
	lastSync     time.Time
}

// openStore prepares dir for the spec: with fresh it discards earlier results; otherwise it
// repairs a torn last line, checks that the earlier results come from the same spec, and
// returns the IDs already recorded so that they are skipped.
func openStore(dir string, s *Spec, fresh bool) (*store, map[string]bool, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("experiments: %w", err)
	}
	runsPath, tracesPath := filepath.Join(dir, RunsFile), filepath.Join(dir, TracesFile)
	if fresh {
		for _, f := range []string{RunsFile, RunsFileGz, TracesFile, TracesFile + ".gz", ManifestFile} {
			if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, nil, fmt.Errorf("experiments: %w", err)
			}
		}
	}
	if m, err := ReadManifest(dir); err == nil && m.SpecHash != s.Hash && m.SpecHash != fileHash(s.Text) {
		return nil, nil, fmt.Errorf("experiments: %s holds results of a different version of spec %q; "+
			"use --fresh to discard them or another --out", dir, m.Name)
	}
	if m, err := ReadManifest(dir); err == nil {
		for label, old := range m.Inputs {
			if now, ok := s.Inputs[label]; ok && now != old {
				return nil, nil, fmt.Errorf("experiments: the file of dataset %q changed since the results in %s were made "+
					"(SHA-256 %.12s… then, %.12s… now); use --fresh to discard them or another --out", label, dir, old, now)
			}
		}
	}
	done := map[string]bool{}
	for _, path := range []string{runsPath, tracesPath} {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			if data, gerr := readMaybeGz(path); gerr == nil { // only the .gz is there: unpack it to append
				if err := os.WriteFile(path, data, 0o644); err != nil {
					return nil, nil, fmt.Errorf("experiments: %w", err)
				}
				os.Remove(path + ".gz")
			}
		}
	}
	header := s.Header()
	if data, err := os.ReadFile(runsPath); err == nil && len(data) > 0 {
		if i := bytes.LastIndexByte(data, '\n'); i < len(data)-1 {
			if err := os.Truncate(runsPath, int64(i+1)); err != nil { // torn last line
				return nil, nil, fmt.Errorf("experiments: repairing %s: %w", runsPath, err)
			}
			data = data[:i+1]
		}
		t, err := parseRuns(data, runsPath)
		if err != nil {
			return nil, nil, err
		}
		if !slices.Equal(t.Header, header) {
			return nil, nil, fmt.Errorf("experiments: %s has other columns than spec %q produces; use --fresh or another --out", runsPath, s.Name)
		}
		for _, r := range t.Rows {
			done[r[0]] = true
		}
	}
	st := &store{}
	var err error
	if st.runs, err = openAppend(runsPath, header); err != nil {
		return nil, nil, err
	}
	if err := dropOrphanTraces(tracesPath, done); err != nil {
		st.runs.Close()
		return nil, nil, err
	}
	if st.traces, err = openAppend(tracesPath, []string{"run_id", "iter", "best", "mean", "seconds"}); err != nil {
		st.runs.Close()
		return nil, nil, err
	}
	st.rw, st.tw = csv.NewWriter(st.runs), csv.NewWriter(st.traces)
	return st, done, nil
}

// openAppend opens path for appending, writing header first if the file is new or empty.
func openAppend(path string, header []string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("experiments: %w", err)
	}
	if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
		w := csv.NewWriter(f)
		w.Write(header)
		w.Flush()
		if err := w.Error(); err != nil {
			f.Close()
			return nil, fmt.Errorf("experiments: %w", err)
		}
	}
	return f, nil
}

// dropOrphanTraces keeps only the trace lines of runs recorded in runs.csv (a crash between
// writing a run's trace and its row would otherwise duplicate the trace on resume).
func dropOrphanTraces(path string, done map[string]bool) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("experiments: %w", err)
	}
	var out bytes.Buffer
	for i, line := range bytes.SplitAfter(data, []byte{'\n'}) {
		if len(line) == 0 || line[len(line)-1] != '\n' {
			continue
		}
		id, _, _ := bytes.Cut(line, []byte{','})
		if i == 0 || done[string(id)] {
			out.Write(line)
		}
	}
	if out.Len() == len(data) {
		return nil
	}
	return datasets.AtomicWrite(path, func(w io.Writer) error { _, err := w.Write(out.Bytes()); return err })
}

// write appends a run's trace lines and then its row, flushed to the OS; an fsync follows at
// most once a second.
func (st *store) write(row []string, id string, trace [][]string) error {
	for _, t := range trace {
		st.tw.Write(append([]string{id}, t...))
	}
	st.tw.Flush()
	if err := st.tw.Error(); err != nil {
		return fmt.Errorf("experiments: writing traces: %w", err)
	}
	st.rw.Write(row)
	st.rw.Flush()
	if err := st.rw.Error(); err != nil {
		return fmt.Errorf("experiments: writing runs: %w", err)
	}
	if time.Since(st.lastSync) > time.Second {
		st.runs.Sync()
		st.traces.Sync()
		st.lastSync = time.Now()
	}
	return nil
}

func (st *store) close() error {
	st.traces.Close()
	return st.runs.Close()
}

// normalize rewrites a finished results folder in grid order (rows sorted by order, traces by
// run then iteration) and gzips runs.csv and traces.csv when larger than 5 MB. order maps run
// IDs to their grid position.
func normalize(dir string, order map[string]int) error {
	t, err := ReadRuns(dir)
	if err != nil {
		return err
	}
	slices.SortStableFunc(t.Rows, func(a, b []string) int { return order[a[0]] - order[b[0]] })
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(t.Header)
	w.WriteAll(t.Rows)
	if err := writeMaybeGz(filepath.Join(dir, RunsFile), buf.Bytes()); err != nil {
		return err
	}
	tracesPath := filepath.Join(dir, TracesFile)
	data, err := readMaybeGz(tracesPath)
	if err != nil {
		return nil
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(recs) <= 1 {
		if len(recs) <= 1 {
			os.Remove(tracesPath) // no iterative method: no traces file
		}
		return nil
	}
	body := recs[1:]
	slices.SortStableFunc(body, func(a, b []string) int {
		if d := order[a[0]] - order[b[0]]; d != 0 {
			return d
		}
		ia, _ := strconv.Atoi(a[1])
		ib, _ := strconv.Atoi(b[1])
		return ia - ib
	})
	buf.Reset()
	w = csv.NewWriter(&buf)
	w.Write(recs[0])
	w.WriteAll(body)
	return writeMaybeGz(tracesPath, buf.Bytes())
}

// writeMaybeGz writes data to path, or gzipped to path+".gz" (removing path) when it is larger
// than gzipAbove, atomically either way.
func writeMaybeGz(path string, data []byte) error {
	var err error
	if len(data) > gzipAbove {
		err = datasets.AtomicWrite(path+".gz", func(w io.Writer) error {
			zw := gzip.NewWriter(w)
			if _, err := zw.Write(data); err != nil {
				return err
			}
			return zw.Close()
		})
		if err == nil {
			if rerr := os.Remove(path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
				err = rerr
			}
		}
	} else {
		err = datasets.AtomicWrite(path, func(w io.Writer) error { _, err := w.Write(data); return err })
		if err == nil {
			os.Remove(path + ".gz") // a stale compressed copy
		}
	}
	if err != nil {
		return fmt.Errorf("experiments: %w", err)
	}
	return nil
}

// fileHash is the SHA-256 of a spec file's text: what manifests written before the grid hash
// (Spec.Hash) recorded. Such a folder resumes when the file is unchanged.
func fileHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// sameDefinitions returns an error naming the first metric whose version, or dataset whose
// content hash, differs between two manifests; entries missing from either are not compared.
func sameDefinitions(a, b *Manifest) error {
	for _, id := range slices.Sorted(maps.Keys(a.MetricVersions)) {
		if v, ok := b.MetricVersions[id]; ok && v != a.MetricVersions[id] {
			return fmt.Errorf("metric %s: version %d vs %d", id, a.MetricVersions[id], v)
		}
	}
	for _, d := range slices.Sorted(maps.Keys(a.DatasetHashes)) {
		if h, ok := b.DatasetHashes[d]; ok && h != a.DatasetHashes[d] {
			return fmt.Errorf("dataset %s: content hash %.12s vs %.12s", d, a.DatasetHashes[d], h)
		}
	}
	return nil
}

// SameDefinitions is sameDefinitions for other packages: nil when the two folders' metric
// versions and dataset hashes agree wherever both record them.
func SameDefinitions(a, b *Manifest) error { return sameDefinitions(a, b) }
