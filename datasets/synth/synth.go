// Package synth registers the seeded synthetic substitutes of MAGGA study's 34-instance benchmark
// (docs/magga.md): the instances whose files are not shipped are replaced by the
// documented generators, with the same n and d. Importing the package registers them with
// datasets.RegisterGenerators under Source "substitute"; `sdcbench list datasets` shows them.
//
// Instance # is generated from rand.New(rand.NewPCG(#, seed−1)), so the seed 1 that
// datasets.Load uses gives the spec's stream PCG(#, 0). Values are drawn record by record and,
// within a record, column by column; N = NormFloat64, U(a,b) = a+(b−a)·Float64 and Exp =
// ExpFloat64. math/rand/v2 does not promise identical distribution outputs across Go
// releases, so the CSVs written by WriteAll with the Go version are the artifact.
package synth

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
)

// Instance is one generated instance of the benchmark.
type Instance struct {
	Num  int    // instance number in MAGGA study's Tables 5.1-5.4
	Name string // dataset name
	Desc string
	N, D int
	gen  func(rng *rand.Rand, n, d int) ([]float64, []string)
}

// Instances lists the generated instances in instance order.
var Instances = []Instance{
	{3, "outliers", "3 Gaussian clusters × 45 + 15 uniform outliers", 150, 2, outliers},
	{5, "data200", "4 Gaussian clusters × 50 at (0,0), (6,0), (0,6), (6,6)", 200, 2, clusters([][]float64{{0, 0}, {6, 0}, {0, 6}, {6, 6}}, 50)},
	{6, "maronna", "4 elongated clusters × 50, rotated 45°", 200, 2, maronna},
	{7, "spherical_4d3c", "4 spherical 3-D Gaussian clusters × 100", 400, 3, clusters([][]float64{{0, 0, 0}, {5, 0, 0}, {0, 5, 0}, {0, 0, 5}}, 100)},
	{8, "chart", "synthetic control chart time series CC(T=60), fallback for the UCI file", 600, 60, controlChart},
	{9, "synthetic_control", "synthetic control chart time series CC(T=51)", 600, 51, controlChart},
	{10, "gauss9", "9 Gaussian clusters × 100 on a 5-spaced 3×3 grid", 900, 2, gauss9},
	{11, "yeast", "YEAST-like bounded attributes, fallback for the UCI file", 1484, 7, yeast},
	{12, "normal300", "i.i.d. N(0,1)", 300, 2, iid(func(r *rand.Rand) float64 { return r.NormFloat64() })},
	{13, "uniform400", "i.i.d. U(0,1)", 400, 2, iid(func(r *rand.Rand) float64 { return r.Float64() })},
	{14, "gamma400", "i.i.d. Gamma(2,1) = Exp + Exp (n = 500 as printed)", 500, 3, iid(func(r *rand.Rand) float64 { return r.ExpFloat64() + r.ExpFloat64() })},
	{15, "uniform700", "i.i.d. U(0,1)", 700, 2, iid(func(r *rand.Rand) float64 { return r.Float64() })},
	{16, "censo_ms", "MUN(5) municipal totals", 73, 5, mun},
	{17, "censo_rj", "MUN(5) municipal totals", 88, 5, mun},
	{18, "censo_pa", "MUN(5) municipal totals", 128, 5, mun},
	{19, "censo_ma", "MUN(5) municipal totals", 190, 5, mun},
	{20, "censo_sc", "MUN(5) municipal totals", 256, 5, mun},
	{21, "pib_es", "MUN(4) municipal totals", 71, 4, mun},
	{22, "pib_to", "MUN(4) municipal totals", 117, 4, mun},
	{23, "pib_mg", "MUN(4) municipal totals", 122, 4, mun},
	{24, "pib_ce", "MUN(4) municipal totals", 164, 4, mun},
	{25, "pib_pr", "MUN(4) municipal totals", 369, 4, mun},
	{26, "idh_norte", "IDH(3) bounded index components", 449, 3, idh},
	{27, "idh_centro_oeste", "IDH(3) bounded index components", 465, 3, idh},
	{28, "idh_sul", "IDH(3) bounded index components", 1188, 3, idh},
	{29, "idh_sudeste", "IDH(3) bounded index components", 1668, 3, idh},
	{30, "idh_nordeste", "IDH(3) bounded index components", 1780, 3, idh},
}

// The instances are registered as one set, each built on use (not at the start of every
// process; docs/datapath.md "Start-up").
func init() {
	datasets.RegisterGenerators(datasets.GeneratorSet{Names: instanceNames, Get: instanceDataset})
}

func instanceNames() []string {
	out := make([]string, len(Instances))
	for i, in := range Instances {
		out[i] = in.Name
	}
	return out
}

// instanceDataset returns the Info and generator of the instance called name.
func instanceDataset(name string) (datasets.Info, datasets.Generator, bool) {
	for _, in := range Instances {
		if in.Name == name {
			return datasets.Info{Name: in.Name, Source: "substitute",
					Description: fmt.Sprintf("MAGGA study instance #%d substitute, %d×%d: %s (magga.md §11.1)", in.Num, in.N, in.D, in.Desc)},
				in.Generate, true
		}
	}
	return datasets.Info{}, nil, false
}

// Generate returns the instance drawn from rand.NewPCG(Num, seed−1).
func (in Instance) Generate(seed uint64) (*datasets.Dataset, error) {
	rng := rand.New(rand.NewPCG(uint64(in.Num), seed-1))
	data, names := in.gen(rng, in.N, in.D)
	if names == nil {
		names = make([]string, in.D)
		for l := range names {
			names[l] = fmt.Sprintf("V%d", l+1)
		}
	}
	d := datasets.New(in.Name, names, in.N, in.D, data)
	if err := d.CheckFinite(); err != nil {
		return nil, err
	}
	return d, nil
}

func iid(draw func(*rand.Rand) float64) func(*rand.Rand, int, int) ([]float64, []string) {
	return func(r *rand.Rand, n, d int) ([]float64, []string) {
		x := make([]float64, n*d)
		for i := range x {
			x[i] = draw(r)
		}
		return x, nil
	}
}

// clusters draws per clusters of m records: centre + (N, …, N).
func clusters(centres [][]float64, m int) func(*rand.Rand, int, int) ([]float64, []string) {
	return func(r *rand.Rand, n, d int) ([]float64, []string) {
		x := make([]float64, 0, n*d)
		for _, c := range centres {
			for range m {
				for _, v := range c {
					x = append(x, v+r.NormFloat64())
				}
			}
		}
		return x, nil
	}
}

func outliers(r *rand.Rand, n, d int) ([]float64, []string) {
	x, _ := clusters([][]float64{{0, 0}, {8, 0}, {4, 7}}, 45)(r, 135, 2)
	for range 15 {
		x = append(x, -10+28*r.Float64(), -10+28*r.Float64())
	}
	return x, nil
}

func maronna(r *rand.Rand, n, d int) ([]float64, []string) {
	x := make([]float64, 0, n*d)
	for _, c := range [][2]float64{{0, 0}, {8, 0}, {0, 8}, {8, 8}} {
		for range 50 {
			a, b := 2*r.NormFloat64(), 0.5*r.NormFloat64()
			x = append(x, c[0]+(a-b)/math.Sqrt2, c[1]+(a+b)/math.Sqrt2)
		}
	}
	return x, nil
}

func gauss9(r *rand.Rand, n, d int) ([]float64, []string) {
	var centres [][]float64
	for a := range 3 {
		for b := range 3 {
			centres = append(centres, []float64{5 * float64(a), 5 * float64(b)})
		}
	}
	return clusters(centres, 100)(r, n, d)
}

// controlChart is CC(T): 6 classes × 100 series (normal, cyclic, increasing, decreasing,
// upward shift, downward shift), y_t = 30 + 2r_t + class term, r_t ~ U(−3,3).
func controlChart(r *rand.Rand, n, T int) ([]float64, []string) {
	x := make([]float64, 0, n*T)
	names := make([]string, T)
	for t := range names {
		names[t] = fmt.Sprintf("t%d", t+1)
	}
	u := func(a, b float64) float64 { return a + (b-a)*r.Float64() }
	for class := range 6 {
		for range 100 {
			var a, P, g, sh, t3 float64
			switch class {
			case 1:
				a, P = u(10, 15), u(10, 15)
			case 2, 3:
				g = u(0.2, 0.5)
			case 4, 5:
				sh, t3 = u(7.5, 20), u(float64(T)/3, 2*float64(T)/3)
			}
			for t := 1; t <= T; t++ {
				y := 30 + 2*u(-3, 3)
				tf := float64(t)
				switch class {
				case 1:
					y += a * math.Sin(2*math.Pi*tf/P)
				case 2:
					y += g * tf
				case 3:
					y -= g * tf
				case 4, 5:
					if tf >= t3 {
						if class == 4 {
							y += sh
						} else {
							y -= sh
						}
					}
				}
				x = append(x, y)
			}
		}
	}
	return x, names
}

func yeast(r *rand.Rand, n, d int) ([]float64, []string) {
	names := []string{"mcg", "gvh", "alm", "mit", "pox", "vac", "nuc"}
	x := make([]float64, 0, n*d)
	for range n {
		w := r.NormFloat64()
		for _, c := range names {
			if c == "pox" {
				v := 0.0
				if r.Float64() >= 0.9 {
					v = math.Round(0.83*r.Float64()*100) / 100
				}
				x = append(x, v)
				continue
			}
			v := min(1, max(0, 0.5+0.12*(0.6*w+0.8*r.NormFloat64())))
			x = append(x, math.Round(v*100)/100)
		}
	}
	return x, names
}

// mun is MUN(d): round(exp(10 + 1.2·(0.85w + 0.5268e))), w per record, e per cell.
func mun(r *rand.Rand, n, d int) ([]float64, []string) {
	x := make([]float64, 0, n*d)
	for range n {
		w := r.NormFloat64()
		for range d {
			x = append(x, math.Round(math.Exp(10+1.2*(0.85*w+0.5268*r.NormFloat64()))))
		}
	}
	return x, nil
}

// idh is IDH(d): clamp(0.65 + 0.08·(0.8w + 0.6e), 0.2, 0.95) rounded to 3 decimals.
func idh(r *rand.Rand, n, d int) ([]float64, []string) {
	x := make([]float64, 0, n*d)
	for range n {
		w := r.NormFloat64()
		for range d {
			v := min(0.95, max(0.2, 0.65+0.08*(0.8*w+0.6*r.NormFloat64())))
			x = append(x, math.Round(v*1000)/1000)
		}
	}
	return x, nil
}

// testdataNC is instance #34 for methods that cannot standardize a constant column: sdcMicro's
// testdata (all 15 numeric columns in MAGGA study) without its constant column sampling_weight,
// which is zero in Z and excluded from every metric anyway (metrics.md §0.2).
func testdataNC(uint64) (*datasets.Dataset, error) {
	d, err := datasets.Load("testdata")
	if err != nil {
		return nil, err
	}
	s := datasets.ScalingOf(d)
	var cols []string
	for l, name := range d.Names {
		if !s.Constant(l) {
			cols = append(cols, name)
		}
	}
	return d.Select(cols)
}

func init() {
	datasets.RegisterGenerator(datasets.Info{Name: "testdata_nc", Source: "original",
		Description: "testdata without its constant column (sampling_weight): instance #34 for the baselines, which cannot standardize it"},
		testdataNC)
}
