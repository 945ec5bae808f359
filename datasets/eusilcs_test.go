package datasets

import (
	"math"
	"slices"
	"testing"
)

// TestEusilcs checks the embedded eusilcS of simPop: 11725 × 18, text columns read as
// categories, the 2203 children with pl030, pb220a and netIncome missing, and its first rows as
// the perturbative study's str(eusilcS) prints them.
func TestEusilcs(t *testing.T) {
	d, err := Load("eusilcs")
	if err != nil {
		t.Fatal(err)
	}
	if d.N != 11725 || d.P != 18 {
		t.Fatalf("eusilcs is %d×%d, want 11725×18", d.N, d.P)
	}
	db040 := d.ColIndex("db040")
	want := []string{"Burgenland", "Carinthia", "Lower Austria", "Salzburg", "Styria", "Tyrol", "Upper Austria", "Vienna", "Vorarlberg"}
	if !slices.Equal(d.Levels[db040], want) {
		t.Errorf("db040 levels %v, want %v", d.Levels[db040], want)
	}
	if got := d.Label(0, db040); got != "Salzburg" {
		t.Errorf("db040[0] = %s, want Salzburg", got)
	}
	for _, c := range []string{"rb090", "pb220a"} {
		if d.Levels[d.ColIndex(c)] == nil {
			t.Errorf("%s is not categorical", c)
		}
	}
	missing := map[string]int{}
	for _, c := range []string{"pl030", "pb220a", "netIncome", "py010n", "rb050"} {
		j := d.ColIndex(c)
		for i := 0; i < d.N; i++ {
			if math.IsNaN(d.At(i, j)) {
				missing[c]++
			}
		}
	}
	if missing["pl030"] != 2203 || missing["pb220a"] != 2203 || missing["netIncome"] != 2203 || missing["py010n"] != 2203 || missing["rb050"] != 0 {
		t.Errorf("missing values %v, want 2203 for pl030, pb220a, netIncome, py010n and none for rb050", missing)
	}
	age := d.ColIndex("age")
	for i, w := range []float64{72, 66, 56, 67, 70, 46, 37, 41, 35, 9} {
		if d.At(i, age) != w {
			t.Errorf("age[%d] = %v, want %v", i, d.At(i, age), w)
		}
	}
	if w := d.At(0, d.ColIndex("rb050")); w != 7.82292940720554 {
		t.Errorf("rb050[0] = %v", w)
	}
}
