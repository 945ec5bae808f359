package datasets

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
)

func TestReadCSVBadInput(t *testing.T) {
	for _, c := range []struct {
		name, in string
		opt      ReadOptions
		want     error
		mention  []string // substrings the message must contain
	}{
		{"empty file", "", ReadOptions{}, ErrEmpty, []string{"f.csv"}},
		{"header only", "a,b\n", ReadOptions{}, ErrNoRows, []string{"f.csv"}},
		{"ragged row", "a,b\n1,2\n3\n", ReadOptions{}, ErrRagged, []string{"f.csv:3", "1 fields", "2"}},
		{"text in numeric column", "a,b\n1,2\n3,abc\n", ReadOptions{}, ErrNotNumber, []string{"f.csv:3", `"b"`, `"abc"`}},
		{"NaN", "a,b\n1,NaN\n", ReadOptions{}, ErrNonFinite, []string{"f.csv:2", `"b"`, `"NaN"`}},
		{"Inf", "a,b\n1,2\n+Inf,2\n", ReadOptions{}, ErrNonFinite, []string{"f.csv:3", `"a"`}},
		{"NA", "a,b\nNA,2\n", ReadOptions{}, ErrNotNumber, []string{`"NA"`}},
		{"empty cell", "a,b\n,2\n", ReadOptions{}, ErrNotNumber, []string{"f.csv:2", `"a"`}},
		{"duplicate column names", "a,b,a\n1,2,3\n", ReadOptions{}, ErrDuplicateName, []string{`"a"`}},
		{"empty column name", "a,,c\n1,2,3\n", ReadOptions{}, ErrEmptyName, []string{"column 2"}},
		{"unknown selected column", "a,b\n1,2\n", ReadOptions{Columns: []string{"z"}}, nil, []string{`"z"`, "no such column"}},
	} {
		_, err := ReadCSV(strings.NewReader(c.in), "f.csv", c.opt)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: error %v does not wrap %v", c.name, err, c.want)
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %T is not a *ParseError", c.name, err)
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, m)
			}
		}
	}
}

func TestReadCSVSelectAndQuoted(t *testing.T) {
	in := "\"id\",\"name\",\"x\"\n1,\"a, b\",2.5\n2,\"c\",-3e2\n"
	d, err := ReadCSV(strings.NewReader(in), "q.csv", ReadOptions{Columns: []string{"x", "id"}})
	if err != nil {
		t.Fatal(err)
	}
	if d.N != 2 || d.P != 2 || d.Names[0] != "x" || d.At(0, 0) != 2.5 || d.At(1, 0) != -300 || d.At(1, 1) != 2 {
		t.Fatalf("got %+v", d)
	}
	// Without selection the text column is an error naming it.
	if _, err := ReadCSV(strings.NewReader(in), "q.csv", ReadOptions{}); !errors.Is(err, ErrNotNumber) ||
		!strings.Contains(err.Error(), `"name"`) {
		t.Fatalf("want not-a-number in column name, got %v", err)
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	vals := []float64{0.1, 1.0 / 3, -2.5e-300, 12345678901234567, math.MaxFloat64, math.Copysign(0, -1), 100.0 / 6}
	d := New("r", []string{"a"}, len(vals), 1, vals)
	var buf bytes.Buffer
	if err := WriteCSV(&buf, d); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCSV(&buf, "r", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		if math.Float64bits(back.Data[i]) != math.Float64bits(v) {
			t.Errorf("row %d: %v read back as %v", i, v, back.Data[i])
		}
	}
}

func TestZScore(t *testing.T) {
	// docs/microaggregation.md TV-1: ages of MAGGA study Table 2.1.
	d := New("tv1", []string{"age"}, 9, 1, []float64{24, 31, 32, 57, 49, 43, 39, 20, 51})
	z, s, err := ZScore(d)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s.Mean[0]-38.4444444444) > 1e-9 || math.Abs(s.SD[0]-12.6502086061) > 1e-9 {
		t.Errorf("mean, sd = %v, %v", s.Mean[0], s.SD[0])
	}
	if math.Abs(z[0]-(-1.141834)) > 1e-6 {
		t.Errorf("z[0] = %v, want -1.141834", z[0])
	}
	c := New("c", []string{"a", "const"}, 3, 2, []float64{1, 7, 2, 7, 3, 7})
	if _, _, err := ZScore(c); !errors.Is(err, ErrConstantColumn) || !strings.Contains(err.Error(), `"const"`) {
		t.Errorf("constant column: got %v", err)
	}
}

func TestEmbedded(t *testing.T) {
	for _, c := range []struct {
		name string
		n, p int
	}{
		{"census", 1080, 13}, {"tarragona", 834, 13}, {"eia", 4092, 11}, {"eia10", 4092, 10},
		{"testdata", 4580, 15}, {"ruspini", 75, 2}, {"iris", 150, 4}, {"wine", 178, 13},
	} {
		d, err := Load(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if d.N != c.n || d.P != c.p || d.Name != c.name {
			t.Errorf("%s: %d×%d, want %d×%d", c.name, d.N, d.P, c.n, c.p)
		}
	}
	if d, _ := Load("eia"); d.Names[0] != "UTILITYID" || d.Names[10] != "TOTSALES" {
		t.Errorf("eia columns %v", d.Names)
	}
	if _, err := Load("nope"); err == nil || !strings.Contains(err.Error(), "census") {
		t.Errorf("unknown dataset: %v", err)
	}
}

// FuzzReadCSV checks that the reader never panics and that whatever it accepts is a
// consistent, finite table that survives a write/read round trip.
func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "a\n1\n2\n", "\"x\",\"y\"\n1e3,-2\n", "a,b\n1\n", "", "a,a\n1,2\n",
		"a,b\nNaN,1\n", "\ufeffa\n1\n", "a,b\r\n1,2\r\n"} {
		f.Add(s)
	}
	f.Add("id,region,x\n1,North,2.5\n2,NA,\n3,\"S, W\",1\n")
	f.Fuzz(func(t *testing.T, s string) {
		fuzzMixed(t, s)
		d, err := ReadCSV(strings.NewReader(s), "fuzz", ReadOptions{})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			return
		}
		if d.N < 1 || len(d.Data) != d.N*d.P || len(d.Names) != d.P {
			t.Fatalf("inconsistent table %d×%d with %d values", d.N, d.P, len(d.Data))
		}
		if err := d.CheckFinite(); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteCSV(&buf, d); err != nil {
			t.Fatal(err)
		}
		back, err := ReadCSV(&buf, "fuzz", ReadOptions{})
		if err != nil {
			t.Fatalf("round trip: %v", err)
		}
		for i := range d.Data {
			if math.Float64bits(back.Data[i]+0) != math.Float64bits(d.Data[i]+0) {
				t.Fatalf("round trip changed value %d: %v → %v", i, d.Data[i], back.Data[i])
			}
		}
	})
}

// fuzzMixed checks the mixed-type reader on s: no panic, a consistent table (codes inside
// the levels, missing only as NaN) and a write/read round trip that keeps every label.
func fuzzMixed(t *testing.T, s string) {
	d, err := ReadCSV(strings.NewReader(s), "fuzz", ReadOptions{Mixed: true})
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("mixed: error %T is not a *ParseError: %v", err, err)
		}
		return
	}
	if d.N < 1 || len(d.Data) != d.N*d.P || len(d.Names) != d.P {
		t.Fatalf("mixed: inconsistent table %d×%d with %d values", d.N, d.P, len(d.Data))
	}
	for _, j := range d.Categorical() {
		for i := 0; i < d.N; i++ {
			if c := d.Code(i, j); c < -1 || c >= len(d.Levels[j]) {
				t.Fatalf("mixed: code %d outside %d levels", c, len(d.Levels[j]))
			}
		}
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, d); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCSV(&buf, "fuzz", ReadOptions{Mixed: true})
	if err != nil {
		t.Fatalf("mixed round trip: %v\n%q", err, buf.String())
	}
	for i := 0; i < d.N; i++ {
		for j := 0; j < d.P; j++ {
			if a, b := d.Label(i, j), back.Label(i, j); a != b || d.IsCategorical(j) != back.IsCategorical(j) {
				t.Fatalf("mixed round trip changed cell (%d,%d): %q → %q", i, j, a, b)
			}
		}
	}
}
