package datasets

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestReadMixed(t *testing.T) {
	in := "id,region,income,sex\n1,North,100,2\n2,South,NA,1\n3,NA,300,2\n4,North,400,\n5,\"East, coast\",500,1\n"
	d, err := ReadCSV(strings.NewReader(in), "m.csv", ReadOptions{Mixed: true, Categorical: []string{"sex"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Categorical(); !slices.Equal(got, []int{1, 3}) {
		t.Fatalf("categorical columns %v, want [1 3]", got)
	}
	if want := []string{"East, coast", "North", "South"}; !slices.Equal(d.Levels[1], want) {
		t.Errorf("region levels %q, want %q", d.Levels[1], want)
	}
	if want := []string{"1", "2"}; !slices.Equal(d.Levels[3], want) {
		t.Errorf("sex levels %q, want %q", d.Levels[3], want)
	}
	codes := []int{1, 2, -1, 1, 0}
	for i, c := range codes {
		if d.Code(i, 1) != c {
			t.Errorf("region code row %d = %d, want %d", i, d.Code(i, 1), c)
		}
	}
	if d.Code(3, 3) != -1 || d.Code(0, 3) != 1 {
		t.Errorf("sex codes %d %d, want -1 1", d.Code(3, 3), d.Code(0, 3))
	}
	if !math.IsNaN(d.At(1, 2)) || d.At(4, 2) != 500 {
		t.Errorf("income %v %v, want NaN 500", d.At(1, 2), d.At(4, 2))
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, d); err != nil {
		t.Fatal(err)
	}
	want := "id,region,income,sex\n1,North,100,2\n2,South,NA,1\n3,NA,300,2\n4,North,400,NA\n5,\"East, coast\",500,1\n"
	if buf.String() != want {
		t.Errorf("written\n%s\nwant\n%s", buf.String(), want)
	}
	if err := d.CheckFinite(); !errors.Is(err, ErrCategorical) || !strings.Contains(err.Error(), `"region"`) {
		t.Errorf("CheckFinite = %v, want ErrCategorical naming region", err)
	}
	sel, err := d.Select([]string{"sex", "income"})
	if err != nil || !sel.IsCategorical(0) || sel.IsCategorical(1) {
		t.Fatalf("Select kept the kinds wrong: %v %v", sel, err)
	}
}

func TestReadMixedErrors(t *testing.T) {
	for _, c := range []struct {
		name, in string
		opt      ReadOptions
		want     []string
	}{
		{"text without Mixed", "a,b\n1,x\n", ReadOptions{}, []string{`"b"`, "not a number"}},
		{"unknown categorical", "a,b\n1,2\n", ReadOptions{Categorical: []string{"z"}}, []string{`"z"`, "categorical"}},
		{"infinite number", "a,b\n1,Inf\n", ReadOptions{Mixed: true}, []string{`"b"`, "NaN or infinite"}},
	} {
		_, err := ReadCSV(strings.NewReader(c.in), "e.csv", c.opt)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", c.name, err, w)
			}
		}
	}
}

func TestCategorizeAndAlign(t *testing.T) {
	d := New("t", []string{"k", "x"}, 4, 2, []float64{10, 1, 2, 2, math.NaN(), 3, 10, 4})
	c, err := d.Categorize([]string{"k"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Levels[0], []string{"2", "10"}) || c.Code(0, 0) != 1 || c.Code(2, 0) != -1 || d.IsCategorical(0) {
		t.Fatalf("Categorize: levels %q codes %d %d (input changed: %v)", c.Levels[0], c.Code(0, 0), c.Code(2, 0), d.IsCategorical(0))
	}
	if _, err := d.Categorize([]string{"nope"}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown column: %v", err)
	}
	// A release read alone has levels {10, 7}; aligned to c, 10 keeps code 1 and 7 is appended.
	r := New("r", []string{"k", "x"}, 2, 2, []float64{10, 1, 7, 2})
	rc, _ := r.Categorize([]string{"k"})
	a, err := rc.AlignLevels(c)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Levels[0], []string{"2", "10", "7"}) || a.Code(0, 0) != 1 || a.Code(1, 0) != 2 {
		t.Errorf("AlignLevels: levels %q codes %d %d", a.Levels[0], a.Code(0, 0), a.Code(1, 0))
	}
}
