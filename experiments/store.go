package experiments

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/metrics"
)

// Version is the sdcbench version written to manifests.
const Version = "0.1.0"

// Header returns the runs.csv columns of the spec: run_id, dataset, method, one param_<name>
// per parameter of any of its methods (first appearance order), one param_sel_<option> per
// selection option some [[methods]] entry sets (methodsel.go), replicate, seed, one column
// per metric and per declared metric component, with profile = true one <metric>_seconds per
// metric and cpu_seconds, peak_heap_mb (profile.go), then seconds, status, error.
func (s *Spec) Header() []string {
	h := []string{"run_id", "dataset", "method"}
	for _, name := range s.paramNames() {
		h = append(h, "param_"+name)
	}
	for _, name := range s.selNames() {
		h = append(h, "param_sel_"+name)
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
	add := func(name string) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for i, m := range s.methods {
		for _, ps := range m.Info().Params {
			add(ps.Name)
		}
		if m.Info().OpenParams && i < len(s.Methods) {
			// The undeclared parameters of an open method (command's placeholders), in the
			// order Resolve gives them: by name.
			var extra []string
			for name := range s.Methods[i].Grid {
				extra = append(extra, name)
			}
			for _, set := range s.Methods[i].Sets {
				for name := range set {
					extra = append(extra, name)
				}
			}
			slices.Sort(extra)
			for _, name := range extra {
				add(name)
			}
		}
	}
	return names
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

func newManifest(s *Spec, sh Shard, workers, runs int) *resultsdir.Manifest {
	m := &resultsdir.Manifest{Name: s.Name, SpecHash: s.Hash, Spec: s.Text, Shard: sh.String(), Tool: Version,
		GoVersion: runtime.Version(), Started: time.Now().UTC(), CPUs: runtime.NumCPU(),
		OS: runtime.GOOS, Arch: runtime.GOARCH, Workers: workers, Runs: runs, Inputs: s.Inputs,
		MetricVersions: map[string]int{}, DatasetHashes: map[string]string{},
		DatasetEntries: s.Entries, InputFiles: s.InputFiles, Commands: s.Commands}
	if s.dir != "" {
		if abs, err := filepath.Abs(s.dir); err == nil {
			m.SpecDir = abs
		}
	}
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

// openStore prepares dir for the spec: with fresh it discards earlier results; otherwise it
// checks that the earlier results come from the same spec and the same input files, and
// opens runs.csv for appending (resultsdir.OpenAppender), returning the IDs already recorded
// so that they are skipped. Unless keepTimeouts is set, the rows of runs that timed out are
// removed first, so that they run again.
func openStore(dir string, s *Spec, fresh, keepTimeouts bool) (*resultsdir.Appender, map[string]bool, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("experiments: %w", err)
	}
	if fresh {
		if err := resultsdir.Discard(dir); err != nil {
			return nil, nil, err
		}
	}
	if _, err := resultsdir.ReadManifest(dir); err != nil {
		// Rows without a readable manifest may come from any spec (another seed, other
		// datasets): adopting them would mix experiments, as merge also refuses. A header
		// alone (a run killed before it wrote its manifest) holds nothing to mix.
		for _, f := range []string{resultsdir.RunsFile, resultsdir.RunsFileGz} {
			if _, serr := os.Lstat(filepath.Join(dir, f)); serr == nil && !headerOnly(dir) {
				why := "without a manifest"
				if !errors.Is(err, os.ErrNotExist) {
					why = fmt.Sprintf("with an unreadable %s (%v)", resultsdir.ManifestFile, err)
				}
				return nil, nil, fmt.Errorf("experiments: %s holds %s %s: its rows may come from another spec; "+
					"use --fresh to discard them or another --out", dir, f, why)
			}
		}
	}
	if m, err := resultsdir.ReadManifest(dir); err == nil && m.SpecHash != s.Hash && m.SpecHash != fileHash(s.Text) {
		return nil, nil, fmt.Errorf("experiments: %s holds results of a different version of spec %q; "+
			"use --fresh to discard them or another --out", dir, m.Name)
	}
	if m, err := resultsdir.ReadManifest(dir); err == nil {
		for label, old := range m.Inputs {
			if now, ok := s.Inputs[label]; ok && now != old {
				return nil, nil, fmt.Errorf("experiments: the file of dataset %q changed since the results in %s were made "+
					"(SHA-256 %.12s… then, %.12s… now); use --fresh to discard them or another --out", label, dir, old, now)
			}
		}
	}
	st, done, err := resultsdir.OpenAppender(dir, s.Header())
	if errors.Is(err, resultsdir.ErrOtherColumns) {
		return nil, nil, fmt.Errorf("experiments: %s has other columns than spec %q produces; use --fresh or another --out",
			filepath.Join(dir, resultsdir.RunsFile), s.Name)
	}
	if err != nil || keepTimeouts || len(done) == 0 {
		return st, done, err
	}
	// Runs recorded with status timeout are run again, like missing ones (Options.KeepTimeouts).
	t, err := resultsdir.ReadRuns(dir)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	col := t.Col("status")
	kept := t.Rows[:0:0]
	for _, r := range t.Rows {
		if r[col] != StatusTimeout {
			kept = append(kept, r)
		}
	}
	if len(kept) == len(t.Rows) {
		return st, done, nil
	}
	if err := st.Close(); err != nil {
		return nil, nil, fmt.Errorf("experiments: %w", err)
	}
	t.Rows = kept
	if err := resultsdir.WriteTable(filepath.Join(dir, resultsdir.RunsFile), t); err != nil {
		return nil, nil, err
	}
	return resultsdir.OpenAppender(dir, s.Header())
}

// headerOnly reports whether dir's runs table parses and holds no row.
func headerOnly(dir string) bool {
	t, err := resultsdir.ReadRuns(dir)
	return err == nil && len(t.Rows) == 0
}

// fileHash is the SHA-256 of a spec file's text: what manifests written before the grid hash
// (Spec.Hash) recorded. Such a folder resumes when the file is unchanged.
func fileHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}
