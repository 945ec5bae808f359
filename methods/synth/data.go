package synth

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/sdcbench/sdcbench/datasets"
)

// The Census test sets of the FCRM study (docs/fcrm.md "Data"): the full 1080×13 Census file
// with a registered X/Y split. v_i is the i-th CSV column (census_order csv).
var (
	// S1: nine dependents, independents v2 AGI, v5 PTOTVAL, v8 POTHVAL, v10 PEARNVAL.
	SplitS1 = Split{Y: []int{1, 3, 4, 6, 7, 9, 11, 12, 13}, X: []int{2, 5, 8, 10}, Census: true}
	// S2: four dependents v4, v7, v12, v13, nine independents.
	SplitS2 = Split{Y: []int{4, 7, 12, 13}, X: []int{1, 2, 3, 5, 6, 8, 9, 10, 11}, Census: true}
)

// SplitS3 returns S3(d, n): v_d alone is the dependent; the independents are the cyclic
// sequence v_{d+1}, …, v_13, v_1, …, v_{d−1}, repeated as needed and cut to n entries.
func SplitS3(d, n int) Split {
	s := Split{Y: []int{d}, X: make([]int, 0, n), Census: true}
	for k := 0; len(s.X) < n; k++ {
		v := (d+k)%13 + 1
		if v == d {
			continue
		}
		s.X = append(s.X, v)
	}
	return s
}

// S3 grid bounds of the study: d = 1..13, n = 1..19.
const (
	S3MaxD = 13
	S3MaxN = 19
)

func censusCopy(name string) datasets.Generator {
	return func(uint64) (*datasets.Dataset, error) {
		d, err := datasets.Load("census")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		c := d.Clone()
		c.Name = name
		return c, nil
	}
}

func registerCensus(name, desc string, s Split) {
	datasets.RegisterGenerator(datasets.Info{Name: name, Source: "original", Description: desc}, censusCopy(name))
	RegisterSplit(name, s)
}

func init() {
	registerCensus("census_s1", "Census 1080×13 with the FCRM study's S1 split: 9 synthesized, 4 released (v2, v5, v8, v10)", SplitS1)
	registerCensus("census_s2", "Census 1080×13 with the FCRM study's S2 split: 4 synthesized (v4, v7, v12, v13), 9 released", SplitS2)
	// The 247 S3 datasets are one set, built on use: registering them one by one cost 0.4 ms,
	// 1,000 allocations and about 30 page faults in every process (docs/datapath.md "Start-up").
	datasets.RegisterGenerators(datasets.GeneratorSet{Names: s3Names, Get: s3Dataset})
}

// s3Names lists the datasets census_s3_d<d>_n<n>, d in 1..S3MaxD, n in 1..S3MaxN.
func s3Names() []string {
	out := make([]string, 0, S3MaxD*S3MaxN)
	for d := 1; d <= S3MaxD; d++ {
		for n := 1; n <= S3MaxN; n++ {
			out = append(out, "census_s3_d"+strconv.Itoa(d)+"_n"+strconv.Itoa(n))
		}
	}
	return out
}

// s3Dataset returns the Info and the generator of the S3 dataset name (a copy of census; its
// split is computed from the name on use, SplitOf), ok false for any other name.
func s3Dataset(name string) (datasets.Info, datasets.Generator, bool) {
	d, n, ok := parseS3(name)
	if !ok {
		return datasets.Info{}, nil, false
	}
	ds, ns := strconv.Itoa(d), strconv.Itoa(n)
	return datasets.Info{Name: name, Source: "original",
		Description: "Census with the FCRM study's S3 split: v" + ds + " synthesized from the next " + ns + " attributes (cyclic)"}, censusCopy(name), true
}

// ToyGroups are the (intercept, slope) pairs of the five groups of the fcrm_toy generator.
var ToyGroups = [5][2]float64{{1, 0.8}, {9, -0.7}, {4, 0.1}, {0, 1.5}, {7, 0.3}}

// Toy returns the fcrm_toy data (docs/fcrm.md "Toy data"), a documented stand-in for the
// study's hand-made 2-D example: n = 100 records in five groups of 20 (record i in group
// ⌈i/20⌉); x_i ~ U(0, 10) drawn for i = 1..100, then e_i ~ N(0, 0.5²) for i = 1..100, and
// y_i = a_g + b_g·x_i + e_i. Column x is released, y synthesized.
func Toy(seed uint64) *datasets.Dataset {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	const n = 100
	x := make([]float64, n)
	for i := range x {
		x[i] = 10 * rng.Float64()
	}
	data := make([]float64, 2*n)
	for i := range n {
		g := ToyGroups[i/20]
		data[2*i] = x[i]
		data[2*i+1] = g[0] + g[1]*x[i] + 0.5*rng.NormFloat64()
	}
	return datasets.New("fcrm_toy", []string{"x", "y"}, n, 2, data)
}

// ToySeed is the generator seed of the registered fcrm_toy (the study's year).
const ToySeed = 2009

func init() {
	datasets.RegisterGenerator(datasets.Info{Name: "fcrm_toy", Source: "substitute",
		Description: "FCRM toy substitute, 100×2: five noisy lines y = a_g + b_g·x (x released, y synthesized; seed 2009)"},
		func(uint64) (*datasets.Dataset, error) { return Toy(ToySeed), nil })
	RegisterSplit("fcrm_toy", Split{Y: []int{2}, X: []int{1}})
}
