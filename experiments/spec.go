// Package experiments turns an experiment spec into results: it parses the TOML spec,
// expands the method × parameter × dataset × replicate grid into runs with stable IDs and
// seeds, runs them on a worker pool, streams runs.csv, resumes after a crash, splits the grid
// into shards and merges them back (docs/harness.md).
//
// A run's result depends only on the spec and the run: its seed derives from the master seed
// and the run ID, so the number of workers, the order of execution and the sharding never
// change a row (timing aside).
package experiments

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/BurntSushi/toml"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

// Spec is an experiment as written in its TOML file.
type Spec struct {
	Name        string    `toml:"name"`
	Description string    `toml:"description"`
	Seed        SeedValue `toml:"seed"` // uint64; above 2^63−1 as a decimal string
	Replicates  int       `toml:"replicates"`
	// Datasets lists registered dataset names, or tables {name, label, columns, drop} that
	// select columns: e.g. {name = "testdata", drop = ["sampling_weight"]}.
	Datasets  []any    `toml:"datasets"`
	Metrics   []string `toml:"metrics"`
	TimeLimit string   `toml:"time_limit"` // per run (method and measures), a Go duration such as "10m"; empty = none
	// Traces turns off traces.csv when false (absent = on): per-generation rows of large grids
	// such as magga-calibration would dwarf runs.csv.
	Traces *bool `toml:"traces"`
	// Profile adds per-metric seconds, cpu_seconds and peak_heap_mb columns (profile.go).
	Profile bool         `toml:"profile"`
	Methods []MethodSpec `toml:"methods"`
	// Holdout, in (0, 0.5], makes every run protect a random part of the dataset and pass
	// the held-out rows to the attack metrics as their control set (holdout.go).
	Holdout float64 `toml:"holdout"`
	// KeepReleases stores every ok run's release in the results folder (run --keep-releases;
	// release.go), for `sdcbench rescore`. It does not enter Hash: it changes no result.
	KeepReleases bool `toml:"keep_releases"`
	// MetricOptions is the [metric_options] table (metrics.Options.SetOption keys).
	MetricOptions map[string]any `toml:"metric_options"`
	// Analysis is the [analysis] table, passed as is to the analysis step.
	Analysis toml.Primitive `toml:"analysis"`

	// Text is the spec file's content; set by Parse. Hash is the SHA-256 (hex) of what
	// determines the results: the runs.csv columns, every run's ID and seed, and the time limit.
	// Comments, the description and the [analysis] table do not enter it, so editing them
	// neither invalidates finished runs nor blocks a resume.
	Text string `toml:"-"`
	Hash string `toml:"-"`

	meta      toml.MetaData
	timeLimit time.Duration
	runs      []Run // the grid, computed by Parse (Expand)
	methods   []methods.Method
	labels    []string                     // dataset labels in spec order
	data      map[string]*datasets.Dataset // by label
	entries   map[string]DatasetEntry      // by label
	prepared  map[string]*preparedSel      // by label, column kind and selection (prepareEntry)
	prepKeys  []map[string]string          // per [[methods]] entry: dataset label → key of prepared
	runEntry  []int                        // per run of runs: its [[methods]] entry
	noData    bool                         // ParseGrid: datasets are not read
	dir       string                       // folder that relative dataset paths start from
	metricOpt metrics.Options              // resolved [metric_options]
	// Inputs maps the label of every dataset read from a file to the file's SHA-256 (hex);
	// manifest.json records it and a resume refuses a changed file.
	Inputs map[string]string
	// InputFiles maps every further file a run reads (methods.FileReader: external's release,
	// dfo's start=labels:FILE), as named in the parameters, to its SHA-256 (hex); Entries holds
	// every field of every dataset entry, by label (DatasetEntry.Fields). manifest.json
	// records both and a resume or a merge refuses rows made under other ones.
	InputFiles map[string]string
	Entries    map[string]map[string]string
	// Commands maps what a method that runs other software describes of itself
	// (methods.Describer: command's command line) to its version; manifest.json records it and
	// a resume or a merge refuses rows made under another version.
	Commands map[string]string
}

// DatasetEntry is one entry of the datasets list in its table form (docs/own-data.md).
type DatasetEntry struct {
	Name    string   // registered dataset
	Path    string   // or a CSV file (mixed types), relative to the spec file
	Label   string   // the name runs.csv uses; default Name, or the file's base name
	Columns []string // the columns methods protect (without keep: the released table)
	Drop    []string // drop these columns
	Keep    []string // columns passed through unchanged, in their original position
	Strata  string   // methods run within each stratum of this column
	Keys    []string // key variables of the categorical risk measures (read as categories)
	// Categorical lists further columns read as categories.
	Categorical []string
	// Weight, Household and Sensitive name the columns of the weighted risk, hier_risk_* and
	// ldiv_distinct_* (they must be released: kept or protected).
	Weight, Household, Sensitive string
	// NA lists the cell texts that mark a missing value in the file (path); nil: the
	// default, "NA" and the empty cell (docs/own-data.md "Missing values").
	NA []string
}

// Fields returns every field of the entry as written (lists as JSON arrays, absent fields
// empty), by its spec key: what manifest.json records so that a resume names the field that
// changed.
func (e DatasetEntry) Fields() map[string]string {
	list := func(l []string) string {
		if l == nil {
			return ""
		}
		b, _ := json.Marshal(l)
		return string(b)
	}
	return map[string]string{"name": e.Name, "path": e.Path, "label": e.Label, "columns": list(e.Columns),
		"drop": list(e.Drop), "keep": list(e.Keep), "strata": e.Strata, "keys": list(e.Keys),
		"categorical": list(e.Categorical), "weight": e.Weight, "household": e.Household, "sensitive": e.Sensitive,
		"na": list(e.NA)}
}

// selection returns the entry's column selection.
func (e DatasetEntry) selection() methods.Selection {
	return methods.Selection{Columns: e.Columns, Keep: e.Keep, Strata: e.Strata, Keys: e.Keys, Categorical: e.Categorical}
}

// EvalOptions returns the metric options of a dataset: its keys, weight, household and
// sensitive columns.
func (s *Spec) EvalOptions(label string) metrics.Options {
	e := s.entries[label]
	opt := s.metricOpt
	opt.Keys, opt.Weight, opt.Household, opt.Sensitive = e.Keys, e.Weight, e.Household, e.Sensitive
	return opt
}

// Prepared returns the column selection of a dataset resolved for a method: that of the first
// [[methods]] entry of the method that runs on the dataset.
func (s *Spec) Prepared(label, method string) (*methods.Prepared, error) {
	for i := range s.Methods {
		if s.Methods[i].Name != method || i >= len(s.prepKeys) {
			continue
		}
		if k, ok := s.prepKeys[i][label]; ok {
			return s.prepared[k].pr, nil
		}
	}
	return nil, fmt.Errorf("experiments: spec %q has no dataset %q for method %s", s.Name, label, method)
}

// runPrepared returns the resolved column selection of a run and the selection itself.
func (s *Spec) runPrepared(r Run) (*methods.Prepared, methods.Selection, error) {
	p, ok := s.prepared[r.prep]
	if !ok {
		return nil, methods.Selection{}, fmt.Errorf("experiments: spec %q has no dataset %q for method %s", s.Name, r.Dataset, r.Method)
	}
	return p.pr, p.sel, nil
}

// Dataset returns the (column-selected) dataset of a label.
func (s *Spec) Dataset(label string) (*datasets.Dataset, error) {
	d, ok := s.data[label]
	if !ok {
		return nil, fmt.Errorf("experiments: spec %q has no dataset %q", s.Name, label)
	}
	return d, nil
}

// DatasetLabels returns the dataset labels in spec order.
func (s *Spec) DatasetLabels() []string { return s.labels }

// loadDatasets resolves the datasets list into labelled, column-selected tables.
func (s *Spec) loadDatasets() error {
	if len(s.Datasets) == 0 {
		return &SpecError{Key: "datasets", Err: errors.New("empty: name at least one dataset")}
	}
	s.data = map[string]*datasets.Dataset{}
	s.entries = map[string]DatasetEntry{}
	s.prepared = map[string]*preparedSel{}
	for i, raw := range s.Datasets {
		key := fmt.Sprintf("datasets[%d]", i)
		var e DatasetEntry
		switch v := raw.(type) {
		case string:
			e.Name = v
		case map[string]any:
			for k, x := range v {
				var err error
				switch k {
				case "name":
					e.Name, err = asString(x)
				case "path":
					e.Path, err = asString(x)
				case "label":
					e.Label, err = asString(x)
				case "columns":
					e.Columns, err = asStrings(x)
				case "drop":
					e.Drop, err = asStrings(x)
				case "keep":
					e.Keep, err = asStrings(x)
				case "strata":
					e.Strata, err = asString(x)
				case "keys":
					e.Keys, err = asStrings(x)
				case "categorical":
					e.Categorical, err = asStrings(x)
				case "weight":
					e.Weight, err = asString(x)
				case "household":
					e.Household, err = asString(x)
				case "sensitive":
					e.Sensitive, err = asString(x)
				case "na":
					e.NA, err = asStrings(x)
				default:
					err = fmt.Errorf("unknown key %q (want name or path, label, columns, keep, drop, strata, keys, categorical, weight, household, sensitive, na)", k)
				}
				if err != nil {
					return &SpecError{Key: key + "." + k, Err: err}
				}
			}
		default:
			return &SpecError{Key: key, Err: fmt.Errorf("want a dataset name or a table {name or path, columns, keep, ...}, got %v", raw)}
		}
		if (e.Name == "") == (e.Path == "") {
			return &SpecError{Key: key, Err: errors.New("give name (a registered dataset) or path (a CSV file), not both or neither")}
		}
		if e.NA != nil && e.Path == "" {
			return &SpecError{Key: key + ".na", Err: errors.New("na applies to a CSV file (path), not to a registered dataset")}
		}
		if e.Label == "" {
			e.Label = e.Name
			if e.Path != "" {
				e.Label = strings.TrimSuffix(filepath.Base(e.Path), filepath.Ext(e.Path))
			}
		}
		// The label is a runs.csv cell and part of file names: a newline would tear the table.
		if err := noControl(e.Label); err != nil {
			return &SpecError{Key: key + ".label", Err: fmt.Errorf("dataset label %q: %v", clipEcho(e.Label), err)}
		}
		if s.Entries == nil {
			s.Entries = map[string]map[string]string{}
		}
		s.Entries[e.Label] = e.Fields()
		if s.noData {
			if slices.Contains(s.labels, e.Label) {
				return &SpecError{Key: key, Err: fmt.Errorf("dataset label %q used twice (set label to tell them apart)", e.Label)}
			}
			s.entries[e.Label] = e
			s.labels = append(s.labels, e.Label)
			continue
		}
		var d *datasets.Dataset
		var err error
		if e.Path != "" {
			d, err = s.readFile(e)
		} else {
			d, err = datasets.Load(e.Name)
		}
		if err != nil {
			return &SpecError{Key: key, Err: err}
		}
		if _, dup := s.data[e.Label]; dup {
			return &SpecError{Key: key, Err: fmt.Errorf("dataset label %q used twice (set label to tell them apart)", e.Label)}
		}
		cols := e.Columns
		if cols == nil && e.Drop != nil {
			cols = slices.Clone(d.Names)
		}
		for _, c := range e.Drop {
			j := slices.Index(cols, c)
			if j < 0 {
				return &SpecError{Key: key + ".drop", Err: fmt.Errorf("dataset %s has no column %q", e.Label, c)}
			}
			cols = slices.Delete(cols, j, j+1)
		}
		// Without keep and strata, columns (or drop) simply selects the table, in the order
		// given, and the method protects all of it.
		if e.Drop != nil || (e.Columns != nil && e.Keep == nil && e.Strata == "") {
			if d, err = d.Select(cols); err != nil {
				return &SpecError{Key: key, Err: err}
			}
			e.Columns = nil
		}
		if d.Name != e.Label {
			d = d.Clone()
			d.Name = e.Label
		}
		// Check the selection once with a method-neutral kind; each method resolves it again.
		if _, err := methods.Prepare(d, e.selection(), methods.Info{Name: "spec", Columns: methods.AnyColumns}); err != nil {
			return &SpecError{Key: key, Err: err}
		}
		for _, c := range []string{e.Weight, e.Household, e.Sensitive} {
			if c != "" && !slices.Contains(e.Keep, c) && !slices.Contains(e.Columns, c) && e.Columns != nil {
				return &SpecError{Key: key, Err: fmt.Errorf("column %q (weight, household or sensitive) is not released: add it to keep", c)}
			}
		}
		s.entries[e.Label] = e
		s.data[e.Label] = d
		s.labels = append(s.labels, e.Label)
	}
	return nil
}

// readFile reads a dataset entry's CSV file (relative to the spec's folder) as a mixed-type
// table and records its SHA-256 in s.Inputs.
func (s *Spec) readFile(e DatasetEntry) (*datasets.Dataset, error) {
	path := e.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.dir, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset file: %w", err)
	}
	defer f.Close()
	// read as a stream (the reader's caps hold for /dev/zero), hashing what it reads
	h := sha256.New()
	d, err := datasets.ReadCSV(io.TeeReader(f, h), path, datasets.ReadOptions{Mixed: true, NA: datasets.NewNA(e.NA...)})
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(h, f); err != nil {
		return nil, fmt.Errorf("dataset file: %w", err)
	}
	sum := h.Sum(nil)
	if s.Inputs == nil {
		s.Inputs = map[string]string{}
	}
	s.Inputs[e.Label] = hex.EncodeToString(sum[:])
	return d, nil
}

// describe records what m says of the software it runs with p (methods.Describer) in
// s.Commands.
func (s *Spec) describe(m methods.Method, p methods.Params) error {
	d, ok := m.(methods.Describer)
	if !ok {
		return nil
	}
	ctx := methods.WithRun(context.Background(), methods.Run{Dir: s.dir})
	got, err := d.Describe(ctx, p)
	if err != nil {
		return err
	}
	if s.Commands == nil {
		s.Commands = map[string]string{}
	}
	maps.Copy(s.Commands, got)
	return nil
}

// checkRunFiles hashes the files every run reads (methods.FileReader) into s.InputFiles and
// checks them (methods.RunValidator, once per distinct set of files), so a spec whose external
// release is missing or misshapen fails before anything runs. entry is each run's [[methods]]
// index.
func (s *Spec) checkRunFiles(entry []int) *SpecError {
	if s.noData {
		return nil // ParseGrid: the files are checked where the runs run
	}
	checked := map[string]bool{}
	for i, r := range s.runs {
		_, reads := r.method.(methods.FileReader)
		_, checks := r.method.(methods.RunValidator)
		if !reads && !checks {
			continue
		}
		key := fmt.Sprintf("methods[%d]", entry[i])
		pr, _, err := s.runPrepared(r)
		if err != nil {
			return &SpecError{Key: key, Err: err}
		}
		run := methods.Run{Seed: r.Seed, Replicate: r.Replicate, Dataset: r.Dataset, Dir: s.dir}
		files := methods.InputFiles(r.method, pr.Protected, r.Params, run)
		if err := s.hashInputFiles(files); err != nil {
			return &SpecError{Key: key, Err: fmt.Errorf("on dataset %s, replicate %d: %v", r.Dataset, r.Replicate, err)}
		}
		if v, ok := r.method.(methods.RunValidator); ok {
			k := r.Dataset + "\x00" + r.Method + "\x00" + paramKey(r.Params) + "\x00" + strings.Join(files, "\x00")
			if checked[k] {
				continue
			}
			checked[k] = true
			if err := v.ValidateRun(pr.Protected, r.Params, run); err != nil {
				return &SpecError{Key: key, Err: fmt.Errorf("on dataset %s: %v", r.Dataset, err)}
			}
		}
	}
	return nil
}

// hashInputFiles records the SHA-256 of each file (as a method's parameter names it) in
// s.InputFiles.
func (s *Spec) hashInputFiles(files []string) error {
	for _, f := range files {
		if _, ok := s.InputFiles[f]; ok {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("input file: %w", err)
		}
		sum := sha256.Sum256(b)
		if s.InputFiles == nil {
			s.InputFiles = map[string]string{}
		}
		s.InputFiles[f] = hex.EncodeToString(sum[:])
	}
	return nil
}

func asString(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("want a string, got %v", v)
	}
	return s, nil
}

func asStrings(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of strings, got %v", v)
	}
	out := make([]string, len(list))
	for i, x := range list {
		var err error
		if out[i], err = asString(x); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// MethodSpec is one [[methods]] entry: a method with a parameter grid (lists expand to their
// Cartesian product) and/or explicit parameter sets.
type MethodSpec struct {
	Name string `toml:"name"`
	// Grid maps a parameter to a value or a list of values.
	Grid map[string]any `toml:"grid"`
	// Sets lists explicit parameter sets, each run as well as the grid's product.
	Sets []map[string]any `toml:"sets"`
	// Replicates overrides the experiment's replicates for this method (e.g. 1 for a
	// deterministic method); 0 keeps the experiment's.
	Replicates int `toml:"replicates"`
	// Datasets restricts this method to some of the experiment's datasets; empty = all.
	Datasets []string `toml:"datasets"`
	// Strata, Columns and Keep replace the dataset entry's for this entry's runs
	// (entrySelection), so that a stratified and a plain variant, or PRAM of one column,
	// compete on one dataset; runs.csv records them as param_sel_strata, param_sel_columns and
	// param_sel_keep (docs/own-data.md §2).
	Strata  *string  `toml:"strata"`
	Columns []string `toml:"columns"`
	Keep    []string `toml:"keep"`
}

// SpecError is a problem in a spec file, naming the key at fault.
type SpecError struct {
	File string
	Key  string
	Err  error
}

func (e *SpecError) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("experiments: %s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("experiments: %s: %s: %v", e.File, e.Key, e.Err)
}

func (e *SpecError) Unwrap() error { return e.Err }

// durationSyntax matches what time.ParseDuration accepts, whatever the magnitude.
var durationSyntax = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]?(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$`)
})

var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`) })

// Parse decodes and validates a spec. file names it in errors. Unknown keys, unknown
// datasets, methods, parameters and metrics, values of the wrong type or out of range, empty
// grids and a non-positive replicate count are all errors that name the offending key.
func Parse(data []byte, file string) (*Spec, error) {
	dir := ""
	if st, err := os.Stat(file); err == nil && !st.IsDir() {
		dir = filepath.Dir(file)
	}
	return parseIn(data, file, dir)
}

// ParseGrid is Parse without reading the datasets: the keys, methods, parameters and metrics
// are checked and the grid expanded (its runs, IDs and seeds), but no dataset is loaded, so
// nothing that needs the data is checked (columns, strata, parameters against the data) and the
// spec can run nothing (Hash is set, Inputs and InputFiles are not). slurm writes its scripts
// from it: the login node need not read a large file, nor have it.
func ParseGrid(data []byte, file string) (*Spec, error) {
	return parseWith(data, file, "", true)
}

// parseIn is Parse with relative dataset paths resolved against dir (merge passes the spec
// folder recorded in a shard's manifest, not the manifest's folder).
func parseIn(data []byte, file, dir string) (*Spec, error) {
	return parseWith(data, file, dir, false)
}

func parseWith(data []byte, file, dir string, noData bool) (*Spec, error) {
	s, err := Decode(data, file)
	if err != nil {
		return nil, err
	}
	md := s.meta
	s.dir = dir
	s.noData = noData
	if und := md.Undecoded(); len(und) > 0 {
		var keys []string
		for _, k := range und {
			if len(k) > 0 && (k[0] == "analysis" || k[0] == "datasets") {
				continue // decoded by the analysis step / checked by loadDatasets
			}
			keys = append(keys, k.String())
		}
		if len(keys) > 0 {
			return nil, &SpecError{File: file, Key: keys[0], Err: fmt.Errorf("unknown key (unknown keys: %s)", strings.Join(keys, ", "))}
		}
	}
	if err := s.validate(); err == nil && analysisCheck != nil {
		// The [analysis] table is checked now, before any run, not after the whole grid.
		if aerr := analysisCheck(s); aerr != nil {
			return nil, &SpecError{File: file, Err: aerr}
		}
	} else if err != nil {
		var se *SpecError
		if errors.As(err, &se) {
			se.File = file
			return nil, se
		}
		return nil, &SpecError{File: file, Err: err}
	}
	s.runs, s.runEntry = s.expand()
	if err := checkDuplicateRuns(s.runs, s.runEntry); err != nil {
		err.(*SpecError).File = file
		return nil, err
	}
	if err := s.checkSameConfigs(); err != nil {
		err.(*SpecError).File = file
		return nil, err
	}
	if err := s.checkRunFiles(s.runEntry); err != nil {
		err.File = file
		return nil, err
	}
	s.Hash = s.gridHash()
	return s, nil
}

// Decode reads the TOML text of a spec into its fields without checking them: unknown keys,
// datasets, methods and metrics are not errors and no dataset is loaded, so a spec recorded in
// an older manifest still reads. Parse is Decode followed by every check; the analysis reads
// a folder's spec with Decode, for its name, metrics and [analysis] table (AnalysisTable).
func Decode(data []byte, file string) (*Spec, error) {
	if err := checkSpecText(data, file); err != nil {
		return nil, err
	}
	var s Spec
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&s)
	if err != nil {
		return nil, &SpecError{File: file, Err: err}
	}
	s.meta = md
	s.Text = string(data)
	return &s, nil
}

// gridHash hashes the runs.csv header, the runs (ID and seed, in grid order) and the time limit.
func (s *Spec) gridHash() string {
	h := sha256.New()
	fmt.Fprintf(h, "%q\n%s\n", s.Header(), s.timeLimit)
	s.hashAttack(h)
	for _, r := range s.runs {
		fmt.Fprintf(h, "%s %d\n", r.ID, r.Seed)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Load reads a spec from a file path or, if the argument names no regular file and has no path
// separator, from the bundled specs by name (with or without ".toml"): the file <name>.toml at
// the root of bundled (the CLI passes the studies' specs; nil means none). A folder is never a
// spec: `run quickstart` means the bundled spec even when a folder named quickstart exists
// (such as the results folder of an earlier run). Use ./name for a file that shadows nothing.
func Load(nameOrPath string, bundled fs.FS) (*Spec, error) {
	return load(nameOrPath, bundled, Parse)
}

// LoadGrid is Load with ParseGrid: the spec's grid without its datasets (slurm).
func LoadGrid(nameOrPath string, bundled fs.FS) (*Spec, error) {
	return load(nameOrPath, bundled, ParseGrid)
}

func load(nameOrPath string, bundled fs.FS, parse func([]byte, string) (*Spec, error)) (*Spec, error) {
	data, err := ReadSpecFile(nameOrPath)
	var se *SpecError
	if errors.As(err, &se) {
		return nil, err // too large
	}
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		if fi, serr := os.Stat(nameOrPath); serr == nil && fi.IsDir() {
			err = fmt.Errorf("%s is a folder, not a spec file: %w", nameOrPath, os.ErrNotExist)
		}
	}
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) || strings.ContainsRune(nameOrPath, os.PathSeparator) {
			return nil, fmt.Errorf("experiments: %w", err)
		}
		var b []byte
		berr := fs.ErrNotExist
		if name := strings.TrimSuffix(nameOrPath, ".toml") + ".toml"; bundled != nil && fs.ValidPath(name) {
			b, berr = fs.ReadFile(bundled, name)
		}
		if berr != nil {
			return nil, fmt.Errorf("experiments: no spec file %q and no bundled spec of that name (bundled: %s)",
				nameOrPath, strings.Join(BundledNames(bundled), ", "))
		}
		return parse(b, nameOrPath+" (bundled)")
	}
	return parse(data, nameOrPath)
}

// BundledNames returns the names of the specs at the root of bundled (its *.toml files without
// the extension), sorted; none when bundled is nil.
func BundledNames(bundled fs.FS) []string {
	if bundled == nil {
		return nil
	}
	names, _ := fs.Glob(bundled, "*.toml")
	for i, n := range names {
		names[i] = strings.TrimSuffix(n, ".toml")
	}
	sort.Strings(names)
	return names
}

func (s *Spec) validate() error {
	bad := func(key string, format string, a ...any) error {
		return &SpecError{Key: key, Err: fmt.Errorf(format, a...)}
	}
	if !nameRE().MatchString(s.Name) {
		return bad("name", "must be a non-empty name of letters, digits, '.', '_' or '-' (got %q)", clipEcho(s.Name))
	}
	if !s.meta.IsDefined("replicates") {
		s.Replicates = 1
	}
	if s.Replicates < 1 {
		return bad("replicates", "must be ≥ 1 (got %d)", s.Replicates)
	}
	if err := s.loadDatasets(); err != nil {
		return err
	}
	for i, id := range s.Metrics {
		if _, err := metrics.Lookup(id); err != nil {
			return bad(fmt.Sprintf("metrics[%d]", i), "%v", err)
		}
		if slices.Index(s.Metrics, id) != i {
			return bad(fmt.Sprintf("metrics[%d]", i), "metric %q listed twice", id)
		}
	}
	if err := s.validateAttack(); err != nil {
		return err
	}
	if s.TimeLimit != "" {
		d, err := time.ParseDuration(s.TimeLimit)
		if err != nil && durationSyntax().MatchString(s.TimeLimit) {
			// Well formed but beyond time.Duration (9999999h): say so, not "must be positive".
			return bad("time_limit", "%q exceeds the largest time limit, %v (about 292 years)", clipEcho(s.TimeLimit), time.Duration(math.MaxInt64))
		}
		if err != nil || d <= 0 {
			return bad("time_limit", "must be a positive duration such as \"90s\" or \"10m\" (got %q)", clipEcho(s.TimeLimit))
		}
		s.timeLimit = d
	}
	if len(s.Methods) == 0 {
		return bad("methods", "empty: add at least one [[methods]] entry")
	}
	if s.countRuns() > MaxRuns {
		return s.gridTooLarge()
	}
	s.methods = make([]methods.Method, len(s.Methods))
	for i := range s.Methods {
		ms := &s.Methods[i]
		key := fmt.Sprintf("methods[%d]", i)
		m, err := methods.Lookup(ms.Name)
		if err != nil {
			return bad(key+".name", "%v", err)
		}
		s.methods[i] = m
		if ms.Replicates < 0 {
			return bad(key+".replicates", "must be ≥ 1 (got %d)", ms.Replicates)
		}
		for j, name := range ms.Datasets {
			if !slices.Contains(s.labels, name) {
				return bad(fmt.Sprintf("%s.datasets[%d]", key, j), "dataset %q is not in the experiment's datasets", name)
			}
		}
		sets, err := ms.paramSets(m.Info())
		if err != nil {
			return bad(key, "%v", err)
		}
		if err := ms.checkSel(key); err != nil {
			return err
		}
		if s.noData {
			continue
		}
		// Resolve the column selection for the method, then validate every (dataset,
		// parameter set) pair before anything runs.
		s.prepKeys = append(s.prepKeys, map[string]string{})
		for _, dname := range s.methodDatasets(i) {
			pk, err := s.prepareEntry(i, dname)
			if err != nil {
				return bad(key, "on dataset %s: %v", dname, err)
			}
			s.prepKeys[i][dname] = pk
		}
		for _, p := range sets {
			for _, dname := range s.methodDatasets(i) {
				pr := s.prepared[s.prepKeys[i][dname]].pr
				if err := pr.Validate(m, p); err != nil {
					return bad(key, "on dataset %s: %v", dname, err)
				}
			}
			if err := s.describe(m, p); err != nil {
				return bad(key, "%v", err)
			}
		}
	}
	return nil
}

// methodDatasets returns the datasets method i runs on, in the experiment's order.
func (s *Spec) methodDatasets(i int) []string {
	if len(s.Methods[i].Datasets) == 0 {
		return s.labels
	}
	var out []string
	for _, d := range s.labels {
		if slices.Contains(s.Methods[i].Datasets, d) {
			out = append(out, d)
		}
	}
	return out
}

// paramSets expands the grid (Cartesian product, parameters in declaration order, values in
// listed order) followed by the explicit sets, and resolves each against the method.
func (ms *MethodSpec) paramSets(info methods.Info) ([]methods.Params, error) {
	var raws []map[string]string
	if len(ms.Grid) > 0 || len(ms.Sets) == 0 {
		names := make([]string, 0, len(ms.Grid))
		for name := range ms.Grid {
			names = append(names, name)
		}
		order := func(name string) int {
			for i, ps := range info.Params {
				if ps.Name == name {
					return i
				}
			}
			return len(info.Params)
		}
		sort.SliceStable(names, func(a, b int) bool {
			oa, ob := order(names[a]), order(names[b])
			return oa < ob || (oa == ob && names[a] < names[b])
		})
		raws = []map[string]string{{}}
		for _, name := range names {
			vals, err := values(ms.Grid[name])
			if err != nil {
				return nil, fmt.Errorf("grid.%s: %v", name, err)
			}
			if len(vals) == 0 {
				return nil, fmt.Errorf("grid.%s: empty list", name)
			}
			var next []map[string]string
			for _, r := range raws {
				for _, v := range vals {
					c := make(map[string]string, len(r)+1)
					for k, x := range r {
						c[k] = x
					}
					c[name] = v
					next = append(next, c)
				}
			}
			raws = next
		}
	}
	for i, set := range ms.Sets {
		r := map[string]string{}
		for name, v := range set {
			s, err := methods.FormatValue(v)
			if err != nil {
				return nil, fmt.Errorf("sets[%d].%s: %v", i, name, err)
			}
			r[name] = s
		}
		raws = append(raws, r)
	}
	out := make([]methods.Params, 0, len(raws))
	seen := map[string]bool{}
	for _, r := range raws {
		for name, v := range r { // parameter values are runs.csv cells
			if err := noControl(v); err != nil {
				return nil, fmt.Errorf("parameter %s = %q: %v", name, clipEcho(v), err)
			}
		}
		p, err := info.Resolve(r)
		if err != nil {
			return nil, err
		}
		key := paramKey(p)
		if seen[key] {
			return nil, fmt.Errorf("parameter set %s appears twice", key)
		}
		seen[key] = true
		out = append(out, p)
	}
	return out, nil
}

// noControl refuses a string with a control character (a newline, a tab, NUL, ...): labels
// and parameter values end up in runs.csv cells and file names.
func noControl(v string) error {
	for _, r := range v {
		if unicode.IsControl(r) {
			return fmt.Errorf("contains the control character U+%04X (not allowed in names and values)", r)
		}
	}
	return nil
}

// values normalizes a grid entry (a scalar or a list) to canonical strings.
func values(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	out := make([]string, len(list))
	for i, x := range list {
		s, err := methods.FormatValue(x)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// paramKey renders resolved parameters as "a=1,b=x" in declaration order.
func paramKey(p methods.Params) string {
	var b strings.Builder
	for i, name := range p.Names() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(name)
		b.WriteByte('=')
		b.WriteString(p.Get(name))
	}
	return b.String()
}

// TimeLimitDuration returns the per-run time limit (0 = none).
func (s *Spec) TimeLimitDuration() time.Duration { return s.timeLimit }

// analysisCheck validates a spec's [analysis] table; the analysis package sets it
// (SetAnalysisCheck), which this package cannot import.
var analysisCheck func(*Spec) error

// SetAnalysisCheck makes Parse validate every spec's [analysis] table with check, so that a
// typo in it stops a run before the grid, not after it.
func SetAnalysisCheck(check func(*Spec) error) { analysisCheck = check }

// AnalysisKeyDefined reports whether the spec's [analysis] table sets key (so that an explicit
// alpha = 0 is told from an absent one).
func (s *Spec) AnalysisKeyDefined(key string) bool { return s.meta.IsDefined("analysis", key) }

// AnalysisTable decodes the spec's [analysis] table into v (a pointer to the analysis
// configuration); a key of the table that v has no field for is an error naming it. It does
// nothing when the table is absent.
func (s *Spec) AnalysisTable(v any) error {
	if !s.meta.IsDefined("analysis") {
		return nil
	}
	if err := s.meta.PrimitiveDecode(s.Analysis, v); err != nil {
		return err
	}
	for _, k := range s.meta.Undecoded() {
		if len(k) > 1 && k[0] == "analysis" {
			return fmt.Errorf("unknown key %q", k.String())
		}
	}
	return nil
}
