package categorical

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// kanonRef reads sdcmicro/kanon.csv: for each case, the sorted cells "row:column" (row
// 1-based) sdcMicro 5.8.1's kAnon set missing.
func kanonRef(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, r := range readCSV(t, "sdcmicro/kanon.csv") {
		if _, ok := out[r[0]]; !ok {
			out[r[0]] = []string{}
		}
		if r[1] != "0" {
			out[r[0]] = append(out[r[0]], r[1]+":"+r[2])
		}
	}
	for _, v := range out {
		slices.Sort(v)
	}
	return out
}

// suppressedCells returns the sorted cells "row:column" missing in rel and not in orig.
func suppressedCells(orig, rel *datasets.Dataset) []string {
	var out []string
	for i := 0; i < orig.N; i++ {
		for j := 0; j < orig.P; j++ {
			if math.IsNaN(rel.Data[i*orig.P+j]) && !math.IsNaN(orig.Data[i*orig.P+j]) {
				out = append(out, strconv.Itoa(i+1)+":"+orig.Names[j])
			}
		}
	}
	slices.Sort(out)
	return out
}

// eusilcsKeys returns eusilcS's columns names as categorical columns.
func eusilcsKeys(t testing.TB, names ...string) *datasets.Dataset {
	t.Helper()
	d, err := datasets.Load("eusilcs")
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.Categorize(names)
	if err != nil {
		t.Fatal(err)
	}
	k, err := c.Select(names)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

var eusilcsKanonKeys = []string{"db040", "hsize", "rb090", "age", "pb220a", "pl030"}

// TestKAnonEqualsSdcMicro compares kanon's suppressions cell for cell with sdcMicro 5.8.1's
// kAnon on testdata's seven keys and eusilcS's six (sdcmicro/kanon.R made the reference).
func TestKAnonEqualsSdcMicro(t *testing.T) {
	ref := kanonRef(t)
	cases := []struct {
		name   string
		data   func(testing.TB) *datasets.Dataset
		strata string
		raw    map[string]string
	}{
		{"td_k3_imp1to7", keysOf, "", map[string]string{"k": "3", "importance": "1,2,3,4,5,6,7"}},
		{"td_k3", keysOf, "", map[string]string{"k": "3"}},
		{"td_k2", keysOf, "", map[string]string{"k": "2"}},
		{"td_k5_imp7to1", keysOf, "", map[string]string{"k": "5", "importance": "7,6,5,4,3,2,1"}},
		{"td_k3_imp_ties", keysOf, "", map[string]string{"k": "3", "importance": "1,1,2,2,3,3,3"}},
		{"td_strata_urbrur_k3", keysOf, "urbrur", map[string]string{"k": "3"}},
		{"td_combs_5_4_3", keysOf, "", map[string]string{"k": "10", "combs": "5,4,3", "combs_k": "10,20,30"}},
		{"td_combs_3_k3", keysOf, "", map[string]string{"k": "3", "combs": "3"}},
		{"eu_k3", eusilcs, "", map[string]string{"k": "3"}},
		{"eu_k3_imp1to6", eusilcs, "", map[string]string{"k": "3", "importance": "1,2,3,4,5,6"}},
		{"eu_k3_alpha0.5", eusilcs, "", map[string]string{"k": "3", "alpha": "0.5"}},
		{"eu_k3_alpha0", eusilcs, "", map[string]string{"k": "3", "alpha": "0"}},
		{"eu_study_k3", eusilcsStudy, "", map[string]string{"k": "3"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, ok := ref[c.name]
			if !ok {
				t.Fatalf("case %s not in sdcmicro/kanon.csv", c.name)
			}
			d, rel, info := runKAnon(t, c.data(t), c.strata, c.raw)
			got := suppressedCells(d, rel)
			if !slices.Equal(got, want) {
				t.Errorf("%d suppressions, sdcMicro %d; first differences: %v", len(got), len(want), firstDiff(got, want, 5))
			}
			if fmt.Sprint(info["n_suppressed"]) != strconv.Itoa(len(want)) {
				t.Errorf("n_suppressed = %v, want %d", info["n_suppressed"], len(want))
			}
		})
	}
}

func eusilcs(t testing.TB) *datasets.Dataset { return eusilcsKeys(t, eusilcsKanonKeys...) }

func eusilcsStudy(t testing.TB) *datasets.Dataset {
	return eusilcsKeys(t, "db040", "pb220a", "hsize", "age")
}

// runKAnon protects d with kanon; with strata, the stratum column is a further column of
// testdata run through the harness's strata (methods.Select), as sdcMicro's strataVars.
func runKAnon(t *testing.T, d *datasets.Dataset, strata string, raw map[string]string) (orig, rel *datasets.Dataset, info map[string]any) {
	t.Helper()
	m := KAnon{}
	p := resolve(t, m, raw)
	if strata == "" {
		rel, err := m.Protect(context.Background(), d, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		return d, rel.Masked, rel.Info
	}
	full, err := datasets.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	c, err := full.Categorize(testdataKeys)
	if err != nil {
		t.Fatal(err)
	}
	keys := slices.DeleteFunc(slices.Clone(testdataKeys), func(s string) bool { return s == strata })
	pr, err := methods.Prepare(c, methods.Selection{Columns: keys, Strata: strata}, m.Info())
	if err != nil {
		t.Fatal(err)
	}
	if err := pr.Validate(m, p); err != nil {
		t.Fatal(err)
	}
	r, _, err := pr.Protect(context.Background(), m, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pr.Protected, r.Masked, r.Info
}

func firstDiff(got, want []string, n int) string {
	var only []string
	for _, g := range got {
		if _, ok := slices.BinarySearch(want, g); !ok && len(only) < n {
			only = append(only, "+"+g)
		}
	}
	for _, w := range want {
		if _, ok := slices.BinarySearch(got, w); !ok && len(only) < 2*n {
			only = append(only, "-"+w)
		}
	}
	return fmt.Sprint(only)
}
