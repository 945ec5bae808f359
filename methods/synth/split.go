package synth

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// Split is a registered X/Y role assignment of a dataset: attribute positions v_i (1-based)
// of the dependents Y (synthesized) and of the independents X (released). X may repeat a
// position (S3 with n > 12 repeats the cyclic sequence); the design matrix then holds the
// column twice, which changes no fitted value but weighs twice in FCM distances.
type Split struct {
	Y, X []int
	// Census marks a split over the 13 Census attributes, so census_order applies.
	Census bool
}

var (
	splitMu sync.RWMutex
	splits  = map[string]Split{}
)

// RegisterSplit records the X/Y split of the dataset registered under name. It panics on a
// duplicate: call it from an init function.
func RegisterSplit(name string, s Split) {
	splitMu.Lock()
	defer splitMu.Unlock()
	if _, dup := splits[name]; dup {
		panic("synth: duplicate split " + name)
	}
	splits[name] = s
}

// SplitOf returns the split registered for a dataset name; for census_s3_d<d>_n<n> (d in
// 1..S3MaxD, n in 1..S3MaxN, no leading zeros) it is SplitS3(d, n), computed here rather than
// stored at start-up.
func SplitOf(name string) (Split, bool) {
	splitMu.RLock()
	s, ok := splits[name]
	splitMu.RUnlock()
	if !ok {
		if d, n, s3 := parseS3(name); s3 {
			return SplitS3(d, n), true
		}
	}
	return s, ok
}

// parseS3 reads d and n from a name census_s3_d<d>_n<n> registered by this package.
func parseS3(name string) (d, n int, ok bool) {
	rest, found := strings.CutPrefix(name, "census_s3_d")
	if !found {
		return 0, 0, false
	}
	ds, ns, found := strings.Cut(rest, "_n")
	if !found {
		return 0, 0, false
	}
	d, errD := strconv.Atoi(ds)
	n, errN := strconv.Atoi(ns)
	if errD != nil || errN != nil || d < 1 || d > S3MaxD || n < 1 || n > S3MaxN ||
		ds != strconv.Itoa(d) || ns != strconv.Itoa(n) {
		return 0, 0, false
	}
	return d, n, true
}

// CensusCSV lists the Census attributes in the order of the CSV file: v_i is CensusCSV[i−1]
// (the default, `census_order: csv`).
var CensusCSV = []string{"AFNLWGT", "AGI", "EMCONTRB", "FEDTAX", "PTOTVAL", "STATETAX", "TAXINC",
	"POTHVAL", "INTVAL", "PEARNVAL", "FICA", "WSALVAL", "ERNVAL"}

// CensusTable4 lists the Census attributes alphabetically, as the study's attribute table
// does (`census_order: table4`).
var CensusTable4 = []string{"AFNLWGT", "AGI", "EMCONTRB", "ERNVAL", "FEDTAX", "FICA", "INTVAL",
	"PEARNVAL", "POTHVAL", "PTOTVAL", "STATETAX", "TAXINC", "WSALVAL"}

// roleParams are the parameters every method of the package declares.
var roleParams = []methods.ParamSpec{
	{Name: "preds", Kind: methods.String, Default: "",
		Doc: "comma-separated independent (released) columns; empty: the dataset's registered split"},
	{Name: "targets", Kind: methods.String, Default: "",
		Doc: "comma-separated dependent (synthesized) columns; empty: every column not in preds"},
	{Name: "census_order", Kind: methods.String, Default: "csv", Choices: []string{"csv", "table4"},
		Doc: "v_i of a registered Census split: i-th CSV column or i-th name of the study's Table 4"},
}

// roles are the resolved column indices of X (may repeat) and Y (distinct, file order kept
// as given).
type roles struct {
	x, y []int
}

// resolveRoles finds the X and Y columns of d for a method called name.
func resolveRoles(name string, d *datasets.Dataset, p methods.Params) (roles, error) {
	preds, targets := strings.TrimSpace(p.String("preds")), strings.TrimSpace(p.String("targets"))
	var r roles
	if preds == "" && targets == "" {
		s, ok := SplitOf(d.Name)
		if !ok {
			return r, fmt.Errorf("%s: dataset %s has no registered X/Y split: set preds (and optionally targets)", name, d.Name)
		}
		order := func(v int) string { return "" }
		if s.Census {
			tab := CensusCSV
			if p.String("census_order") == "table4" {
				tab = CensusTable4
			}
			order = func(v int) string { return tab[v-1] }
		}
		col := func(v int) (int, error) {
			if v < 1 || v > d.P {
				return 0, fmt.Errorf("%s: split of %s names v%d, dataset has %d columns", name, d.Name, v, d.P)
			}
			if nm := order(v); nm != "" {
				j := slices.Index(d.Names, nm)
				if j < 0 {
					return 0, fmt.Errorf("%s: dataset %s has no column %q (v%d)", name, d.Name, nm, v)
				}
				return j, nil
			}
			return v - 1, nil
		}
		for _, v := range s.Y {
			j, err := col(v)
			if err != nil {
				return r, err
			}
			r.y = append(r.y, j)
		}
		for _, v := range s.X {
			j, err := col(v)
			if err != nil {
				return r, err
			}
			r.x = append(r.x, j)
		}
		if s.Census {
			// Keep CSV order inside each block (the split lists v's; table4 permutes names).
			slices.Sort(r.y)
		}
		return r, r.check(name, d)
	}
	idx := func(list, key string) ([]int, error) {
		var out []int
		for _, f := range strings.Split(list, ",") {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			j := slices.Index(d.Names, f)
			if j < 0 {
				return nil, fmt.Errorf("%s: %s: dataset %s has no column %q (have %v)", name, key, d.Name, f, d.Names)
			}
			out = append(out, j)
		}
		return out, nil
	}
	var err error
	if r.x, err = idx(preds, "preds"); err != nil {
		return r, err
	}
	if r.y, err = idx(targets, "targets"); err != nil {
		return r, err
	}
	if targets == "" {
		for j := range d.P {
			if !slices.Contains(r.x, j) {
				r.y = append(r.y, j)
			}
		}
	}
	return r, r.check(name, d)
}

func (r roles) check(name string, d *datasets.Dataset) error {
	if len(r.y) == 0 {
		return fmt.Errorf("%s: dataset %s: no dependent (synthesized) column", name, d.Name)
	}
	seen := map[int]bool{}
	for _, j := range r.y {
		if seen[j] {
			return fmt.Errorf("%s: column %q is a target twice", name, d.Names[j])
		}
		seen[j] = true
		if slices.Contains(r.x, j) {
			return fmt.Errorf("%s: column %q is both a predictor and a target", name, d.Names[j])
		}
	}
	return nil
}
