package methods_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/all"
)

// mixed returns 30 records: id, a text region (3 strata of 10), two numbers, a text key.
func mixed(t *testing.T) *datasets.Dataset {
	t.Helper()
	var b strings.Builder
	b.WriteString("id,region,x,y,sex\n")
	rng := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 30; i++ {
		region := []string{"b", "a", "c"}[i%3]
		b.WriteString(strings.Join([]string{
			itoa(i), region, itoa(rng.IntN(1000)), itoa(rng.IntN(1000)), []string{"m", "f"}[rng.IntN(2)]}, ","))
		b.WriteByte('\n')
	}
	d, err := datasets.ReadCSV(strings.NewReader(b.String()), "mixed.csv", datasets.ReadOptions{Mixed: true})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestStrataPartition: mdav within strata: groups never cross strata, kept columns are
// unchanged and in place, labels are canonical, and the result is deterministic.
func TestStrataPartition(t *testing.T) {
	d := mixed(t)
	m, _ := methods.Lookup("mdav")
	p, _ := m.Info().Resolve(map[string]string{"k": "3"})
	pr, err := methods.Prepare(d, methods.Selection{Columns: []string{"x", "y"}, Keep: []string{"id", "sex"}, Strata: "region"}, m.Info())
	if err != nil {
		t.Fatal(err)
	}
	if got := pr.Strata(); !slices.Equal(got, []string{"region=a", "region=b", "region=c"}) {
		t.Fatalf("strata %v", got)
	}
	if err := pr.Validate(m, p); err != nil {
		t.Fatal(err)
	}
	rel, full, err := pr.Protect(context.Background(), m, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(full.Names, d.Names) {
		t.Fatalf("released columns %v, want %v", full.Names, d.Names)
	}
	stratumOf := map[int32]string{}
	next := int32(0)
	for i, l := range rel.Labels {
		if l > next {
			t.Fatalf("labels not canonical at row %d: %d after max %d", i, l, next-1)
		}
		if l == next {
			next++
		}
		s := full.Label(i, 1)
		if old, ok := stratumOf[l]; ok && old != s {
			t.Fatalf("group %d spans strata %s and %s", l, old, s)
		}
		stratumOf[l] = s
		for _, j := range []int{0, 1, 4} {
			if full.Label(i, j) != d.Label(i, j) {
				t.Fatalf("row %d column %s changed: %q → %q", i, d.Names[j], d.Label(i, j), full.Label(i, j))
			}
		}
	}
	_, full2, _ := pr.Protect(context.Background(), m, p, nil)
	if !slices.Equal(full.Data, full2.Data) {
		t.Error("not deterministic")
	}
	// the partition's diagnostics: its groups over all strata (k is not reported by mdav)
	if dp := rel.Diag.Partition; dp == nil || dp.Groups != int(next) || dp.K != 0 {
		t.Errorf("Diag.Partition %+v, want %d groups", dp, next)
	}
	// a post-processor keeps every record in its row: the release keeps its labels (the inner
	// partition, merged over the strata), its diagnostics and its partition promise
	rm, _ := methods.Lookup("restrict(mdav)")
	if rr, _, err := pr.Protect(context.Background(), rm, p, nil); err != nil || !slices.Equal(rr.Labels, rel.Labels) ||
		rr.Diag.Partition == nil || rr.Diag.Partition.Groups != int(next) ||
		methods.CheckPartition(rm.Info(), p, rr.Masked.N, rr.Labels) != nil {
		t.Errorf("restrict(mdav): %v, labels %v, Diag.Partition %+v", err, rr.Labels, rr.Diag.Partition)
	}
	// k = 4 needs 2k = 8 records per stratum: 10 is enough; k = 6 is not.
	p6, _ := m.Info().Resolve(map[string]string{"k": "6"})
	if err := pr.Validate(m, p6); err == nil || !strings.Contains(err.Error(), "stratum region=a (10 records)") {
		t.Errorf("k = 6: %v", err)
	}
}

func TestPrepareErrors(t *testing.T) {
	d := mixed(t)
	noise, _ := methods.Lookup("noise_additive")
	pram, _ := methods.Lookup("pram")
	for _, c := range []struct {
		name string
		m    methods.Method
		sel  methods.Selection
		want string
	}{
		{"unknown column", noise, methods.Selection{Columns: []string{"z"}}, `columns: no column "z"`},
		{"unknown keep", noise, methods.Selection{Columns: []string{"x"}, Keep: []string{"idd"}}, `keep: no column "idd"`},
		{"unknown strata", noise, methods.Selection{Columns: []string{"x"}, Strata: "zone"}, `strata: no column "zone"`},
		{"unknown key", noise, methods.Selection{Columns: []string{"x"}, Keep: []string{"sex"}, Keys: []string{"age"}}, `keys: no column "age"`},
		{"key not released", noise, methods.Selection{Columns: []string{"x"}, Keys: []string{"sex"}}, `key "sex" is neither protected nor kept`},
		{"protected and kept", noise, methods.Selection{Columns: []string{"x"}, Keep: []string{"x"}}, `"x" is also in columns`},
		{"text for a numeric method", noise, methods.Selection{Columns: []string{"x", "sex"}}, `column "sex" is categorical`},
		{"strata protected", pram, methods.Selection{Columns: []string{"sex", "region"}, Strata: "region"}, `"region" is also protected`},
	} {
		_, err := methods.Prepare(d, c.sel, c.m.Info())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// A categorical method makes its numeric columns categories; the original stays numeric.
	pr, err := methods.Prepare(d, methods.Selection{Columns: []string{"x"}, Keep: []string{"id"}}, pram.Info())
	if err != nil {
		t.Fatal(err)
	}
	if !pr.Protected.IsCategorical(0) || d.IsCategorical(2) {
		t.Error("pram's numeric column was not made categorical (or the input changed)")
	}
}

// TestPrepareShares checks that a selection of every column shares the table's values (no
// copy per method, issue 25) and that protecting the release afterwards leaves them unchanged.
func TestPrepareShares(t *testing.T) {
	d, err := datasets.Load("ruspini")
	if err != nil {
		t.Fatal(err)
	}
	before := slices.Clone(d.Data)
	mdav, err := methods.Lookup("mdav")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name          string
		sel           methods.Selection
		full, protect bool // Full, Protected share d's values
	}{
		{"every column protected", methods.Selection{}, true, true},
		{"one column kept", methods.Selection{Keep: []string{d.Names[0]}}, true, false},
		{"one column protected", methods.Selection{Columns: []string{d.Names[1]}}, false, false},
	} {
		pr, err := methods.Prepare(d, c.sel, mdav.Info())
		if err != nil {
			t.Fatal(err)
		}
		if got := &pr.Full.Data[0] == &d.Data[0]; got != c.full {
			t.Errorf("%s: Full shares the values: %v, want %v", c.name, got, c.full)
		}
		if got := &pr.Protected.Data[0] == &d.Data[0]; got != c.protect {
			t.Errorf("%s: Protected shares the values: %v, want %v", c.name, got, c.protect)
		}
		p, err := mdav.Info().Resolve(map[string]string{"k": "3"})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := pr.Protect(context.Background(), mdav, p, rand.New(rand.NewPCG(1, 2))); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(d.Data, before) {
			t.Fatalf("%s: protecting changed the input table", c.name)
		}
	}
}
