package releasereport

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/all"
	"github.com/sdcbench/sdcbench/metrics"
)

// run protects csv as `sdcbench protect` does (without its CSV output) and builds the report.
// drop names columns left out of the release.
func run(t *testing.T, csv, method string, raw map[string]string, sel methods.Selection, opt metrics.Options, drop []string, external bool) *Report {
	t.Helper()
	d, err := datasets.ReadCSV(strings.NewReader(csv), "in.csv", datasets.ReadOptions{Mixed: true})
	if err != nil {
		t.Fatal(err)
	}
	kept := d
	if len(drop) > 0 {
		kept, err = d.Select(slices.DeleteFunc(slices.Clone(d.Names), func(c string) bool { return slices.Contains(drop, c) }))
		if err != nil {
			t.Fatal(err)
		}
	}
	m, err := methods.Lookup(method)
	if err != nil {
		t.Fatal(err)
	}
	info := m.Info()
	p, err := info.Resolve(raw)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := methods.Prepare(kept, sel, info)
	if err != nil {
		t.Fatal(err)
	}
	rel, full, err := pr.Protect(context.Background(), m, p, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(context.Background(), Config{
		Input: File{Path: "in.csv", SHA256: "abc", HashOf: "test"}, Output: File{Path: "out.csv"},
		Command: "sdcbench protect …", Data: d, Dropped: drop, Strata: sel.Strata,
		Info: info, Params: p, Seed: 7, Prepared: pr, Release: rel, Full: full, Opt: opt,
		External: external, Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// six records on two keys: combinations (x,1)×2, (x,2), (y,1)×2, (z,1); the sample uniques
// (x,2) and (z,1) are records 3 and 6.
const sixRecords = `a,b,c,d
x,1,10,u
x,1,20,u
x,2,30,u
y,1,40,u
y,1,50,u
z,1,60,u
`

// suppressed runs local suppression of a on sixRecords: the uniques (risk 1 > 0.5) lose a.
func suppressed(t *testing.T, external bool) *Report {
	return run(t, sixRecords, "local_supp", map[string]string{"key_var": "a", "threshold": "0.5"},
		methods.Selection{Columns: []string{"a", "b"}, Keep: []string{"c"}, Keys: []string{"a", "b"}},
		metrics.Options{Keys: []string{"a", "b"}}, []string{"d"}, external)
}

func measure(t *testing.T, ms []Measure, id string) Measure {
	t.Helper()
	for _, m := range ms {
		if m.ID == id {
			return m
		}
	}
	t.Fatalf("no measure %s in %+v", id, ms)
	return Measure{}
}

// TestBuildLocalSuppHandChecked checks the report of a local suppression worked by hand.
// After suppression a = (x, x, NA, y, y, NA); a missing key matches every category, so the
// sample frequencies are fk = 3, 3, 1, 3, 3, 5: record 3 (NA, 2) is the one left unique.
func TestBuildLocalSuppHandChecked(t *testing.T) {
	r := suppressed(t, false)
	if r.Variant != "internal" || r.Created != "2026-01-02T03:04:05Z" || r.Seed != 7 || r.Title != "Release report: local_supp on in.csv" {
		t.Errorf("header: %q %q %d %q", r.Variant, r.Created, r.Seed, r.Title)
	}
	if r.Input.Records != 6 || r.Input.Columns != 4 || r.Output.Records != 6 || r.Output.Columns != 3 {
		t.Errorf("sizes: input %d×%d, output %d×%d; want 6×4 and 6×3", r.Input.Records, r.Input.Columns, r.Output.Records, r.Output.Columns)
	}
	wantCols := []struct {
		name, kind string
		roles      []string
		cats, miss int
	}{
		{"a", "categorical", []string{"protected", "key"}, 3, 2},
		{"b", "categorical", []string{"protected", "key"}, 2, 0},
		{"c", "numeric", []string{"passed through"}, 0, 0},
		{"d", "categorical", []string{"dropped"}, 1, 0},
	}
	for i, w := range wantCols {
		c := r.Columns[i]
		if c.Name != w.name || c.Kind != w.kind || !slices.Equal(c.Roles, w.roles) || c.Categories != w.cats || c.MissingBefore != 0 || c.MissingAfter != w.miss {
			t.Errorf("column %d = %+v, want %+v", i, c, w)
		}
	}
	for _, w := range []struct {
		id            string
		before, after float64
	}{
		{"kanon_viol_2", 2, 1},
		{"kanon_viol_3", 6, 1},
		{"kanon_viol_5", 6, 5},
		{"global_risk_er", 1/2. + 1/2. + 1 + 1/2. + 1/2. + 1, 4/3. + 1 + 1/5.},
	} {
		m := measure(t, r.Risk.Measures, w.id)
		if math.Abs(float64(m.Before)-w.before) > 1e-12 || math.Abs(float64(m.After)-w.after) > 1e-12 {
			t.Errorf("%s = %v → %v, want %v → %v", w.id, m.Before, m.After, w.before, w.after)
		}
	}
	wantHigh := []Combination{
		{Values: []string{"NA", "2"}, Fk: 1, FkW: 1, Risk: 1},
		{Values: []string{"x", "1"}, Fk: 3, FkW: 3, Risk: Num(1. / 3)},
		{Values: []string{"y", "1"}, Fk: 3, FkW: 3, Risk: Num(1. / 3)},
		{Values: []string{"NA", "1"}, Fk: 5, FkW: 5, Risk: 0.2},
	}
	if len(r.Risk.Highest) != len(wantHigh) {
		t.Fatalf("highest = %+v, want %+v", r.Risk.Highest, wantHigh)
	}
	for i, w := range wantHigh {
		h := r.Risk.Highest[i]
		if !slices.Equal(h.Values, w.Values) || h.Fk != w.Fk || h.FkW != w.FkW || math.Abs(float64(h.Risk-w.Risk)) > 1e-15 {
			t.Errorf("highest %d = %+v, want %+v", i, h, w)
		}
	}
	wantChanges := []Change{
		{Column: "a", Changed: 2, Suppressed: 2, ChangedPct: Num(100 * 2 / 6.), SuppressedPct: Num(100 * 2 / 6.)},
		{Column: "b", ChangedPct: 0, SuppressedPct: 0},
	}
	if !slices.Equal(r.Changes, wantChanges) {
		t.Errorf("changes = %+v, want %+v", r.Changes, wantChanges)
	}
	wantFreq := []Frequency{
		{Column: "a", Categories: []CategoryCount{{"x", 3, 2}, {"y", 2, 2}, {"z", 1, 0}, {"NA", 0, 2}}},
		{Column: "b", Categories: []CategoryCount{{"1", 5, 5}, {"2", 1, 1}}},
	}
	for i, w := range wantFreq {
		if r.Frequencies[i].Column != w.Column || !slices.Equal(r.Frequencies[i].Categories, w.Categories) {
			t.Errorf("frequencies %d = %+v, want %+v", i, r.Frequencies[i], w)
		}
	}
	if s := measure(t, r.Loss, "n_suppressed"); s.After != 2 || !math.IsNaN(float64(s.Before)) {
		t.Errorf("n_suppressed = %v → %v, want NaN → 2", s.Before, s.After)
	}
	if r.Linkage != nil || r.PRAM != nil {
		t.Errorf("no numeric protected column and no PRAM, yet linkage %+v, PRAM %+v", r.Linkage, r.PRAM)
	}
	wantParams := []Param{{"key_var", "a", ""}, {"threshold", "0.5", "0.15"}}
	if !slices.Equal(r.Method.Params, wantParams) {
		t.Errorf("params = %+v, want %+v", r.Method.Params, wantParams)
	}
}

// TestExternalLeavesOutPerCombinationCounts: the external report is the internal one without
// the highest-risk combinations and the key frequencies, and with every other number equal.
func TestExternalLeavesOutPerCombinationCounts(t *testing.T) {
	in, ex := suppressed(t, false), suppressed(t, true)
	if ex.Variant != "external" || ex.Risk.Highest != nil || ex.Frequencies != nil {
		t.Fatalf("external report has variant %q, highest %+v, frequencies %+v", ex.Variant, ex.Risk.Highest, ex.Frequencies)
	}
	var bi, be bytes.Buffer
	if err := ex.WriteJSON(&be); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"highest"`, `"frequencies"`, `"fk"`, `"categories": [`} {
		if strings.Contains(be.String(), k) {
			t.Errorf("external JSON holds %s", k)
		}
	}
	in.Variant, in.Risk.Highest, in.Frequencies = "external", nil, nil
	if err := in.WriteJSON(&bi); err != nil {
		t.Fatal(err)
	}
	if bi.String() != be.String() {
		t.Errorf("external report differs from the internal one beyond the per-combination counts:\n%s\nvs\n%s", be.String(), bi.String())
	}
	var page bytes.Buffer
	if err := ex.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`id="highest"`, `id="frequencies"`, "/risk/highest/", "/frequencies/"} {
		if strings.Contains(page.String(), k) {
			t.Errorf("external page holds %s", k)
		}
	}
}

// TestBuildNumericHandChecked: MDAV with k = 2 on x = 1, 2, 10, 11 releases 1.5, 1.5, 10.5,
// 10.5. Each original is as near its own release as its partner's, so distance-based linkage
// finds its own record half the time (ties count fractionally): dbrl = 50 %; before, the
// original links to itself: 100 %. Every |x − x'| is 0.5, so il1s = 0.5/(√2·SD) with
// SD = √(82/3).
func TestBuildNumericHandChecked(t *testing.T) {
	r := run(t, "x,g\n1,a\n2,a\n10,b\n11,b\n", "mdav", map[string]string{"k": "2"},
		methods.Selection{Columns: []string{"x"}, Keep: []string{"g"}}, metrics.Options{}, nil, false)
	if r.Risk != nil {
		t.Errorf("no keys, yet risk %+v", r.Risk)
	}
	if m := measure(t, r.Linkage, "dbrl"); m.Before != 100 || m.After != 50 {
		t.Errorf("dbrl = %v → %v, want 100 → 50", m.Before, m.After)
	}
	want := 0.5 / (math.Sqrt2 * math.Sqrt(82./3))
	if m := measure(t, r.Loss, "il1s"); math.Abs(float64(m.After)-want) > 1e-15 || !math.IsNaN(float64(m.Before)) {
		t.Errorf("il1s = %v → %v, want NaN → %v", m.Before, m.After, want)
	}
	if !slices.Equal(r.Changes, []Change{{Column: "x", Changed: 4, ChangedPct: 100}}) {
		t.Errorf("changes = %+v, want x: 4 changed, none suppressed", r.Changes)
	}
}

// TestBuildPRAMMatrices: the report prints the matrix PRAM drew from, row by row, with the
// column's categories.
func TestBuildPRAMMatrices(t *testing.T) {
	r := run(t, sixRecords, "pram", map[string]string{"matrix": "1,0;0.25,0.75"},
		methods.Selection{Columns: []string{"b"}, Keep: []string{"a", "c", "d"}, Keys: []string{"a", "b"}},
		metrics.Options{Keys: []string{"a", "b"}}, nil, false)
	if r.PRAM == nil || len(r.PRAM.Matrices) != 1 {
		t.Fatalf("PRAM = %+v, want one matrix", r.PRAM)
	}
	m := r.PRAM.Matrices[0]
	if m.Column != "b" || m.Stratum != "" || !slices.Equal(m.Levels, []string{"1", "2"}) ||
		!slices.Equal(m.P[0], []Num{1, 0}) || !slices.Equal(m.P[1], []Num{0.25, 0.75}) {
		t.Errorf("matrix = %+v, want b with levels 1, 2 and rows (1, 0), (0.25, 0.75)", m)
	}
	// Σ n_i (1 − P_ii): five 1s never change, one 2 changes with probability 0.25.
	if r.PRAM.ExpectedChanged != 0.25 || r.PRAM.InvarianceErr != 0 {
		t.Errorf("expected changes %v, invariance error %v; want 0.25 and 0", r.PRAM.ExpectedChanged, r.PRAM.InvarianceErr)
	}
}

func TestNumJSON(t *testing.T) {
	tenth := 0.1 // a variable: the constant 0.1 + 0.2 is exactly 0.3
	for _, c := range []struct {
		v    Num
		want string
	}{{0, "0"}, {1.5, "1.5"}, {Num(tenth + 0.2), "0.30000000000000004"}, {1e21, "1e+21"}, {1e-7, "1e-7"}, {-2.5e-300, "-2.5e-300"}, {1e20, "100000000000000000000"}, {Num(math.NaN()), "null"}, {Num(math.Inf(-1)), "null"}} {
		b, err := json.Marshal(c.v)
		if err != nil || string(b) != c.want {
			t.Errorf("Marshal(%v) = %s, %v; want %s", float64(c.v), b, err, c.want)
		}
		var back Num
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !(back == c.v || math.IsNaN(float64(back)) && (math.IsNaN(float64(c.v)) || math.IsInf(float64(c.v), 0))) {
			t.Errorf("round trip of %v gave %v", float64(c.v), float64(back))
		}
	}
}

// TestExactIsEncodingJSON: a number is written as encoding/json writes a float64, over random
// magnitudes from 1e-320 to 1e300.
func TestExactIsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		f := (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(620)-320))
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := exact(f); got != string(want) {
			t.Fatalf("exact(%v) = %s, encoding/json %s", f, got, want)
		}
	}
}

// constantColumn adds noise to a table with a constant column: the measures relative to the
// column's SD are undefined.
func constantColumn(t *testing.T) *Report {
	return run(t, "x,y,g\n1,5,a\n1,3,a\n1,8,b\n1,1,b\n", "noise_additive", nil,
		methods.Selection{Columns: []string{"x", "y"}, Keep: []string{"g"}}, metrics.Options{}, nil, false)
}

// TestBuildNotesSayWhyNA: a measure undefined on the data is NaN (null, NA) with a note naming
// it.
func TestBuildNotesSayWhyNA(t *testing.T) {
	r := constantColumn(t)
	for _, id := range []string{"mean_dev_max", "var_ratio_max"} {
		if m := measure(t, r.Loss, id); !math.IsNaN(float64(m.After)) {
			t.Errorf("%s = %v on a constant column, want NaN", id, m.After)
		}
		if !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, id+" after: NA: ") }) {
			t.Errorf("no note on %s: %q", id, r.Notes)
		}
	}
	if m := measure(t, r.Loss, "il1s"); math.IsNaN(float64(m.After)) {
		t.Errorf("il1s is NaN; it skips the constant column")
	}
}
