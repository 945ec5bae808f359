package categorical

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/keyfreq"
	"github.com/sdcbench/sdcbench/methods"
)

// codesTable builds a kanonTable from rows of codes (0 missing) with levels levels per column.
func codesTable(rows [][]int32, levels int) *kanonTable {
	p := len(rows[0])
	t := &kanonTable{n: len(rows), p: p, width: make([]uint, p)}
	for j := range t.width {
		t.width[j] = codeWidth(levels)
	}
	for _, r := range rows {
		t.codes = append(t.codes, r...)
	}
	return t
}

// TestKAnonFreqCalc checks the frequencies of freqCalc's rules on a hand table: tuples
// (1,1), (1,NA) and (NA,NA), one record each. (1,1): itself and (1,NA) weighted alpha, not
// the all-missing key; (1,NA): itself, alpha·(NA,NA) and (1,1); (NA,NA): every record.
func TestKAnonFreqCalc(t *testing.T) {
	rows := [][]int32{{1, 1}, {1, 0}, {0, 0}}
	for _, c := range []struct {
		alpha float64
		want  []float64
	}{
		{1, []float64{2, 3, 3}},
		{0.5, []float64{1.5, 2.5, 3}},
		{0, []float64{1, 2, 3}},
	} {
		tb := codesTable(rows, 2)
		x, ok := newWCIndex(tb.width)
		if !ok {
			t.Fatal("widths do not pack")
		}
		for i := range rows {
			key, mask := x.pack(rows[i])
			x.add(key, mask, 1)
		}
		for i, r := range rows {
			key, mask := x.pack(r)
			if got := x.freq(key, mask, c.alpha, len(rows)); got != c.want[i] {
				t.Errorf("alpha %g: index fk of %v = %g, want %g", c.alpha, r, got, c.want[i])
			}
		}
		if got := scanFreq(tb.codes, tb.n, tb.p, c.alpha); !slices.Equal(got, c.want) {
			t.Errorf("alpha %g: scan fk = %v, want %v", c.alpha, got, c.want)
		}
	}
}

// TestKAnonHand checks one suppression by hand, k = 2: records a (1,1,1), b (1,1,2),
// c (2,2,2), d (2,2,2). a and b are unique; a's nearest record (distance 1) is b, differing
// in column 3, so a loses column 3 and becomes (1,1,NA), compatible with b; b, the next
// problem of the same pass, has nearest records a (now at distance 0 — not counted) and c, d
// at distance 2 (columns 1 and 2): with columns ordered 2, 1, 3 (importance 2, 3, 1) it
// loses column 2. The second pass finds every fk ≥ 2.
func TestKAnonHand(t *testing.T) {
	rows := [][]int32{{1, 1, 1}, {1, 1, 2}, {2, 2, 2}, {2, 2, 2}}
	want := []int32{1, 1, 0, 1, 0, 2, 2, 2, 2, 2, 2, 2}
	for _, scan := range []bool{false, true} {
		tb := codesTable(rows, 2)
		tb.scan = scan
		passes, err := suppSubset(context.Background(), tb, []int{0, 1, 2}, []int{1, 0, 2}, 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(tb.codes, want) || passes != 1 {
			t.Errorf("scan=%v: codes %v after %d passes, want %v after 1", scan, tb.codes, passes, want)
		}
	}
}

// TestKAnonIndexEqualsScan checks the packed index against the scans (cpp_calcSuppInds and a
// pairwise freqCalc) on random tables with missing values, ties and every alpha kind.
func TestKAnonIndexEqualsScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	for trial := 0; trial < 300; trial++ {
		p := 1 + rng.IntN(5)
		levels := 2 + rng.IntN(4)
		n := 10 + rng.IntN(150)
		k := 2 + rng.IntN(4)
		if k > n {
			k = n
		}
		alpha := []float64{1, 0.5, 0}[rng.IntN(3)]
		rows := make([][]int32, n)
		for i := range rows {
			rows[i] = make([]int32, p)
			for j := range rows[i] {
				if rng.Float64() < 0.1 {
					continue
				}
				rows[i][j] = int32(1 + rng.IntN(levels))
			}
		}
		order := rng.Perm(p)
		cols := make([]int, p)
		for j := range cols {
			cols[j] = j
		}
		a, b := codesTable(rows, levels), codesTable(rows, levels)
		b.scan = true
		pa, ea := suppSubset(context.Background(), a, cols, order, k, alpha)
		pb, eb := suppSubset(context.Background(), b, cols, order, k, alpha)
		if fmt.Sprint(ea) != fmt.Sprint(eb) {
			t.Fatalf("trial %d: errors %v and %v", trial, ea, eb)
		}
		if !slices.Equal(a.codes, b.codes) || pa != pb {
			t.Fatalf("trial %d (n %d, p %d, k %d, alpha %g): index and scan differ", trial, n, p, k, alpha)
		}
	}
}

// TestKAnonProperties checks the release on random categorical tables: k-anonymous with
// missing values as wildcards (keyfreq, as kanon_viol_k counts), only present key values
// changed and only to missing, and the counts in Info equal to the cells suppressed.
func TestKAnonProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 2))
	for trial := 0; trial < 60; trial++ {
		p := 2 + rng.IntN(5)
		n := 50 + rng.IntN(400)
		names := make([]string, p)
		levels := make([][]string, p)
		for j := range names {
			names[j] = fmt.Sprintf("k%d", j)
			for l := 0; l < 2+rng.IntN(8); l++ {
				levels[j] = append(levels[j], fmt.Sprint(l))
			}
		}
		data := make([]float64, n*p)
		for i := range data {
			if rng.Float64() < 0.05 {
				data[i] = math.NaN()
				continue
			}
			// skewed: P(level < l) = log(l+1)/log(L)
			data[i] = float64(int(math.Pow(float64(len(levels[i%p])), rng.Float64())) - 1)
		}
		d := datasets.New("random", names, n, p, data)
		d.Levels = levels
		k := 2 + rng.IntN(4)
		raw := map[string]string{"k": fmt.Sprint(k)}
		if rng.IntN(3) == 0 {
			raw["combs"] = fmt.Sprint(1 + rng.IntN(p))
		}
		m := KAnon{}
		pr := resolve(t, m, raw)
		rel, err := m.Protect(context.Background(), d, pr, nil)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		out := rel.Masked
		cols := make([]int, p)
		for j := range cols {
			cols[j] = j
		}
		if _, ok := raw["combs"]; !ok {
			f, _ := keyfreq.Count(out.Data, n, p, cols, nil)
			for i, v := range f {
				if v < float64(k) {
					t.Fatalf("trial %d: record %d has f = %g < k = %d", trial, i, v, k)
				}
			}
		}
		per := make([]int, p)
		total := 0
		for i, v := range out.Data {
			o := d.Data[i]
			switch {
			case math.IsNaN(o) && !math.IsNaN(v):
				t.Fatalf("trial %d: cell %d was missing, released %g", trial, i, v)
			case !math.IsNaN(o) && !math.IsNaN(v) && o != v:
				t.Fatalf("trial %d: cell %d changed from %g to %g", trial, i, o, v)
			case !math.IsNaN(o) && math.IsNaN(v):
				per[i%p]++
				total++
			}
		}
		if rel.Info["n_suppressed"] != total {
			t.Errorf("trial %d: n_suppressed = %v, want %d", trial, rel.Info["n_suppressed"], total)
		}
		for j, c := range per {
			if rel.Info["n_suppressed_"+names[j]] != c {
				t.Errorf("trial %d: n_suppressed_%s = %v, want %d", trial, names[j], rel.Info["n_suppressed_"+names[j]], c)
			}
		}
	}
}

// TestKAnonCombsAnonymous checks that with combs every combination of that many keys is
// k-anonymous (missing values as wildcards) on testdata's keys.
func TestKAnonCombsAnonymous(t *testing.T) {
	d := keysOf(t)
	m := KAnon{}
	rel, err := m.Protect(context.Background(), d, resolve(t, m, map[string]string{"k": "5", "combs": "3"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	combinations(d.P, 3, func(c []int) bool {
		f, _ := keyfreq.Count(rel.Masked.Data, d.N, d.P, c, nil)
		for i, v := range f {
			if v < 5 {
				t.Errorf("columns %v: record %d has f = %g < 5", c, i, v)
				return false
			}
		}
		return true
	})
}

// TestKAnonValidate checks the parameter errors.
func TestKAnonValidate(t *testing.T) {
	d := keysOf(t)
	m := KAnon{}
	for _, c := range []map[string]string{
		{"importance": "1,2,3"},
		{"importance": "1,2,3,4,5,6,8"},
		{"importance": "a,2,3,4,5,6,7"},
		{"combs": "8"},
		{"combs": "0"},
		{"combs": "3,2", "combs_k": "3"},
		{"combs_k": "3"},
		{"k": "5000"},
	} {
		err := m.Validate(d, resolve(t, m, c))
		if !errors.Is(err, methods.ErrBadParam) {
			t.Errorf("%v: err = %v, want ErrBadParam", c, err)
		}
	}
	if err := m.Validate(d, resolve(t, m, map[string]string{"importance": "7,6,5,4,3,2,1", "combs": "3,2", "combs_k": "3,4"})); err != nil {
		t.Errorf("valid parameters refused: %v", err)
	}
}
