package experiments

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/methods"
)

// PartitionColumn is the column of a stored release that holds the partition behind it
// (methods.Release.Labels), present only when the method returned one.
const PartitionColumn = "sdcbench_partition"

// releaseMeta is the gzip header comment of a stored release: what the measures need
// besides the masked values. Columns is methods.Release.Columns (nil: every column).
type releaseMeta struct {
	Columns []int `json:"columns,omitempty"`
}

// writeRelease stores the release of run r in dir (resultsdir.ReleasePath), atomically: a
// gzipped CSV of rel.Masked with the raw values (category codes of the protected table ref,
// "NaN" for a missing cell, numbers that read back bit-identical), the partition as column
// PartitionColumn when rel.Labels is set, and rel.Columns in the gzip header's comment.
// The full released table and the original are not stored: rescore rebuilds them from the
// spec's data. A categorical column whose categories do not start with ref's, in order,
// cannot be stored as codes and is an error.
func writeRelease(dir string, r Run, ref *datasets.Dataset, rel *methods.Release) error {
	rd := filepath.Join(dir, resultsdir.ReleasesDir)
	if err := os.Mkdir(rd, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("storing the release: %w", err)
	}
	if fi, err := os.Lstat(rd); err != nil || !fi.IsDir() {
		return fmt.Errorf("storing the release: %s is not a folder (a symbolic link?)", rd)
	}
	m := rel.Masked
	for j := range m.P {
		k := ref.ColIndex(m.Names[j])
		cat := k >= 0 && ref.IsCategorical(k)
		if !cat && !m.IsCategorical(j) {
			continue
		}
		if !cat || !m.IsCategorical(j) || len(m.Levels[j]) < len(ref.Levels[k]) ||
			!slices.Equal(m.Levels[j][:len(ref.Levels[k])], ref.Levels[k]) {
			return fmt.Errorf("storing the release: column %s: its categories are not the original's in order, so codes cannot store it", m.Names[j])
		}
	}
	p := m.P
	names := slices.Clone(m.Names)
	if rel.Labels != nil {
		if slices.Contains(names, PartitionColumn) {
			return fmt.Errorf("storing the release: a protected column is named %s", PartitionColumn)
		}
		p++
		names = append(names, PartitionColumn)
	}
	data := make([]float64, 0, m.N*p)
	for i := range m.N {
		data = append(data, m.Row(i)...)
		if rel.Labels != nil {
			data = append(data, float64(rel.Labels[i]))
		}
	}
	meta, err := json.Marshal(releaseMeta{Columns: rel.Columns})
	if err != nil {
		return fmt.Errorf("storing the release: %w", err)
	}
	return datasets.AtomicWrite(resultsdir.ReleasePath(dir, r.ID), func(w io.Writer) error {
		zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed) // the level is valid: no error
		zw.Comment = string(meta)
		if err := datasets.WriteCSV(zw, datasets.New(m.Name, names, m.N, p, data)); err != nil {
			return err
		}
		return zw.Close()
	})
}

// readRelease reads the stored release of run id in dir back into a release of the
// protected table ref: Masked with ref's column names and categories (codes beyond ref's
// categories get the placeholder labels "<category k>"), Labels and Columns. A missing,
// truncated or malformed file is an error naming it.
func readRelease(dir, id string, ref *datasets.Dataset) (*methods.Release, error) {
	path := resultsdir.ReleasePath(dir, id)
	bad := func(err error) error {
		return fmt.Errorf("run %s: stored release %s: %w", id, path, err)
	}
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, bad(fmt.Errorf("not a regular file (%s)", datasets.FileKind(fi.Mode())))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, bad(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, bad(fmt.Errorf("%w (the file is truncated or corrupt)", err))
	}
	var meta releaseMeta
	if zr.Comment != "" {
		if err := json.Unmarshal([]byte(zr.Comment), &meta); err != nil {
			return nil, bad(fmt.Errorf("header comment: %w", err))
		}
	}
	text, err := io.ReadAll(datasets.LimitDecompressed(zr, path)) // to its end: checks the gzip trailer
	if err != nil {
		if errors.Is(err, datasets.ErrTooLarge) {
			return nil, bad(err)
		}
		return nil, bad(fmt.Errorf("%w (the file is truncated or corrupt)", err))
	}
	d, err := datasets.ReadCSV(bytes.NewReader(text), path, datasets.ReadOptions{AllowNonFinite: true})
	if err != nil {
		return nil, bad(err)
	}
	rel := &methods.Release{Columns: meta.Columns}
	if j := d.ColIndex(PartitionColumn); j >= 0 {
		rel.Labels = make([]int32, d.N)
		for i := range d.N {
			rel.Labels[i] = int32(d.Data[i*d.P+j])
		}
		if d, err = d.Select(slices.Delete(slices.Clone(d.Names), j, j+1)); err != nil {
			return nil, bad(err)
		}
	}
	if d.N != ref.N || !slices.Equal(d.Names, ref.Names) {
		return nil, bad(fmt.Errorf("has %d rows and columns %v, the run's protected table %d rows and %v", d.N, d.Names, ref.N, ref.Names))
	}
	for _, c := range meta.Columns {
		if c < 0 || c >= d.P {
			return nil, bad(fmt.Errorf("column index %d out of range", c))
		}
	}
	if ref.Levels != nil {
		d.Levels = make([][]string, d.P)
		for j := range d.P {
			if !ref.IsCategorical(j) {
				continue
			}
			lv := slices.Clone(ref.Levels[j])
			for i := range d.N {
				v := d.Data[i*d.P+j]
				if v != v {
					continue
				}
				if v < 0 || v != float64(int(v)) {
					return nil, bad(fmt.Errorf("row %d, column %s: %v is not a category code", i+1, d.Names[j], v))
				}
				for len(lv) <= int(v) {
					lv = append(lv, "<category "+strconv.Itoa(len(lv))+">")
				}
			}
			d.Levels[j] = lv
		}
	}
	d.Name = ref.Name
	rel.Masked = d
	return rel, nil
}

// mergeReleases copies the stored releases of the merged runs (run ID → shard folder) into
// out/releases, atomically each, so that the merged folder can be rescored as a single run's.
// Shards without stored releases add none.
func mergeReleases(out string, from map[string]string) error {
	for _, id := range slices.Sorted(maps.Keys(from)) {
		src := resultsdir.ReleasePath(from[id], id)
		fi, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err == nil && !fi.Mode().IsRegular() {
			err = fmt.Errorf("not a regular file (%s)", datasets.FileKind(fi.Mode()))
		}
		var data []byte
		if err == nil {
			data, err = os.ReadFile(src)
		}
		if err == nil {
			err = os.MkdirAll(filepath.Join(out, resultsdir.ReleasesDir), 0o755)
		}
		if err == nil {
			err = datasets.AtomicWrite(resultsdir.ReleasePath(out, id), func(w io.Writer) error { _, err := w.Write(data); return err })
		}
		if err != nil {
			return fmt.Errorf("experiments: merge: stored release %s: %w", src, err)
		}
	}
	return nil
}
