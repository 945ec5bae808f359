package datasets_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

func scaleBy(d *datasets.Dataset, k int) *datasets.Dataset {
	out := make([]float64, len(d.Data))
	for i, v := range d.Data {
		out[i] = math.Ldexp(v, k)
	}
	return datasets.New(d.Name, d.Names, d.N, d.P, out)
}

// TestScalingExtreme checks that the column means and SDs of the census × 2^±1000 are the
// census ones × 2^±1000 exactly and that the z-scores are identical, although the plain
// formulas overflow (1e306² > 1.8e308) or underflow (1e−296² < 4.9e−324).
func TestScalingExtreme(t *testing.T) {
	d, err := datasets.Load("census")
	if err != nil {
		t.Fatal(err)
	}
	base := datasets.ScalingOf(d)
	zBase := base.Apply(nil, d)
	for _, k := range []int{1000, -1000} {
		s := datasets.ScalingOf(scaleBy(d, k))
		for j := range s.SD {
			if s.Mean[j] != math.Ldexp(base.Mean[j], k) || s.SD[j] != math.Ldexp(base.SD[j], k) {
				t.Errorf("×2^%d column %d: mean %v sd %v, want %v %v", k, j, s.Mean[j], s.SD[j],
					math.Ldexp(base.Mean[j], k), math.Ldexp(base.SD[j], k))
			}
		}
		if z := s.Apply(nil, scaleBy(d, k)); !slices.Equal(z, zBase) {
			t.Errorf("×2^%d: z-scores differ from the census's", k)
		}
	}
	if base.Exp != nil {
		t.Error("ordinary data was rescaled")
	}
}

// TestScalingEdges: a column spanning −1.7e308 … 1.7e308 (its SD exceeds the float64 range)
// still has finite z-scores; a column of subnormal values (~1e−310) is not constant; a truly
// constant column is.
func TestScalingEdges(t *testing.T) {
	d := datasets.New("edges", []string{"wide", "tiny", "flat"}, 4, 3, []float64{
		-1.7e308, 1e-310, 5,
		1.7e308, 2e-310, 5,
		-1.7e308, 3e-310, 5,
		1.7e308, 4e-310, 5,
	})
	s := datasets.ScalingOf(d)
	if !math.IsInf(s.SD[0], 1) || !s.Rescaled(0) {
		t.Errorf("wide column: SD %v (want +Inf, rescaled)", s.SD[0])
	}
	if s.Constant(1) || s.SD[1] == 0 {
		t.Error("subnormal column called constant")
	}
	if !s.Constant(2) {
		t.Error("constant column not constant")
	}
	z := s.Apply(nil, d)
	for i, v := range z {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("z[%d] = %v", i, v)
		}
	}
	// z of the subnormal column: 1..4 standardized is (−1.5, −0.5, 0.5, 1.5)/1.29…
	want := (1 - 2.5) / math.Sqrt(5.0/3)
	if math.Abs(z[1]-want) > 1e-12 {
		t.Errorf("subnormal z = %v, want %v", z[1], want)
	}
	if _, _, err := datasets.ZScore(datasets.New("t", []string{"tiny"}, 3, 1, []float64{1e-310, 2e-310, 3e-310})); err != nil {
		t.Errorf("ZScore of subnormal values: %v", err)
	}
}

// TestParseErrorEcho is issue 14 item 3: a 2 MB field is echoed in at most 64 bytes (plus
// its length), and a number beyond the float64 range is called that, not "not a number".
func TestParseErrorEcho(t *testing.T) {
	big := strings.Repeat("9", 2_000_000)
	_, err := datasets.ReadCSV(strings.NewReader("a\n"+big+"\n"), "big.csv", datasets.ReadOptions{})
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "(2000000 bytes)") {
		t.Fatalf("error of %d bytes: %.300v", len(err.Error()), err)
	}
	if !errors.Is(err, datasets.ErrOutOfRange) {
		t.Errorf("a 2-million-digit number: %v, want ErrOutOfRange", err)
	}
	_, err = datasets.ReadCSV(strings.NewReader("a\n1e400\n"), "r.csv", datasets.ReadOptions{})
	if !errors.Is(err, datasets.ErrOutOfRange) {
		t.Errorf("1e400: %v, want ErrOutOfRange", err)
	}
	_, err = datasets.ReadCSV(strings.NewReader("a\n"+strings.Repeat("x", 1000)+"\n"), "x.csv", datasets.ReadOptions{})
	if !errors.Is(err, datasets.ErrNotNumber) || len(err.Error()) > 200 {
		t.Errorf("1000 x: %v", err)
	}
	hdr := strings.Repeat("h", 1_000_000) + ",b\n1,2\n"
	_, err = datasets.ReadCSV(strings.NewReader(hdr), "h.csv", datasets.ReadOptions{Columns: []string{strings.Repeat("c", 500)}})
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("unknown column beside a 1 MB header name: a %d-byte error", len(err.Error()))
	}
	if got := datasets.Clip(strings.Repeat("é", 40)); !strings.HasSuffix(got, "…(80 bytes)") || !strings.HasPrefix(got, strings.Repeat("é", 32)) {
		t.Errorf("Clip cuts inside a rune: %q", got)
	}
}
