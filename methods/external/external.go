// Package external holds the method `external`, whose "protection" is reading a release made
// by another tool (sdcMicro, ARX, a colleague's script) from a file, so that the release is
// measured, tested, ranked and plotted beside sdcbench's own methods in one experiment.
package external

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() { methods.Register(Method{}) }

// Method is `external`. Its parameter pattern names the release file of each dataset:
// "{dataset}" is replaced by the dataset's label (the name runs.csv uses), e.g.
// "examples/external-sdcmicro/masked/{dataset}.csv"; a relative path is relative to the
// working directory. The file is a CSV with a header that holds every column of the dataset
// (extra columns are ignored; order may differ) and exactly as many rows, in the same order.
// The optional parameter tool is a free label for reports (e.g. "sdcMicro 5.8.1").
type Method struct{}

var _ methods.Validator = Method{}

// Info implements methods.Method.
func (Method) Info() methods.Info {
	return methods.Info{
		Name:        "external",
		Description: "reads a release made elsewhere (sdcMicro, ARX, …) from pattern with {dataset} replaced, to measure it beside ours",
		Params: []methods.ParamSpec{
			{Name: "pattern", Kind: methods.String, Default: "", Doc: "release file, {dataset} = the dataset's label, e.g. masked/{dataset}.csv"},
			{Name: "tool", Kind: methods.String, Default: "", Doc: "label of the tool that made the release (reports only)"},
		},
		Missing: "read as written (NA, an empty cell or NaN is missing); a missing cell where the original has a value is the other tool's suppression, counted in n_suppressed",
	}
}

// Path returns the release file of dataset label under pattern.
func Path(pattern, label string) string { return strings.ReplaceAll(pattern, "{dataset}", label) }

// InputFiles implements methods.FileReader: the release file of d.
func (Method) InputFiles(d *datasets.Dataset, p methods.Params) []string {
	if pat := p.String("pattern"); pat != "" {
		return []string{Path(pat, d.Name)}
	}
	return nil
}

// Validate reads the release and checks its shape, so a spec with a missing or misshapen file
// fails before anything runs.
func (m Method) Validate(d *datasets.Dataset, p methods.Params) error {
	_, err := m.read(d, p)
	return err
}

func (Method) read(d *datasets.Dataset, p methods.Params) (*datasets.Dataset, error) {
	pat := p.String("pattern")
	if pat == "" {
		return nil, fmt.Errorf("external: %w: pattern is empty: name the release file, e.g. pattern = \"masked/{dataset}.csv\"", methods.ErrBadParam)
	}
	path := Path(pat, d.Name)
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

// Protect implements methods.Method: it returns the file's release.
func (m Method) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rel, err := m.read(d, p)
	if err != nil {
		return nil, err
	}
	info := map[string]any{"file": Path(p.String("pattern"), d.Name)}
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
