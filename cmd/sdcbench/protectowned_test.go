package main

import (
	"bytes"
	"context"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// ownedCSV returns a CSV table of n rows: numbers a and b (some missing, some 0), codes k
// (0 to 4, some missing), a text key t with a label that needs quotes, a weight w and a
// stratum s of three values.
func ownedCSV(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 16))
	var b strings.Builder
	b.WriteString("a,k,b,t,w,s\n")
	num := func() string {
		switch r.IntN(12) {
		case 0:
			return "NA"
		case 1:
			return "0"
		}
		return ftoa(r.NormFloat64() * 50)
	}
	for range n {
		k := strconv.Itoa(r.IntN(5))
		if r.IntN(12) == 0 {
			k = "NA"
		}
		t := []string{"x", "y", `"z, w"`, "NA"}[r.IntN(4)]
		b.WriteString(strings.Join([]string{num(), k, num(), t, ftoa(1 + 100*r.Float64()), strconv.Itoa(r.IntN(3))}, ",") + "\n")
	}
	return []byte(b.String())
}

// ownedCases are protections of some columns (and one of all) that protect writes over the
// table read with --quiet.
var ownedCases = []struct {
	method string
	params []string
	args   []string
	over   bool // released over the table read
}{
	{"topbot_code", []string{"value=20"}, []string{"--columns", "a"}, true},
	{"topbot_code", []string{"value=20"}, []string{"--columns", "a,b", "--drop", "w"}, true},
	{"global_recode", []string{"breaks=-100,-10,0,10,100"}, []string{"--columns", "b", "--keys", "k"}, true},
	{"global_recode", []string{"breaks=-100,0,100"}, []string{"--columns", "a,b", "--strata", "s"}, true},
	{"pram", nil, []string{"--columns", "k,t"}, true},
	{"pram", nil, []string{"--columns", "k,t", "--strata", "s"}, true},
	{"local_supp", []string{"key_var=k", "threshold=0.2"}, []string{"--columns", "k,t"}, true},
	{"kanon", []string{"k=3"}, []string{"--columns", "k,t", "--keep", "a,b,w,s"}, true},
	{"noise_additive", []string{"noise_pct=5"}, []string{"--columns", "a,b", "--keys", "k,t"}, true},
	{"mdav", []string{"k=3"}, []string{"--columns", "a,b", "--keys", "t"}, true},
	{"topbot_code", []string{"value=20"}, []string{"--keep", "k,t,w,s"}, true},
	{"pram", nil, nil, false}, // every column protected: the release is the released table
}

// TestProtectInputOwned checks protectInput with and without inPlace for methods protecting
// some of the columns (topbot_code, global_recode, pram, local_supp, kanon, mdav,
// noise_additive with keys), with kept, dropped and key columns and strata: the same
// released table bit for bit (names, values, levels) and the same CSV bytes, the release
// written over the table read with inPlace, and the table read left as it was without.
func TestProtectInputOwned(t *testing.T) {
	ctx := context.Background()
	src := ownedCSV(400)
	for _, c := range ownedCases {
		m, err := methods.Lookup(c.method)
		if err != nil {
			t.Fatal(err)
		}
		info := m.Info()
		raw := map[string]string{}
		for _, kv := range c.params {
			name, val, _ := strings.Cut(kv, "=")
			raw[name] = val
		}
		p, err := info.Resolve(raw)
		if err != nil {
			t.Fatal(err)
		}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		sf := addSelectionFlags(fs)
		drop := fs.String("drop", "", "")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		what := c.method + " " + strings.Join(c.args, " ")
		load := func() (*datasets.Dataset, *inputFile, error) {
			d, err := datasets.ReadCSV(bytes.NewReader(src), "t.csv", datasets.ReadOptions{Mixed: true})
			return d, &inputFile{path: "t.csv"}, err
		}
		want, err := protectInput(ctx, load, m, info, p, sf, csvList(*drop), 5, false)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got, err := protectInput(ctx, load, m, info, p, sf, csvList(*drop), 5, true)
		if err != nil {
			t.Fatalf("%s, in place: %v", what, err)
		}
		g, w := got.full, want.full
		if !slices.Equal(g.Names, w.Names) || g.N != w.N || g.P != w.P || !slicesEqualBits(g.Data, w.Data) {
			t.Fatalf("%s: the released table differs from the usual way's", what)
		}
		for j := range w.P {
			if g.IsCategorical(j) != w.IsCategorical(j) || w.IsCategorical(j) && !slices.Equal(g.Levels[j], w.Levels[j]) {
				t.Fatalf("%s: column %s's levels differ", what, w.Names[j])
			}
		}
		var gb, wb bytes.Buffer
		if err := datasets.WriteCSV(&gb, g); err != nil {
			t.Fatal(err)
		}
		if err := datasets.WriteCSV(&wb, w); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gb.Bytes(), wb.Bytes()) || wb.Len() < 1000 {
			t.Fatalf("%s: the release's bytes differ", what)
		}
		if over := *drop == "" && &g.Data[0] == &got.read.Data[0]; over != c.over && *drop == "" {
			t.Fatalf("%s: released over the table read: %v, want %v", what, over, c.over)
		}
		d, _, _ := load()
		if !slicesEqualBits(want.read.Data, d.Data) || !slices.Equal(want.read.Categorical(), d.Categorical()) {
			t.Fatalf("%s: the usual way changed the table read", what)
		}
	}
}

// TestProtectQuietSamePartialRelease runs protect with --quiet (the release written over the
// table read) and without (the summary needs the original) for methods protecting some
// columns: the same release bytes.
func TestProtectQuietSamePartialRelease(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.csv"), ownedCSV(300), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, c := range ownedCases {
		args := []string{"protect", "--method", c.method, "--in", "t.csv", "--seed", "4"}
		for _, kv := range c.params {
			args = append(args, "--param", kv)
		}
		args = append(args, c.args...)
		q, s := "q"+strconv.Itoa(i)+".csv", "s"+strconv.Itoa(i)+".csv"
		if _, e, code := sdcbench(t, dir, append(args, "--out", q, "--quiet")...); code != 0 {
			t.Fatalf("%v --quiet: %s", args, e)
		}
		if _, e, code := sdcbench(t, dir, append(args, "--out", s)...); code != 0 {
			t.Fatalf("%v: %s", args, e)
		}
		qb, err1 := os.ReadFile(filepath.Join(dir, q))
		sb, err2 := os.ReadFile(filepath.Join(dir, s))
		if err1 != nil || err2 != nil || !bytes.Equal(qb, sb) || len(qb) < 1000 {
			t.Fatalf("%v: the --quiet release differs (%v, %v)", args, err1, err2)
		}
	}
}
