package resultsdir

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
)

// Manifest is dir/manifest.json: where a results folder came from, and the companion reports
// written into it.
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
	// SpecDir is the absolute folder of the spec file, from which its relative dataset paths
	// start; merge reads the spec back from a shard's manifest and resolves them there.
	SpecDir string `json:"spec_dir,omitempty"`
	// MetricVersions is the definition version of every metric of the spec
	// (metrics.Info.DefinitionVersion); DatasetHashes the content hash of every dataset, by
	// label (experiments.DatasetHash). Folders written before sdcbench recorded them have neither.
	MetricVersions map[string]int    `json:"metric_versions,omitempty"`
	DatasetHashes  map[string]string `json:"dataset_hashes,omitempty"`
	// DatasetEntries holds every field of every dataset entry of the spec, by label and field
	// (columns, keep, strata, keys, …: experiments.DatasetEntry.Fields); InputFiles the SHA-256
	// of every further file the runs read (external's release, dfo's start=labels:FILE), by
	// path. Folders written before sdcbench recorded them have neither.
	DatasetEntries map[string]map[string]string `json:"dataset_entries,omitempty"`
	InputFiles     map[string]string            `json:"input_files,omitempty"`
	// Commands maps the software a method runs (the command method's command line) to its
	// declared version ("" when none is given).
	Commands map[string]string `json:"commands,omitempty"`
	// Reports are the companion reports in the folder, sorted: the Markdown files its study
	// report wrote (WriteStudyReport) and the analysis's reanalysis (RecordReports). REPORT.md
	// links them.
	Reports []string `json:"reports,omitempty"`
	// Rescored lists the measures `sdcbench rescore` added to runs.csv after the run, from
	// the stored releases (docs/harness.md "Stored releases and rescore"); the analysis reads
	// them as the spec's metrics.
	Rescored []Rescore `json:"rescored,omitempty"`
}

// ReadManifest reads dir/manifest.json. A missing file is an error wrapping os.ErrNotExist; a
// symbolic link or a non-regular file is an error naming it (readOwnFile).
func ReadManifest(dir string) (*Manifest, error) {
	data, err := readOwnFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("resultsdir: %s: %w", filepath.Join(dir, ManifestFile), err)
	}
	return &m, nil
}

// WriteManifest writes m to dir/manifest.json (indented JSON), atomically.
func WriteManifest(dir string, m *Manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("resultsdir: %w", err)
	}
	return datasets.AtomicWrite(filepath.Join(dir, ManifestFile), func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}

// SameDefinitions is the one provenance check of results that are put together, by a resume
// (the folder's manifest a against the run's b) and by a merge (every shard against the first):
// it returns nil when the two agree wherever both record a value, else an error naming the
// first difference: the tool version, a metric's definition version, a dataset's content
// hash, a field of a dataset entry (with both values), the file of a dataset or a further
// input file (with both hashes).
func SameDefinitions(a, b *Manifest) error {
	if a.Tool != "" && b.Tool != "" && a.Tool != b.Tool {
		return fmt.Errorf("sdcbench version %s vs %s", a.Tool, b.Tool)
	}
	for _, id := range slices.Sorted(maps.Keys(a.MetricVersions)) {
		if v, ok := b.MetricVersions[id]; ok && v != a.MetricVersions[id] {
			return fmt.Errorf("metric %s: version %d vs %d", id, a.MetricVersions[id], v)
		}
	}
	for _, d := range slices.Sorted(maps.Keys(a.DatasetEntries)) {
		fb, ok := b.DatasetEntries[d]
		if !ok {
			continue
		}
		fa := a.DatasetEntries[d]
		for _, f := range slices.Sorted(maps.Keys(fa)) {
			if v, ok := fb[f]; ok && v != fa[f] {
				return fmt.Errorf("dataset entry %s: %s %s vs %s", d, f, quoteField(fa[f]), quoteField(v))
			}
		}
	}
	for _, d := range slices.Sorted(maps.Keys(a.DatasetHashes)) {
		if h, ok := b.DatasetHashes[d]; ok && h != a.DatasetHashes[d] {
			return fmt.Errorf("dataset %s: content hash %.12s vs %.12s", d, a.DatasetHashes[d], h)
		}
	}
	for _, d := range slices.Sorted(maps.Keys(a.Inputs)) {
		if h, ok := b.Inputs[d]; ok && h != a.Inputs[d] {
			return fmt.Errorf("dataset %s: file SHA-256 %.12s vs %.12s", d, a.Inputs[d], h)
		}
	}
	for _, c := range slices.Sorted(maps.Keys(a.Commands)) {
		if v, ok := b.Commands[c]; ok && v != a.Commands[c] {
			return fmt.Errorf("%s: version %s vs %s", c, quoteField(a.Commands[c]), quoteField(v))
		}
	}
	for _, f := range slices.Sorted(maps.Keys(a.InputFiles)) {
		if h, ok := b.InputFiles[f]; ok && h != a.InputFiles[f] {
			return fmt.Errorf("input file %s: SHA-256 %.12s vs %.12s", f, a.InputFiles[f], h)
		}
	}
	return nil
}

// quoteField shows a recorded entry field in an error: (none) when absent.
func quoteField(v string) string {
	switch {
	case v == "":
		return "(none)"
	case v[0] == '[':
		return v // a JSON list
	}
	return fmt.Sprintf("%q", v)
}
