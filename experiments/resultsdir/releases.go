package resultsdir

import (
	"path/filepath"
	"time"
)

// ReleasesDir is the folder of a results folder that holds the stored releases of
// `run --keep-releases` (keep_releases = true in the spec): one gzipped CSV per run that
// finished ok, named by its run ID (ReleasePath), which `sdcbench rescore` evaluates again.
const ReleasesDir = "releases"

// ReleasePath returns the file of run runID's stored release in the results folder dir:
// dir/releases/<runID>.csv.gz.
func ReleasePath(dir, runID string) string {
	return filepath.Join(dir, ReleasesDir, runID+".csv.gz")
}

// Rescore records one `sdcbench rescore` of a results folder in its manifest: the measures
// it added to runs.csv, when, and with which sdcbench version.
type Rescore struct {
	Metrics []string  `json:"metrics"`
	Time    time.Time `json:"time"`
	Tool    string    `json:"tool_version"`
}

// RescoredMetrics returns the measures every recorded rescore added, in order.
func (m *Manifest) RescoredMetrics() []string {
	var out []string
	for _, r := range m.Rescored {
		out = append(out, r.Metrics...)
	}
	return out
}
