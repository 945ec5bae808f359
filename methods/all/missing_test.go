package all_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// withHoles returns a copy of d with missing values at a few cells: row 4 column 1, row 11
// the last column, and every column of row 21.
func withHoles(d *datasets.Dataset) *datasets.Dataset {
	h := d.Clone()
	h.Data[3*h.P] = math.NaN()
	h.Data[10*h.P+h.P-1] = math.NaN()
	for j := 0; j < h.P; j++ {
		h.Data[20*h.P+j] = math.NaN()
	}
	return h
}

// TestMissingValues checks every registered method's missing-value contract
// (docs/own-data.md "Missing values") on the first conformance dataset it accepts, with
// missing values added: a method with Info.Missing releases every missing cell missing and
// no other hole unless declared (methods.CheckHoles), and fills a missing cell only when it
// declares it (Info "n_filled"); one without refuses the table with the
// one line naming the column, its count and the way forward.
func TestMissingValues(t *testing.T) {
	small, candidates := candidates(t)
	dir := t.TempDir()
	holed := withHoles(small)
	if err := datasets.WriteFile(filepath.Join(dir, "census60.csv"), holed); err != nil {
		t.Fatal(err)
	}
	params := map[string]map[string]string{}
	for _, in := range methods.List() {
		params[in.Name] = in.Example // quick settings the method declares
	}
	params["external"] = map[string]string{"pattern": filepath.Join(dir, "{dataset}.csv")}
	for _, in := range methods.List() {
		if in.Name == "test_hook" {
			continue
		}
		m, _ := methods.Lookup(in.Name)
		t.Run(in.Name, func(t *testing.T) {
			p, err := in.Resolve(params[in.Name])
			if err != nil {
				t.Fatal(err)
			}
			var d *datasets.Dataset
			for _, c := range candidates {
				if v, ok := m.(methods.Validator); !ok || v.Validate(c, p) == nil {
					d = c
					break
				}
			}
			if d == nil {
				t.Skip("no dataset accepted")
			}
			h := withHoles(d)
			var rel *methods.Release
			err = nil
			if v, ok := m.(methods.Validator); ok {
				err = v.Validate(h, p)
			}
			if err == nil {
				rel, err = m.Protect(t.Context(), h, p, rand.New(rand.NewPCG(1, 2)))
			}
			if in.Missing == "" {
				msg := ""
				if err != nil {
					msg = err.Error()
				}
				want := fmt.Sprintf("%s: column %q has %d missing values; drop or impute them", in.Name, h.Names[0], methods.Holes(d, h)[0])
				if !strings.HasPrefix(msg, want) {
					t.Errorf("no missing-value rule, so a refusal %q…, got %v", want, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Info.Missing = %q, yet: %v", in.Missing, err)
			}
			if err := methods.CheckHoles(in.Name, h, rel); err != nil {
				t.Error(err)
			}
			cols := rel.Columns
			if cols == nil {
				for j := 0; j < h.P; j++ {
					cols = append(cols, j)
				}
			}
			filled, _ := rel.Info["n_filled"].(int)
			if got := sumInts(methods.Holes(rel.Masked, h)); got != filled {
				t.Errorf("%d missing cells filled, %d declared (Info n_filled)", got, filled)
			}
			if filled > 0 {
				return
			}
			for i := 0; i < h.N; i++ {
				for _, j := range cols {
					if math.IsNaN(h.At(i, j)) && !math.IsNaN(rel.Masked.At(i, j)) {
						t.Errorf("row %d, column %s: missing in the input, %v in the release", i+1, h.Names[j], rel.Masked.At(i, j))
					}
				}
			}
		})
	}
}

func sumInts(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}
