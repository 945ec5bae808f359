package main

import (
	"bytes"
	"context"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

// inPlaceCSV returns a CSV table of n rows of three numeric columns with some missing cells
// and zeros, or, with huge, values near the float64 limit in the first (a noise release
// overflows), and a column s of three values (strata).
func inPlaceCSV(n int, huge bool) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 3))
	var b strings.Builder
	b.WriteString("a,b,c,s\n")
	for i := range n {
		for j := range 3 {
			if j > 0 {
				b.WriteByte(',')
			}
			switch v := r.NormFloat64() * 100; {
			case huge && j == 0:
				b.WriteString(ftoa(math.Copysign(1.7e308, v)))
			case r.IntN(15) == 0:
				b.WriteString("NA")
			case r.IntN(15) == 0:
				b.WriteString("0")
			default:
				b.WriteString(ftoa(v + float64(i)))
			}
		}
		b.WriteString("," + ftoa(float64(i%3)) + "\n")
	}
	return []byte(b.String())
}

// TestProtectInputInPlace checks protectInput with and without inPlace on the same input: the
// same released table bit for bit, written over the table read only with inPlace and a
// method that can (noise_additive, noise_additive0, noise_correlated2; not mdav), the input
// read once; and, when the release overflows, the usual way's error after a second reading of
// the input — of the file, or of the kept bytes of a pipe.
func TestProtectInputInPlace(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		method, param string
		args          []string
		inPlace       bool // expected to be written in place
	}{
		{"noise_additive", "noise_pct=5", nil, true},
		{"noise_additive0", "noise_pct=150", nil, true},
		{"noise_correlated2", "delta=0.3", nil, true},
		{"noise_additive", "noise_pct=5", []string{"--keep", "b"}, true},
		{"noise_additive", "noise_pct=5", []string{"--strata", "s"}, false},
		{"mdav", "k=3", nil, false},
	} {
		for _, huge := range []bool{false, true} {
			if huge && !c.inPlace {
				continue
			}
			src := inPlaceCSV(300, huge)
			m, err := methods.Lookup(c.method)
			if err != nil {
				t.Fatal(err)
			}
			info := m.Info()
			name, val, _ := strings.Cut(c.param, "=")
			p, err := info.Resolve(map[string]string{name: val})
			if err != nil {
				t.Fatal(err)
			}
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			sf := addSelectionFlags(fs)
			if err := fs.Parse(c.args); err != nil {
				t.Fatal(err)
			}
			type outcome struct {
				run   *protection
				err   error
				loads int
			}
			protect := func(inPlace, pipe bool) outcome {
				var o outcome
				load := func() (*datasets.Dataset, *inputFile, error) {
					o.loads++
					in := &inputFile{path: "t.csv"}
					if pipe {
						in.kept = bytes.NewBuffer(src)
					}
					d, err := datasets.ReadCSV(bytes.NewReader(src), "t.csv", datasets.ReadOptions{Mixed: true})
					return d, in, err
				}
				o.run, o.err = protectInput(ctx, load, m, info, p, sf, nil, 7, inPlace)
				return o
			}
			what := c.method + " " + strings.Join(c.args, " ")
			want := protect(false, false)
			for _, pipe := range []bool{false, true} {
				got := protect(true, pipe)
				if (got.err == nil) != (want.err == nil) || got.err != nil && got.err.Error() != want.err.Error() {
					t.Fatalf("%s, huge %v: error %v, the usual way's %v", what, huge, got.err, want.err)
				}
				if huge {
					if got.err == nil || got.loads != 2 && !pipe || got.loads != 1 && pipe {
						t.Fatalf("%s: an overflowing release: error %v after %d loads", what, got.err, got.loads)
					}
					continue
				}
				if want.err != nil {
					t.Fatal(want.err)
				}
				if got.loads != 1 {
					t.Fatalf("%s: %d loads", what, got.loads)
				}
				g, w := got.run.full, want.run.full
				if g.N != w.N || g.P != w.P || !slicesEqualBits(g.Data, w.Data) || strings.Join(g.Names, ",") != strings.Join(w.Names, ",") {
					t.Fatalf("%s: the released table differs from the usual way's", what)
				}
				if over := &got.run.pr.Protected.Data[0] == &got.run.rel.Masked.Data[0]; over != c.inPlace {
					t.Fatalf("%s: release written over the input: %v", what, over)
				}
			}
			if !c.inPlace || huge {
				continue
			}
			// the usual way leaves the table read as it was
			d, _ := datasets.ReadCSV(bytes.NewReader(src), "t.csv", datasets.ReadOptions{Mixed: true})
			if !slicesEqualBits(want.run.read.Data, d.Data) {
				t.Fatalf("%s: the usual way changed the input table", what)
			}
		}
	}
}

// slicesEqualBits reports whether a and b hold the same float64 bits.
func slicesEqualBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestProtectQuietSameRelease runs protect with --quiet (the release written over the table
// read) and without (the summary needs the original) on a table with missing cells and zeros:
// the same release bytes; and on a table whose release overflows: the same error.
func TestProtectQuietSameRelease(t *testing.T) {
	dir := t.TempDir()
	for name, huge := range map[string]bool{"t.csv": false, "huge.csv": true} {
		if err := os.WriteFile(filepath.Join(dir, name), inPlaceCSV(500, huge), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range [][]string{{"noise_additive", "noise_pct=5"}, {"noise_additive0", "noise_pct=50"}, {"noise_correlated2", "delta=0.2"}} {
		args := []string{"protect", "--method", m[0], "--param", m[1], "--in", "t.csv", "--seed", "3"}
		if _, e, code := sdcbench(t, dir, append(args, "--out", "q.csv", "--quiet")...); code != 0 {
			t.Fatalf("%s --quiet: %s", m[0], e)
		}
		if _, e, code := sdcbench(t, dir, append(args, "--out", "s.csv")...); code != 0 {
			t.Fatalf("%s: %s", m[0], e)
		}
		q, err1 := os.ReadFile(filepath.Join(dir, "q.csv"))
		s, err2 := os.ReadFile(filepath.Join(dir, "s.csv"))
		if err1 != nil || err2 != nil || !bytes.Equal(q, s) || len(q) < 1000 {
			t.Fatalf("%s: the --quiet release differs (%v, %v)", m[0], err1, err2)
		}
		args[6] = "huge.csv"
		_, eq, cq := sdcbench(t, dir, append(args, "--out", "hq.csv", "--quiet")...)
		_, es, cs := sdcbench(t, dir, append(args, "--out", "hs.csv")...)
		if cq != cs || eq != es || !strings.Contains(eq, "overflows") {
			t.Fatalf("%s on huge values: --quiet %d %q, without %d %q", m[0], cq, eq, cs, es)
		}
	}
}
