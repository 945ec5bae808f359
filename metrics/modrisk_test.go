package metrics

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// modRiskTable is the hand-checked table of TestModRiskHand: keys A and B, weight w; the
// last record has a missing A.
//
//	A B  w       cell counts: (1,1) 2, (1,2) 1, (2,1) 1, (2,2) 0
//	1 1 10       margins: A 3, 1; B 3, 1; N = 4
//	1 1 10       independence fit λ = N·(f_A/N)(f_B/N): 2.25, 0.75, 0.75, 0.25
//	1 2  5
//	2 1  4
//	– 2  6
func modRiskTable() *datasets.Dataset {
	nan := math.NaN()
	return &datasets.Dataset{Name: "modrisk", Names: []string{"A", "B", "w"}, N: 5, P: 3,
		Data: []float64{1, 1, 10, 1, 1, 10, 1, 2, 5, 2, 1, 4, nan, 2, 6}}
}

func modRiskInput(d *datasets.Dataset, o ModRiskOptions, keys []string, weight string) *Input {
	return &Input{Orig: d, Masked: d, Opt: Options{Keys: keys, Weight: weight, ModRisk: o}}
}

// TestModRiskHand checks both risks on modRiskTable against values computed by hand. The
// sample uniques are cells (1,2) with π = 1/5 and (2,1) with π = 1/4, three cells are
// non-empty. default and IPF fit the independence model: v = 0.8·0.75 = 0.6 and 0.75·0.75 =
// 0.5625. PML's response is round(w_k·5/35) = 3, 1, 1, 0 (the record with a missing key counts
// in the scale 5/35), margins 4, 1 and 4, 1 of N = 5, so λ = 0.8 for both uniques: v = 0.64 and
// 0.6. With bound 1 only the two unique cells count.
func TestModRiskHand(t *testing.T) {
	d := modRiskTable()
	g1 := func(v ...float64) (s float64) {
		for _, x := range v {
			s += math.Exp(-x)
		}
		return s
	}
	g2 := func(v ...float64) (s float64) {
		for _, x := range v {
			s += (1 - math.Exp(-x)) / x
		}
		return s
	}
	for _, c := range []struct {
		name     string
		o        ModRiskOptions
		gr1, gr2 float64
		er1, er2 float64
	}{
		{"default", ModRiskOptions{}, g1(0.6, 0.5625) / 3, g2(0.6, 0.5625) / 3, g1(0.6, 0.5625), g2(0.6, 0.5625)},
		{"default formula", ModRiskOptions{Method: "default", Formula: "~ A + B"}, g1(0.6, 0.5625) / 3, g2(0.6, 0.5625) / 3, g1(0.6, 0.5625), g2(0.6, 0.5625)},
		{"IPF", ModRiskOptions{Method: "IPF"}, g1(0.6, 0.5625) / 3, g2(0.6, 0.5625) / 3, g1(0.6, 0.5625), g2(0.6, 0.5625)},
		{"IPF bound 1", ModRiskOptions{Method: "IPF", Bound: 1}, g1(0.6, 0.5625) / 2, g2(0.6, 0.5625) / 2, g1(0.6, 0.5625), g2(0.6, 0.5625)},
		{"PML", ModRiskOptions{Method: "PML"}, g1(0.64, 0.6) / 3, g2(0.64, 0.6) / 3, g1(0.64, 0.6), g2(0.64, 0.6)},
		{"PML bound 1.5", ModRiskOptions{Method: "PML", Bound: 1.5}, g1(0.64, 0.6) / 2, g2(0.64, 0.6) / 2, g1(0.64, 0.6), g2(0.64, 0.6)},
	} {
		in := func() *Input { return modRiskInput(d, c.o, []string{"A", "B"}, "w") }
		checkVectors(t, in, []vec{
			{name: c.name + " gr1", f: ModRiskGR1, want: c.gr1, tol: 1e-12},
			{name: c.name + " gr2", f: ModRiskGR2, want: c.gr2, tol: 1e-12},
			{name: c.name + " gr1 er", f: ModRiskGR1, aux: "er", want: c.er1, tol: 1e-12},
			{name: c.name + " gr2 er", f: ModRiskGR2, aux: "er", want: c.er2, tol: 1e-12},
		})
	}
	// without a weight every π of a unique is 1: both risks are #uniques / #cells = 2/3
	in := func() *Input { return modRiskInput(d, ModRiskOptions{}, []string{"A", "B"}, "") }
	checkVectors(t, in, []vec{
		{name: "unweighted gr1", f: ModRiskGR1, want: 2.0 / 3, tol: 1e-15},
		{name: "unweighted gr2", f: ModRiskGR2, want: 2.0 / 3, tol: 1e-15},
	})
	if r := ModRiskGR1(in()); len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "every weight is 1") {
		t.Errorf("unweighted notes %q, want the weights-1 note", r.Notes)
	}
}

// TestModRiskSdcMicro: modrisk_gr1 and modrisk_gr2 equal sdcMicro 5.8.1's modRisk gr1 and gr2
// (metrics/testdata/modrisk_sdcmicro.R wrote them) on testdata with sampling_weight and on
// eusilcS with rb050, for every method, with bound 5, a formula of three keys and formulas
// with interactions, to 1e-9 (R's glm stops at a relative deviance change of 1e-8; the
// largest difference is 4e-12). The file's gr1 and gr2 sum the risk over the sample uniques;
// sdcMicro's own sum (gr1_sdcmicro) is NaN where a larger cell's exp(−(1 − π)λ) overflows
// (docs/sdcmicro.md §6), and equal to them elsewhere.
func TestModRiskSdcMicro(t *testing.T) {
	recs := readRecords(t, "testdata/modrisk.csv")
	col := map[string]int{}
	for j, h := range recs[0] {
		col[h] = j
	}
	sets := map[string]*datasets.Dataset{}
	weights := map[string]string{"testdata": "sampling_weight", "eusilcs": "rb050"}
	num := func(rec []string, name string) float64 {
		v, err := strconv.ParseFloat(rec[col[name]], 64)
		if err != nil {
			t.Fatalf("modrisk.csv %s = %q: %v", name, rec[col[name]], err)
		}
		return v
	}
	nanRows := 0
	for i, rec := range recs[1:] {
		name := rec[col["dataset"]]
		d := sets[name]
		if d == nil {
			var err error
			if d, err = datasets.Load(name); err != nil {
				t.Fatal(err)
			}
			sets[name] = d
		}
		keys := strings.Fields(rec[col["keys"]])
		o := ModRiskOptions{Method: rec[col["method"]], Bound: num(rec, "bound")}
		if math.IsInf(o.Bound, 1) {
			o.Bound = 0
		}
		if fm := rec[col["formula"]]; fm != "~ "+strings.Join(keys, " + ") {
			o.Formula = fm // else the default formula, the main effects of the keys
		}
		in := modRiskInput(d, o, keys, weights[name])
		for _, m := range []struct {
			f    func(*Input) Result
			want string
		}{{ModRiskGR1, "gr1"}, {ModRiskGR2, "gr2"}} {
			want := num(rec, m.want)
			r := m.f(in)
			if math.Abs(r.Value-want) > 1e-9 || len(r.Notes) > 0 {
				t.Errorf("row %d %s %s %s bound %v: %s = %.15g, want %.15g (notes %q)",
					i+2, name, o.Formula, o.Method, o.Bound, m.want, r.Value, want, r.Notes)
			}
			sdc := num(rec, m.want+"_sdcmicro")
			switch {
			case math.IsNaN(sdc):
				nanRows++
			case sdc != want:
				t.Errorf("row %d: sdcMicro's %s %.17g differs from the sum over the uniques %.17g", i+2, m.want, sdc, want)
			}
		}
	}
	if len(recs) < 30 || nanRows == 0 {
		t.Errorf("modrisk.csv has %d rows, %d with sdcMicro's NaN: want ≥ 29 rows and the overflow cases", len(recs)-1, nanRows)
	}
}

// TestModRiskOptions: SetOption reads the three options and refuses bad values naming the key;
// bad formulas, IPF with interactions and bad weights give NaN with a note.
func TestModRiskOptions(t *testing.T) {
	var o Options
	for _, kv := range [][2]string{{"modrisk_method", "weightedllm"}, {"modrisk_formula", "~ A*B"}, {"modrisk_bound", "2.5"}} {
		if err := o.SetOption(kv[0], kv[1]); err != nil {
			t.Fatalf("SetOption(%s, %s): %v", kv[0], kv[1], err)
		}
	}
	if want := (ModRiskOptions{Method: "weightedLLM", Formula: "~ A*B", Bound: 2.5}); o.ModRisk != want {
		t.Errorf("options %+v, want %+v", o.ModRisk, want)
	}
	if err := o.SetOption("modrisk_bound", "Inf"); err != nil || o.ModRisk.Bound != 0 {
		t.Errorf("modrisk_bound=Inf: %v, bound %v, want 0 (no bound)", err, o.ModRisk.Bound)
	}
	for _, kv := range [][2]string{{"modrisk_method", "glm"}, {"modrisk_formula", " ~ "}, {"modrisk_bound", "0"},
		{"modrisk_bound", "-1"}, {"modrisk_bound", "x"}} {
		err := o.SetOption(kv[0], kv[1])
		if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), kv[0]) {
			t.Errorf("SetOption(%s, %q) = %v, want ErrBadOption naming the key", kv[0], kv[1], err)
		}
	}
	d := modRiskTable()
	for _, c := range []struct {
		o      ModRiskOptions
		keys   []string
		weight string
		note   string
	}{
		{ModRiskOptions{Method: "IPF", Formula: "A*B"}, nil, "w", "main effects only"},
		{ModRiskOptions{Formula: "A + A:B"}, nil, "w", "lacks its lower-order term B"},
		{ModRiskOptions{Formula: "A + C"}, nil, "w", `column "C" not found`},
		{ModRiskOptions{Formula: "A + B - 1"}, nil, "w", "not supported"},
		{ModRiskOptions{Method: "GLM"}, nil, "w", "unknown method"},
		{ModRiskOptions{}, []string{"A", "C"}, "w", "key column C not found"},
		{ModRiskOptions{}, []string{"A", "B"}, "v", "weight column v not found"},
		{ModRiskOptions{}, []string{"A", "B"}, "zero", "weight 0 of record 1 (column w) is not a positive number"},
		{ModRiskOptions{Bound: 0.5}, []string{"A", "B"}, "w", "no key cell holds between 1 and 0.5 records"},
	} {
		in := modRiskInput(d, c.o, c.keys, c.weight)
		if c.weight == "zero" {
			dz := *d
			dz.Data = append([]float64(nil), d.Data...)
			dz.Data[2] = 0
			in = modRiskInput(&dz, c.o, c.keys, "w")
		}
		r := ModRiskGR1(in)
		if !math.IsNaN(r.Value) || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], c.note) {
			t.Errorf("%+v keys %v weight %s: %v, notes %q, want NaN and a note with %q", c.o, c.keys, c.weight, r.Value, r.Notes, c.note)
		}
	}
}

// TestModRiskLimits: a saturated model of two 70-level keys has 4,900 coefficients, more than
// the 4,000 of one dense IRLS matrix, and is refused with a note; its main effects fit.
func TestModRiskLimits(t *testing.T) {
	d := &datasets.Dataset{Name: "grid70", Names: []string{"a", "b", "w"}, N: 4900, P: 3, Data: make([]float64, 3*4900)}
	for i := 0; i < d.N; i++ {
		d.Data[3*i], d.Data[3*i+1], d.Data[3*i+2] = float64(i%70), float64(i/70), 2
	}
	r := ModRiskGR1(modRiskInput(d, ModRiskOptions{Formula: "a*b"}, nil, "w"))
	if !math.IsNaN(r.Value) || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "4900 coefficients, more than 4000") {
		t.Errorf("a*b: %v, notes %q; want NaN and the coefficient limit", r.Value, r.Notes)
	}
	// every cell is a sample unique with λ = 1 and π = 1/2: gr1 = exp(−1/2)
	r = ModRiskGR1(modRiskInput(d, ModRiskOptions{Formula: "a + b"}, nil, "w"))
	if math.Abs(r.Value-math.Exp(-0.5)) > 1e-12 || len(r.Notes) != 0 {
		t.Errorf("a + b: %v, notes %q; want exp(−1/2)", r.Value, r.Notes)
	}
}

// TestParseFormula checks the terms of R formulas: products expand to every interaction,
// duplicates and order do not matter, main effects come first.
func TestParseFormula(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		f    string
		want string
	}{
		{"~ a + b", "[[0] [1]]"},
		{"a+b+c", "[[0] [1] [2]]"},
		{"~ a*b", "[[0] [1] [0 1]]"},
		{"~ b + a + b:a + a", "[[1] [0] [0 1]]"},
		{"~ a*b*c", "[[0] [1] [2] [0 1] [0 2] [1 2] [0 1 2]]"},
		{"~ c + d + a*b + d:c", "[[2] [3] [0] [1] [0 1] [2 3]]"},
	} {
		terms, err := parseFormula(c.f, names)
		if err != nil {
			t.Errorf("%q: %v", c.f, err)
			continue
		}
		if got := fmtTerms(terms); got != c.want {
			t.Errorf("%q: terms %s, want %s", c.f, got, c.want)
		}
	}
	for _, f := range []string{"", "~", "a + ", "a:b", "a + b + a:b:c + a:b", "a*b:c", "log(a)", "a + e"} {
		if _, err := parseFormula(f, names); err == nil {
			t.Errorf("%q: no error", f)
		}
	}
}

func fmtTerms(terms [][]int) string {
	s := "["
	for i, tm := range terms {
		if i > 0 {
			s += " "
		}
		s += "["
		for j, v := range tm {
			if j > 0 {
				s += " "
			}
			s += strconv.Itoa(v)
		}
		s += "]"
	}
	return s + "]"
}

// randomKeys makes n records of three keys with 2..5 skewed levels, a few missing, and
// weights in [1, 50].
func randomKeys(rng *rand.Rand, n int) *datasets.Dataset {
	d := &datasets.Dataset{Name: "random", Names: []string{"k1", "k2", "k3", "w"}, N: n, P: 4, Data: make([]float64, 4*n)}
	for i := 0; i < n; i++ {
		for j, l := range []int{2, 4, 5} {
			v := float64(int(float64(l) * rng.Float64() * rng.Float64()))
			if rng.IntN(40) == 0 {
				v = math.NaN()
			}
			d.Data[i*4+j] = v
		}
		d.Data[i*4+3] = 1 + 49*rng.Float64()
	}
	return d
}

// TestModRiskProperties checks invariants on random tables: (1) IPF equals the default glm fit
// of the main effects (both are the independence model); (2) gr1 ≤ gr2 when every weight is
// ≥ 1 (exp(−v) ≤ (1 − exp(−v))/v for v ≥ 0); (3) relabelling a key's levels and reversing
// the record order leave both risks unchanged; (4) a bound at least the largest cell is no
// bound; (5) the glm fits satisfy the likelihood equations: for every term the fitted margins
// equal the response's (and, for weightedLLM, Σ w_k(y_k − λ_k) = 0).
func TestModRiskProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 2))
	keys := []string{"k1", "k2", "k3"}
	for rep := 0; rep < 20; rep++ {
		d := randomKeys(rng, 30+rng.IntN(200))
		val := func(d *datasets.Dataset, o ModRiskOptions) (float64, float64) {
			in := modRiskInput(d, o, keys, "w")
			return ModRiskGR1(in).Value, ModRiskGR2(in).Value
		}
		a1, a2 := val(d, ModRiskOptions{})
		b1, b2 := val(d, ModRiskOptions{Method: "IPF"})
		if math.Abs(a1-b1) > 1e-9 || math.Abs(a2-b2) > 1e-9 {
			t.Errorf("rep %d: default %v %v, IPF %v %v", rep, a1, a2, b1, b2)
		}
		// relabel k2 (v → 10 − 3v) and reverse the records
		r := &datasets.Dataset{Name: "r", Names: d.Names, N: d.N, P: d.P, Data: make([]float64, len(d.Data))}
		for i := 0; i < d.N; i++ {
			copy(r.Data[(d.N-1-i)*4:], d.Data[i*4:(i+1)*4])
			r.Data[(d.N-1-i)*4+1] = 10 - 3*d.Data[i*4+1]
		}
		for _, m := range []string{"default", "CE", "PML", "weightedLLM", "IPF"} {
			x1, x2 := val(d, ModRiskOptions{Method: m})
			y1, y2 := val(r, ModRiskOptions{Method: m})
			if math.IsNaN(x1) || math.Abs(x1-y1) > 1e-9 || math.Abs(x2-y2) > 1e-9 {
				t.Errorf("rep %d %s: %v %v, relabelled and reversed %v %v", rep, m, x1, x2, y1, y2)
			}
			if x1 > x2+1e-15 {
				t.Errorf("rep %d %s: gr1 %v > gr2 %v", rep, m, x1, x2)
			}
			z1, z2 := val(d, ModRiskOptions{Method: m, Bound: float64(d.N)})
			if z1 != x1 || z2 != x2 {
				t.Errorf("rep %d %s: bound n %v %v, no bound %v %v", rep, m, z1, z2, x1, x2)
			}
		}
		for _, c := range []struct{ method, formula string }{
			{"default", "k1 + k2 + k3"}, {"CE", "k1 + k2 + k3"}, {"PML", "k1 + k2 + k3"},
			{"weightedLLM", "k1 + k2 + k3"}, {"default", "k1*k2 + k3"}, {"CE", "k1 + k2*k3"},
			{"weightedLLM", "k1*k3 + k2"},
		} {
			checkLikelihoodEquations(t, d, c.method, c.formula)
		}
	}
}

// checkLikelihoodEquations fits the model and checks Xᵀ(y − λ) = 0 through the margins of
// every term (and the weight covariate of weightedLLM), relative to the response's total.
func checkLikelihoodEquations(t *testing.T, d *datasets.Dataset, method, formula string) {
	t.Helper()
	in := modRiskInput(d, ModRiskOptions{Method: method, Formula: formula}, nil, "w")
	terms, err := parseFormula(formula, d.Names)
	if err != nil {
		t.Fatal(err)
	}
	c, err := tabulate(in, terms, d.Col(3))
	if err != nil {
		t.Fatal(err)
	}
	lambda, ok, err := c.fitLogLinear(method, terms, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Errorf("%s %s: no convergence", method, formula)
	}
	y := c.f
	if method == "PML" {
		y = make([]float64, len(c.f))
		for k := range y {
			y[k] = math.RoundToEven(c.w[k] * c.nAll / c.wAll)
		}
	}
	var total float64
	for _, v := range y {
		total += v
	}
	pos := map[int]int{}
	for v, col := range c.vars {
		pos[col] = v
	}
	for _, tm := range terms {
		diff := map[int]float64{}
		for k := range y {
			idx, r := 0, 1
			for _, col := range tm {
				v := pos[col]
				idx += k / c.radix[v] % c.levels[v] * r
				r *= c.levels[v]
			}
			diff[idx] += y[k] - lambda[k]
		}
		for idx, dv := range diff {
			if math.Abs(dv) > 1e-7*total {
				t.Errorf("%s %s: term %v margin %d: observed − fitted = %v", method, formula, tm, idx, dv)
			}
		}
	}
	if method == "weightedLLM" {
		var s, sw float64
		for k := range y {
			s += c.w[k] * (y[k] - lambda[k])
			sw += c.w[k] * y[k]
		}
		if math.Abs(s) > 1e-7*sw {
			t.Errorf("%s %s: Σ w(y − λ) = %v", method, formula, s)
		}
	}
}

// BenchmarkModRiskEusilcs times one fit and both risks per method on eusilcS (keys db040,
// pb220a, hsize, age; 23,814 cells; docs/metrics.md §11).
func BenchmarkModRiskEusilcs(b *testing.B) {
	d, err := datasets.Load("eusilcs")
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range []string{"default", "CE", "PML", "weightedLLM", "IPF"} {
		b.Run(m, func(b *testing.B) {
			for b.Loop() {
				in := modRiskInput(d, ModRiskOptions{Method: m}, []string{"db040", "pb220a", "hsize", "age"}, "rb050")
				if r := ModRiskGR1(in); math.IsNaN(r.Value) {
					b.Fatal(r.Notes)
				}
			}
		})
	}
}
