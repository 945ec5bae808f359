package dp

import (
	"fmt"
	"math"

	"github.com/sdcbench/sdcbench/datasets"
)

// The seed's confidential data (docs/dp.md), registered as datasets.
// Binary sets have one 0/1 column y with x ones (the first x rows); categorical sets have one
// one-hot column per category, records sorted by category.
var (
	binaryScenarios = [][2]int{{100, 30}, {100, 1}, {100, 50}, {100, 99}, {1000, 10}, {1000, 500}, {1000, 990}}

	catScenarios = []struct {
		name, desc string
		n          int
		p          []float64
	}{
		{"dp_cat4_n100", "E6", 100, pC4},
		{"dp_cat4_n500", "E6/E7", 500, pC4},
		{"dp_cat4_n1000", "E6", 1000, pC4},
		{"dp_cat8_n500", "E7", 500, []float64{0.30, 0.24, 0.16, 0.10, 0.08, 0.06, 0.04, 0.02}},
		{"dp_cat16_n500", "E7", 500, []float64{0.20, 0.17, 0.12, 0.10, 0.06, 0.06, 0.04, 0.04, 0.04, 0.036,
			0.03, 0.03, 0.024, 0.02, 0.02, 0.01}},
		{"dp_cat4bal_n500", "E8 balanced", 500, []float64{0.25, 0.25, 0.25, 0.25}},
		{"dp_cat4unbal_n500", "E8 unbalanced", 500, []float64{0.96, 0.02, 0.018, 0.002}},
	}
	pC4 = []float64{0.7, 0.1, 0.15, 0.05}

	susepCounts = []int{21, 6, 24, 2, 19, 10, 21, 4}
	susepCells  = []string{"M_26_35", "F_26_35", "M_36_45", "F_36_45", "M_46_55", "F_46_55", "M_55p", "F_55p"}
)

// SUSEPCounts returns the AutoSeg collision counts of Table 4.1 (L1600–1640), Ford Fusion,
// MG-Met BH e ZN Mata, 2015, in the cell order of SUSEPCells (a new slice on every call).
func SUSEPCounts() []int { return append([]int(nil), susepCounts...) }

// SUSEPCells returns the cell names (sex × age band) of SUSEPCounts.
func SUSEPCells() []string { return append([]string(nil), susepCells...) }

// The scenarios are registered as one set, each built on use (not at the start of every
// process; docs/datapath.md "Start-up").
func init() {
	datasets.RegisterGenerators(datasets.GeneratorSet{Names: scenarioNames, Get: scenarioDataset})
}

// scenarioNames lists the datasets of the binary and categorical scenarios and SUSEP's.
func scenarioNames() []string {
	var out []string
	for _, s := range binaryScenarios {
		out = append(out, binaryName(s[0], s[1]))
	}
	for _, s := range catScenarios {
		out = append(out, s.name)
	}
	return append(out, "susep_collisions")
}

func binaryName(n, x int) string { return fmt.Sprintf("dp_bin_n%d_x%d", n, x) }

// scenarioDataset returns the Info and generator of the scenario dataset called name.
func scenarioDataset(name string) (datasets.Info, datasets.Generator, bool) {
	for _, s := range binaryScenarios {
		n, x := s[0], s[1]
		if name != binaryName(n, x) {
			continue
		}
		return datasets.Info{
			Name:        name,
			Description: fmt.Sprintf("DP study binary scenario: n = %d records, x = %d ones (p = %g)", n, x, float64(x)/float64(n)),
			Source:      "substitute",
		}, func(uint64) (*datasets.Dataset, error) { return BinaryDataset(name, n, x), nil }, true
	}
	for _, s := range catScenarios {
		if name != s.name {
			continue
		}
		x, err := CountsFromProportions(s.p, s.n)
		if err != nil {
			panic(err) // the table above is wrong (TestScenarioDatasets loads every scenario)
		}
		names := make([]string, len(x))
		for i := range names {
			names[i] = fmt.Sprintf("c%d", i+1)
		}
		return datasets.Info{
			Name:        s.name,
			Description: fmt.Sprintf("DP study categorical scenario (%s): n = %d, C = %d, p = %v, one-hot", s.desc, s.n, len(x), s.p),
			Source:      "substitute",
		}, func(uint64) (*datasets.Dataset, error) { return CategoricalDataset(s.name, names, x), nil }, true
	}
	if name == "susep_collisions" {
		return datasets.Info{
				Name:        "susep_collisions",
				Description: "SUSEP AutoSeg collisions 2015 (DP study Table 4.1): n = 107 records, 8 sex × age cells, one-hot",
				Source:      "original",
			}, func(uint64) (*datasets.Dataset, error) {
				return CategoricalDataset("susep_collisions", SUSEPCells(), SUSEPCounts()), nil
			}, true
	}
	return datasets.Info{}, nil, false
}

// BinaryDataset returns n records of one 0/1 column "y" whose first x values are 1.
func BinaryDataset(name string, n, x int) *datasets.Dataset {
	data := make([]float64, n)
	for i := 0; i < x; i++ {
		data[i] = 1
	}
	return datasets.New(name, []string{"y"}, n, 1, data)
}

// CategoricalDataset returns Σx records, one-hot over len(x) columns, x[i] records in
// category i.
func CategoricalDataset(name string, cols []string, x []int) *datasets.Dataset {
	n := 0
	for _, v := range x {
		n += v
	}
	C := len(x)
	data := make([]float64, n*C)
	r := 0
	for i, v := range x {
		for k := 0; k < v; k++ {
			data[r*C+i] = 1
			r++
		}
	}
	return datasets.New(name, append([]string(nil), cols...), n, C, data)
}

// Counts reads the confidential counts of d: for one column, the number of ones (values
// must be 0 or 1); for C ≥ 2 columns, the column sums of a one-hot table (each row must have
// exactly one 1). It returns an error naming the first bad row.
func Counts(d *datasets.Dataset) ([]int, error) {
	if d.N < 1 || d.P < 1 {
		return nil, invalid("dataset %s is empty", d.Name)
	}
	if d.P == 1 {
		x := 0
		for i, v := range d.Data {
			switch v {
			case 1:
				x++
			case 0:
			default:
				return nil, invalid("dataset %s: row %d: binary value must be 0 or 1 (got %v)", d.Name, i+1, v)
			}
		}
		return []int{x}, nil
	}
	x := make([]int, d.P)
	for i := 0; i < d.N; i++ {
		row, hot := d.Row(i), -1
		for j, v := range row {
			switch {
			case v == 0:
			case v == 1 && hot < 0:
				hot = j
			default:
				return nil, invalid("dataset %s: row %d is not one-hot (%v)", d.Name, i+1, row)
			}
		}
		if hot < 0 {
			return nil, invalid("dataset %s: row %d has no category (%v)", d.Name, i+1, row)
		}
		x[hot]++
	}
	return x, nil
}

// records writes cell counts as n = d.N records of d's shape (binary: cells = {ones, zeros}),
// scaled to n by largest remainder when they sum to another size (nt ≠ n, Laplace noise).
// Negative cells are clamped at 0.
func records(d *datasets.Dataset, cells []float64) *datasets.Dataset {
	k := make([]int, len(cells))
	w := make([]float64, len(cells))
	total := 0.0
	for i, v := range cells {
		w[i] = max(0, v)
		total += w[i]
	}
	if total > 0 && !math.IsInf(total, 0) {
		LargestRemainder(k, w, d.N)
	} else {
		k[len(k)-1] = d.N
	}
	if d.P == 1 {
		return BinaryDataset(d.Name, d.N, k[0])
	}
	return CategoricalDataset(d.Name, d.Names, k)
}
