package experiments

import (
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/methods"
)

// TestReleaseRoundTrip stores a release with a partition, measured columns, a missing number,
// a missing category and a category the original lacks, and reads it back: the same values
// bit for bit, the same labels and columns, the original's categories.
func TestReleaseRoundTrip(t *testing.T) {
	ref := datasets.New("ref", []string{"x", "region", "y"}, 3, 3, []float64{1, 0, 2, 3, 1, 4, 5, 0, 6})
	ref.Levels = [][]string{nil, {"north", "south"}, nil}
	masked := datasets.New("m", []string{"x", "region", "y"}, 3, 3,
		[]float64{0.1 + 0.2, 1, math.NaN(), 1e-310, math.NaN(), -4.25, math.Pi, 2, 6})
	masked.Levels = [][]string{nil, {"north", "south", "west"}, nil}
	rel := &methods.Release{Masked: masked, Labels: []int32{0, 0, 2}, Columns: []int{0, 2}}
	dir := t.TempDir()
	r := Run{ID: "00000000000000ab"}
	if err := writeRelease(dir, r, ref, rel); err != nil {
		t.Fatal(err)
	}
	got, err := readRelease(dir, r.ID, ref)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range masked.Data {
		if math.Float64bits(v) != math.Float64bits(got.Masked.Data[i]) && !(math.IsNaN(v) && math.IsNaN(got.Masked.Data[i])) {
			t.Errorf("cell %d: %v, stored %v", i, got.Masked.Data[i], v)
		}
	}
	if !slices.Equal(got.Labels, rel.Labels) || !slices.Equal(got.Columns, rel.Columns) {
		t.Errorf("labels %v, columns %v; want %v, %v", got.Labels, got.Columns, rel.Labels, rel.Columns)
	}
	if !slices.Equal(got.Masked.Names, ref.Names) || got.Masked.IsCategorical(0) ||
		!slices.Equal(got.Masked.Levels[1], []string{"north", "south", "<category 2>"}) {
		t.Errorf("names %v, levels %q", got.Masked.Names, got.Masked.Levels)
	}
	if got.Masked.Label(1, 1) != "NA" || got.Masked.Label(2, 1) != "<category 2>" {
		t.Errorf("region labels %q, %q", got.Masked.Label(1, 1), got.Masked.Label(2, 1))
	}

	// Damaged files are errors naming the run and the file.
	path := resultsdir.ReleasePath(dir, r.ID)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"truncated", data[:len(data)-6], "truncated or corrupt"},
		{"not gzip", []byte("x,region,y\n1,2,3\n"), "truncated or corrupt"},
		{"other rows", nil, "has 1 rows"},
	} {
		if c.data == nil {
			one := datasets.New("m", ref.Names, 1, 3, []float64{1, 0, 2})
			one.Levels = ref.Levels
			if err := writeRelease(dir, r, ref, &methods.Release{Masked: one}); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readRelease(dir, r.ID, ref)
		if err == nil || !strings.Contains(err.Error(), "run "+r.ID+": stored release "+path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming the run and file and containing %q", c.name, err, c.want)
		}
	}
	os.Remove(path)
	if _, err := readRelease(dir, r.ID, ref); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: error %v, want one wrapping os.ErrNotExist", err)
	}

	// Categories out of the original's order, or a category column released as numbers,
	// cannot be stored as codes.
	swapped := masked.Clone()
	swapped.Levels[1] = []string{"south", "north"}
	numeric := masked.Clone()
	numeric.Levels = nil
	for _, m := range []*datasets.Dataset{swapped, numeric} {
		if err := writeRelease(dir, r, ref, &methods.Release{Masked: m}); err == nil || !strings.Contains(err.Error(), "column region") {
			t.Errorf("levels %q: error %v", m.Levels, err)
		}
	}
}
