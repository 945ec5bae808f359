package categorical

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// eusilcsNAKeys returns eusilcS's keys db040, rb090, pl030, pb220a and hsize as categories
// (pl030 and pb220a are missing for the 2,203 children).
func eusilcsNAKeys(t *testing.T) *datasets.Dataset {
	t.Helper()
	e, err := datasets.Load("eusilcs")
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"db040", "rb090", "pl030", "pb220a", "hsize"}
	c, err := e.Categorize(keys)
	if err != nil {
		t.Fatal(err)
	}
	k, err := c.Select(keys)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestLocalSuppEusilcsNA checks local_supp on keys with missing values against sdcMicro 5.8.1
// (sdcmicro/eusilcs_na.R): the same 50 records lose hsize at threshold 0.5, a missing key
// counting as every category in the frequencies; the missing keys stay missing.
func TestLocalSuppEusilcsNA(t *testing.T) {
	d := eusilcsNAKeys(t)
	var want []int
	for _, r := range readCSV(t, "sdcmicro/localsupp_eusilcs.csv") {
		i, _ := strconv.Atoi(r[0])
		want = append(want, i-1)
	}
	rel, err := LocalSupp{}.Protect(context.Background(), d, resolve(t, LocalSupp{}, map[string]string{"key_var": "hsize", "threshold": "0.5"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	j := d.ColIndex("hsize")
	var rows []int
	for i := 0; i < d.N; i++ {
		for c := 0; c < d.P; c++ {
			if math.IsNaN(d.At(i, c)) && !math.IsNaN(rel.Masked.At(i, c)) {
				t.Fatalf("row %d, %s: missing key filled", i+1, d.Names[c])
			}
		}
		if !math.IsNaN(d.At(i, j)) && math.IsNaN(rel.Masked.At(i, j)) {
			rows = append(rows, i)
		}
	}
	if !equalInts(rows, want) || rel.Info["n_suppressed"] != len(want) {
		t.Errorf("suppressed %d records (Info %v), sdcMicro %d; equal: %v", len(rows), rel.Info["n_suppressed"], len(want), equalInts(rows, want))
	}
}

// TestPramEusilcsNA: pram on pl030 keeps the 2,203 missing values missing and draws only for
// the others (sdcMicro pram's rule).
func TestPramEusilcsNA(t *testing.T) {
	d, err := eusilcsNAKeys(t).Select([]string{"pl030"})
	if err != nil {
		t.Fatal(err)
	}
	rel, err := PRAM{}.Protect(context.Background(), d, resolve(t, PRAM{}, map[string]string{"pd": "0.5"}), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	miss, changed := 0, 0
	for i := 0; i < d.N; i++ {
		x, y := d.At(i, 0), rel.Masked.At(i, 0)
		if math.IsNaN(x) != math.IsNaN(y) {
			t.Fatalf("row %d: %v in, %v out", i+1, x, y)
		}
		if math.IsNaN(x) {
			miss++
		} else if x != y {
			changed++
		}
	}
	if miss != 2203 || changed == 0 {
		t.Errorf("%d missing (want 2,203), %d changed (want some)", miss, changed)
	}
}
