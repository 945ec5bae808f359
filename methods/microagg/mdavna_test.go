package microagg_test

import (
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// eusilcsIncome are eusilcS's nine income columns (2,203 children have all nine missing).
var eusilcsIncome = []string{"netIncome", "py010n", "py050n", "py090n", "py100n", "py110n", "py120n", "py130n", "py140n"}

// naTestdata returns testdata's expend, income and savings with missing values added as
// testdata/mdav_na.R's na_testdata does: row i (1-based) loses expend when 7 | i, income when
// 11 | i, savings when 13 | i, and all three when 50 | i.
func naTestdata(t testing.TB) *datasets.Dataset {
	t.Helper()
	d, err := load(t, "testdata").Select([]string{"expend", "income", "savings"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < d.N; i++ {
		r := i + 1
		for j, m := range []int{7, 11, 13} {
			if r%m == 0 || r%50 == 0 {
				d.Data[i*d.P+j] = math.NaN()
			}
		}
	}
	return d
}

// readRef reads a gzipped reference release written by testdata/mdav_na.R.
func readRef(t testing.TB, file string) *datasets.Dataset {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	d, err := datasets.ReadCSV(zr, file, datasets.ReadOptions{AllowNonFinite: true})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// sameRelease fails unless got equals want cell by cell (bit-identical, NaN where NaN).
func sameRelease(t *testing.T, got *datasets.Dataset, want *datasets.Dataset, col0 int) {
	t.Helper()
	bad := 0
	for i := 0; i < got.N; i++ {
		for j := 0; j < got.P; j++ {
			g, w := got.At(i, j), want.At(i, col0+j)
			if g == w || (math.IsNaN(g) && math.IsNaN(w)) {
				continue
			}
			if bad++; bad <= 5 {
				t.Errorf("row %d, %s: %.17g, sdcMicro %.17g", i+1, got.Names[j], g, w)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d cells differ from sdcMicro's", bad, got.N*got.P)
	}
}

// TestMaMdavMissing checks ma_mdav and mdav on tables with missing values against sdcMicro
// 5.8.1's microaggregation(method = "mdav"): every cell equal (missing where sdcMicro's is),
// on eusilcS's nine income columns (k = 3) and on testdata with missing values added (k = 3, 5).
func TestMaMdavMissing(t *testing.T) {
	e, err := load(t, "eusilcs").Select(eusilcsIncome)
	if err != nil {
		t.Fatal(err)
	}
	td := naTestdata(t)
	cases := []struct {
		d    *datasets.Dataset
		k    int
		ref  string
		col0 int
	}{
		{e, 3, "testdata/mdav_na_eusilcs.csv.gz", 0},
		{td, 3, "testdata/mdav_na_testdata.csv.gz", 0},
		{td, 5, "testdata/mdav_na_testdata.csv.gz", 3},
	}
	for _, c := range cases {
		want := readRef(t, c.ref)
		for _, name := range []string{"ma_mdav", "mdav"} {
			t.Run(fmt.Sprintf("%s/%s/k=%d", c.d.Name, name, c.k), func(t *testing.T) {
				rel, _ := protect(t, name, c.d, map[string]string{"k": fmt.Sprint(c.k)}, nil)
				sameRelease(t, rel.Masked, want, c.col0)
				assertGroups(t, rel.Labels, c.d.N, c.k)
				if err := methods.CheckHoles(name, c.d, rel); err != nil {
					t.Error(err)
				}
			})
		}
	}
}

// TestMissingRefused checks the one-line refusal of a microaggregation method that does not
// accept missing values: method, column, count and the way forward.
func TestMissingRefused(t *testing.T) {
	d := naTestdata(t)
	for _, name := range []string{"cbfs", "gsms", "vmdav", "ma_pca_sdc", "pca", "single"} {
		m, err := methods.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := m.Info().Resolve(nil)
		_, err = m.Protect(t.Context(), d, p, nil)
		want := name + `: column "expend" has 732 missing values; drop or impute them, or use ma_mdav`
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v, want prefix %q", name, err, want)
		}
	}
}
