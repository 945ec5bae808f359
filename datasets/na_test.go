package datasets

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestNAContains(t *testing.T) {
	cases := []struct {
		na   NA
		cell string
		want bool
	}{
		{NA{}, "NA", true},
		{NA{}, "", true},
		{NA{}, ".", false},
		{NA{}, "na", false},
		{ParseNA("NA,,."), ".", true},
		{ParseNA("NA,,."), "", true},
		{ParseNA("."), "NA", false},
		{ParseNA("."), "", false},
		{ParseNA(""), "", true},
		{ParseNA(" -99 , ?"), "?", true},
		{ParseNA(" -99 , ?"), "-99", true},
	}
	for _, c := range cases {
		if got := c.na.Contains(c.cell); got != c.want {
			t.Errorf("%q.Contains(%q) = %v, want %v", c.na.String(), c.cell, got, c.want)
		}
	}
	if got := (NA{}).Tokens(); !slices.Equal(got, []string{"NA", ""}) {
		t.Errorf("default tokens %q", got)
	}
	if !(NA{}).IsDefault() || ParseNA("NA,").IsDefault() {
		t.Error("IsDefault wrong")
	}
}

// TestReadNATokens reads one file with several token sets: a token is missing (NaN, or code
// −1), a former token becomes a label or makes a numeric column categorical.
func TestReadNATokens(t *testing.T) {
	in := "a,b,c\n1,x,.\n2,NA,3\n,y,4\n"
	d, err := ReadCSV(strings.NewReader(in), "t.csv", ReadOptions{Mixed: true, NA: ParseNA(".,")})
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(d.At(2, 0)) || !math.IsNaN(d.At(0, 2)) || d.At(1, 2) != 3 {
		t.Errorf("a/c = %v %v %v, want NaN NaN 3", d.At(2, 0), d.At(0, 2), d.At(1, 2))
	}
	if want := []string{"NA", "x", "y"}; !slices.Equal(d.Levels[1], want) {
		t.Errorf("b levels %q, want %q (NA is a label here)", d.Levels[1], want)
	}
	// default: "." is text, so c is categorical; NA in b is missing
	d, err = ReadCSV(strings.NewReader(in), "t.csv", ReadOptions{Mixed: true})
	if err != nil {
		t.Fatal(err)
	}
	if !d.IsCategorical(2) || d.Code(1, 1) != -1 {
		t.Errorf("default tokens: c categorical %v, b code %d", d.IsCategorical(2), d.Code(1, 1))
	}
	// strict: a token is NaN with AllowNonFinite, not a number without
	num := "a,b\n1,.\n?,2\n"
	d, err = ReadCSV(strings.NewReader(num), "n.csv", ReadOptions{AllowNonFinite: true, NA: ParseNA(".,?")})
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(d.At(0, 1)) || !math.IsNaN(d.At(1, 0)) || d.At(1, 1) != 2 {
		t.Errorf("strict with tokens: %v", d.Data)
	}
	_, err = ReadCSV(strings.NewReader(num), "n.csv", ReadOptions{NA: ParseNA(".,?")})
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrNotNumber) || pe.Row != 2 || pe.Column != "b" {
		t.Errorf("strict without AllowNonFinite: %v", err)
	}
}

// TestWriteCSVNA writes missing cells with the first token and reads them back with the set.
func TestWriteCSVNA(t *testing.T) {
	in := "a,b\n1,x\n.,y\n3,.\n"
	na := ParseNA(".,NA")
	d, err := ReadCSV(strings.NewReader(in), "t.csv", ReadOptions{Mixed: true, NA: na})
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if err := WriteCSVNA(&buf, d, na); err != nil {
		t.Fatal(err)
	}
	if buf.String() != in {
		t.Errorf("written %q, want %q", buf.String(), in)
	}
	num := New("n", []string{"a", "b"}, 2, 2, []float64{1, math.NaN(), math.NaN(), 4})
	buf.Reset()
	if err := WriteCSVNA(&buf, num, ParseNA(",NA")); err != nil {
		t.Fatal(err)
	}
	if want := "a,b\n1,\n,4\n"; buf.String() != want {
		t.Errorf("numeric: written %q, want %q", buf.String(), want)
	}
	buf.Reset()
	if err := WriteCSVNA(&buf, num, NA{}); err != nil {
		t.Fatal(err)
	}
	if want := "a,b\n1,NaN\nNaN,4\n"; buf.String() != want {
		t.Errorf("default: written %q, want %q", buf.String(), want)
	}
}

// TestHasMissing checks Dataset.HasMissing on tables with and without a NaN cell, at the
// first, a middle and the last position, and beside ±Inf (which is not missing).
func TestHasMissing(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		data []float64
		want bool
	}{
		{[]float64{}, false},
		{[]float64{1, 2, 3, 4}, false},
		{[]float64{inf, -inf, 0, 1}, false},
		{[]float64{nan, 2, 3, 4}, true},
		{[]float64{1, nan, 3, 4}, true},
		{[]float64{1, 2, 3, nan}, true},
	} {
		d := New("t", []string{"a", "b"}, len(tc.data)/2, 2, tc.data)
		if got := d.HasMissing(); got != tc.want {
			t.Errorf("HasMissing(%v) = %v, want %v", tc.data, got, tc.want)
		}
	}
}
