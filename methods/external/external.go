// Package external holds the method `external`, whose "protection" is reading a release made
// by another tool (sdcMicro, ARX, a colleague's script) from a file, so that the release is
// measured, tested, ranked and plotted beside sdcbench's own methods in one experiment.
package external

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() { methods.Register(Method{}) }

// Method is `external`. Its parameter pattern names the release file of each run; in it
// "{dataset}" is replaced by the dataset's label (the name runs.csv uses), "{replicate}" by the
// run's replicate (1-based) and "{seed}" by its seed, e.g. "masked/{dataset}-{replicate}.csv",
// so each replicate of a randomized tool's release is its own file. A relative pattern is
// relative to the spec file's folder (protect: the working directory). The file is a CSV with
// a header that holds every column of the dataset (extra columns are ignored; order may
// differ) and exactly as many rows, in the same order. The optional parameter tool is a free
// label for reports (e.g. "sdcMicro 5.8.1").
type Method struct{}

var (
	_ methods.Validator    = Method{}
	_ methods.RunValidator = Method{}
	_ methods.FileReader   = Method{}
)

// Info implements methods.Method.
func (Method) Info() methods.Info {
	return methods.Info{
		Name:        "external",
		Description: "reads a release made elsewhere (sdcMicro, ARX, …) from pattern with {dataset}, {replicate}, {seed} filled in, to measure it beside ours",
		Params: []methods.ParamSpec{
			{Name: "pattern", Kind: methods.String, Default: "", Doc: "release file, relative to the spec's folder: {dataset} = the dataset's label, {replicate}, {seed}; e.g. masked/{dataset}.csv"},
			{Name: "tool", Kind: methods.String, Default: "", Doc: "label of the tool that made the release (reports only)"},
		},
		Missing: "read as written (NA, an empty cell or NaN is missing); a missing cell where the original has a value is the other tool's suppression, counted in n_suppressed",
	}
}

// placeholder matches a {name} of a pattern.
var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{[A-Za-z][A-Za-z0-9_]*\}`) })

// Path returns the release file of run r under pattern: placeholders filled in, a relative
// result joined to r.Dir.
func Path(pattern string, r methods.Run) string {
	path := placeholder().ReplaceAllStringFunc(pattern, func(m string) string {
		switch m {
		case "{dataset}":
			return r.Dataset
		case "{replicate}":
			return strconv.Itoa(r.Replicate)
		case "{seed}":
			return strconv.FormatUint(r.Seed, 10)
		}
		return m
	})
	if r.Dir != "" && !filepath.IsAbs(path) {
		path = filepath.Join(r.Dir, path)
	}
	return path
}

// InputFiles implements methods.FileReader: the release file of run r.
func (Method) InputFiles(_ *datasets.Dataset, p methods.Params, r methods.Run) []string {
	if pat := p.String("pattern"); pat != "" {
		return []string{Path(pat, r)}
	}
	return nil
}

// Validate checks the pattern: not empty, only known placeholders.
func (Method) Validate(_ *datasets.Dataset, p methods.Params) error {
	pat := p.String("pattern")
	if pat == "" {
		return fmt.Errorf("external: %w: pattern is empty: name the release file, e.g. pattern = \"masked/{dataset}.csv\"", methods.ErrBadParam)
	}
	for _, m := range placeholder().FindAllString(pat, -1) {
		if m != "{dataset}" && m != "{replicate}" && m != "{seed}" {
			return fmt.Errorf("external: %w: pattern %q: unknown placeholder %s (have {dataset}, {replicate}, {seed})", methods.ErrBadParam, pat, m)
		}
	}
	return nil
}

// ValidateRun implements methods.RunValidator: it reads run r's release and checks its shape,
// so a spec with a missing or misshapen file fails before anything runs.
func (m Method) ValidateRun(d *datasets.Dataset, p methods.Params, r methods.Run) error {
	if err := m.Validate(d, p); err != nil {
		return err
	}
	_, err := m.read(d, p, r)
	return err
}

func (Method) read(d *datasets.Dataset, p methods.Params, r methods.Run) (*datasets.Dataset, error) {
	path := Path(p.String("pattern"), r)
	rel, err := datasets.ReadFile(path, datasets.ReadOptions{Columns: d.Names, AllowNonFinite: true})
	if err != nil {
		return nil, fmt.Errorf("external: release of dataset %s: %w", d.Name, err)
	}
	if rel.N != d.N {
		return nil, fmt.Errorf("external: %s has %d rows, dataset %s has %d (one released row per record, same order)", path, rel.N, d.Name, d.N)
	}
	rel.Name = d.Name
	return rel, nil
}

// Protect implements methods.Method: it returns the file's release for the run in ctx
// (methods.WithRun; without one, replicate 1 of dataset d.Name in the working directory).
func (m Method) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := m.Validate(d, p); err != nil {
		return nil, err
	}
	r, ok := methods.RunOf(ctx)
	if !ok {
		r = methods.Run{Replicate: 1, Dataset: d.Name}
	}
	rel, err := m.read(d, p, r)
	if err != nil {
		return nil, err
	}
	info := map[string]any{"file": Path(p.String("pattern"), r)}
	n := 0
	for _, c := range methods.Holes(d, rel) {
		n += c
	}
	if n > 0 { // the other tool's suppressions, declared (methods.CheckHoles)
		info["n_suppressed"] = n
	}
	if t := p.String("tool"); t != "" {
		info["tool"] = t
	}
	return &methods.Release{Masked: rel, Info: info}, nil
}
