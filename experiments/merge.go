package experiments

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
)

// Merge combines the results folders of the shards of one experiment into out. Every folder
// must come from the same spec (same hash in manifest.json); every run of the grid must appear
// exactly once across them. The result is the file a single-machine run produces: the same
// rows, in grid order.
//
// Like Execute, Merge takes out's run lock (it fails while a run writes there) and refuses an
// out that holds results of another spec (or runs.csv without a manifest) unless fresh is
// set, in which case those results are discarded.
func Merge(out string, dirs []string, fresh bool) error {
	if len(dirs) == 0 {
		return fmt.Errorf("experiments: merge: no input folders")
	}
	var spec *Spec
	var first *resultsdir.Manifest
	for _, dir := range dirs {
		m, err := resultsdir.ReadManifest(dir)
		if err != nil {
			return fmt.Errorf("experiments: merge: %w", err)
		}
		if spec == nil {
			// Relative dataset paths start from the spec file's folder, recorded by the run;
			// manifests written before it was recorded fall back to the shard folder.
			specDir := m.SpecDir
			if specDir == "" {
				specDir = dir
			}
			if spec, err = parseIn([]byte(m.Spec), filepath.Join(dir, resultsdir.ManifestFile), specDir); err != nil {
				return err
			}
			first = m
		} else if m.SpecHash != spec.Hash && m.SpecHash != fileHash(spec.Text) {
			return fmt.Errorf("experiments: merge: %s comes from another spec than %s", dir, dirs[0])
		} else if err := resultsdir.SameDefinitions(first, m); err != nil {
			// The check a resume makes (Execute), between shards.
			return fmt.Errorf("experiments: merge: %s and %s were made under other definitions (%v); "+
				"merging would mix them: run the shards again with the same inputs and sdcbench", dirs[0], dir, err)
		}
	}
	// And against the inputs as they are now, which the merged manifest records.
	if err := resultsdir.SameDefinitions(first, newManifest(spec, Shard{}, 0, 0)); err != nil {
		return fmt.Errorf("experiments: merge: the shards were made under other definitions than the current ones "+
			"(then vs now: %v); merging would mix them: run the shards again", err)
	}
	runs := spec.Expand()
	order := make(map[string]int, len(runs))
	for _, r := range runs {
		order[r.ID] = r.Index
	}
	header := spec.Header()
	seen := map[string]string{}
	var rows [][]string
	var traces bytes.Buffer
	for _, dir := range dirs {
		t, err := resultsdir.ReadRuns(dir)
		if err != nil {
			return fmt.Errorf("experiments: merge: %w", err)
		}
		if !slices.Equal(t.Header, header) {
			return fmt.Errorf("experiments: merge: %s: columns differ from the spec's", dir)
		}
		for _, r := range t.Rows {
			id := r[0]
			if _, ok := order[id]; !ok {
				return fmt.Errorf("experiments: merge: %s: run %s is not in the grid of spec %q", dir, id, spec.Name)
			}
			if prev, dup := seen[id]; dup {
				return fmt.Errorf("experiments: merge: run %s appears in both %s and %s", id, prev, dir)
			}
			seen[id] = dir
			rows = append(rows, r)
		}
		if data, err := resultsdir.ReadFile(filepath.Join(dir, resultsdir.TracesFile)); err == nil {
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				traces.Write(data[i+1:])
			}
		}
	}
	var missing []string
	for _, r := range runs {
		if _, ok := seen[r.ID]; !ok {
			missing = append(missing, r.ID)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("experiments: merge: %d of %d runs are missing (first: %s)", len(missing), len(runs),
			strings.Join(missing[:min(3, len(missing))], ", "))
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("experiments: %w", err)
	}
	unlock, err := resultsdir.Lock(out)
	if err != nil {
		return fmt.Errorf("experiments: merge: %w", err)
	}
	defer unlock()
	reports, err := mergeTarget(out, spec, fresh)
	if err != nil {
		return err
	}
	if err := resultsdir.WriteTable(filepath.Join(out, resultsdir.RunsFile), &resultsdir.Table{Header: header, Rows: rows}); err != nil {
		return err
	}
	if traces.Len() > 0 {
		err := datasets.AtomicWrite(filepath.Join(out, resultsdir.TracesFile), func(w io.Writer) error {
			if _, err := io.WriteString(w, strings.Join(resultsdir.TracesHeader(), ",")+"\n"); err != nil {
				return err
			}
			_, err := w.Write(traces.Bytes())
			return err
		})
		if err != nil {
			return err
		}
	}
	if err := resultsdir.Normalize(out, order); err != nil {
		return err
	}
	if err := mergeReleases(out, seen); err != nil {
		return err
	}
	man := newManifest(spec, Shard{}, 0, len(runs))
	man.Complete, man.Finished = true, time.Now().UTC()
	man.Reports = reports
	return resultsdir.WriteManifest(out, man)
}

// mergeTarget checks that out may receive the merged runs of spec: it is empty, or holds
// results of the same spec, whose recorded companion reports it returns. With fresh, earlier
// results are removed instead.
func mergeTarget(out string, spec *Spec, fresh bool) (reports []string, err error) {
	if fresh {
		if err := resultsdir.Discard(out); err != nil {
			return nil, fmt.Errorf("experiments: merge: %w", err)
		}
		return nil, nil
	}
	m, err := resultsdir.ReadManifest(out)
	if err == nil {
		if m.SpecHash != spec.Hash && m.SpecHash != fileHash(spec.Text) {
			return nil, fmt.Errorf("experiments: merge: %s holds results of spec %q, not of this %q; "+
				"use --fresh to discard them or another --out", out, m.Name, spec.Name)
		}
		return m.Reports, nil
	}
	for _, f := range []string{resultsdir.RunsFile, resultsdir.RunsFileGz} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			return nil, fmt.Errorf("experiments: merge: %s holds a %s without a manifest; "+
				"use --fresh to discard it or another --out", out, f)
		}
	}
	return nil, nil
}
