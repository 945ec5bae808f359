// Package studies is the registry of studies: a study is a folder under studies/ that holds its
// README.md, its experiment specs (<name>.toml), the published numbers they are judged against
// (<name>.expected.csv), the notes their reports include (<name>.notes.md) and, where its
// tables need code, a Go package whose Reporter writes the study report (docs/reproducing.md).
//
// Every spec in a study's folder belongs to that study: `sdcbench run` and `sdcbench report`
// find a results folder's study through the experiment name recorded in its manifest.json.
// Each study package embeds its folder and registers itself from an init function; the CLI
// links them all in through package studies/all. The harness (package experiments and below)
// never imports a study: it reads the bundled specs through the fs.FS that Bundled returns.
package studies

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/sdcbench/sdcbench/internal/registry"
)

// Study is one study: a reproduction of a publication or one of the harness's own studies.
type Study struct {
	// Name is the study's folder under studies/, e.g. "dfo".
	Name string
	// Citation cites the publication (authors where known, title or subject, kind and year), or
	// says what the study measures when it reproduces none. It fills the study column of
	// verdicts.csv and heads the study's section of the status page.
	Citation string
	// Parts overrides Citation for the experiments that reproduce one part of the publication
	// (experiment name → citation of that part).
	Parts map[string]string
	// Files is the study's folder: README.md, *.toml, *.expected.csv, *.notes.md and the
	// *.reference.csv tables its report reads.
	Files fs.FS
	// Report writes the study report of a results folder; nil when the study has none (its
	// published numbers are compared by the analysis alone).
	Report Reporter
	// Folders names results folders written by a script rather than by a run of a spec, which
	// the study's Report explains (e.g. perturbative-sdcmicro).
	Folders []string
}

// Cite returns the citation of the study, or of the part of it that experiment reproduces.
func (s Study) Cite(experiment string) string {
	if c, ok := s.Parts[experiment]; ok {
		return c
	}
	return s.Citation
}

// Experiments returns the names of the study's specs (its *.toml files without the
// extension), sorted.
func (s Study) Experiments() []string {
	names, _ := fs.Glob(s.Files, "*"+specExt)
	for i, n := range names {
		names[i] = strings.TrimSuffix(n, specExt)
	}
	slices.Sort(names)
	return names
}

// Owns reports whether the experiment (or a results folder's name, for Folders) belongs to the
// study: its folder holds experiment.toml, or Folders names it.
func (s Study) Owns(experiment string) bool {
	if slices.Contains(s.Folders, experiment) {
		return true
	}
	if !fs.ValidPath(experiment) || strings.Contains(experiment, "/") {
		return false
	}
	st, err := fs.Stat(s.Files, experiment+specExt)
	return err == nil && !st.IsDir()
}

var (
	reg registry.Registry[Study]

	// owners maps each experiment or folder a registered study owns (Owns) to the study's
	// name, so that Register checks a new study against it instead of asking every registered
	// study about every experiment (which cost 700 allocations at every start; docs/datapath.md
	// "Start-up").
	ownersMu sync.Mutex
	owners   = map[string]string{}
)

// Register adds a study. It panics on an empty or duplicate name, a nil Files, or an
// experiment that another registered study already owns; call it from an init function.
func Register(s Study) {
	if s.Files == nil {
		panic(fmt.Sprintf("studies: %s: nil Files", s.Name))
	}
	claimed := append(s.Experiments(), s.Folders...)
	ownersMu.Lock()
	defer ownersMu.Unlock()
	for _, e := range claimed {
		if o, ok := owners[e]; ok {
			panic(fmt.Sprintf("studies: %s: experiment %q already belongs to study %s", s.Name, e, o))
		}
	}
	reg.Add("studies", s.Name, s)
	for _, e := range claimed {
		if s.Owns(e) { // a directory named *.toml is listed but not owned
			owners[e] = s.Name
		}
	}
}

// All returns the registered studies in name order.
func All() []Study { return reg.Values() }

// Get returns the study registered under name.
func Get(name string) (Study, bool) { return reg.Get(name) }

// For returns the study that owns the experiment.
func For(experiment string) (Study, bool) {
	for _, s := range reg.Values() {
		if s.Owns(experiment) {
			return s, true
		}
	}
	return Study{}, false
}

const (
	specExt     = ".toml"
	expectedExt = ".expected.csv"
	notesExt    = ".notes.md"
)

// bundledFile reports whether name is one of the experiment files that Bundled serves.
func bundledFile(name string) bool {
	return path.Dir(name) == "." &&
		(strings.HasSuffix(name, specExt) || strings.HasSuffix(name, expectedExt) || strings.HasSuffix(name, notesExt))
}
