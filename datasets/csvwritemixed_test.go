package datasets

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// mixedTable returns a random table of n rows and p columns, each categorical with chance
// one half (labels that need quoting; codes outside the levels and missing ones), the others
// numeric: numbers in and out of the writer's frame range, whole numbers, −0, ±Inf, and a
// missing number with chance one in nanEvery cells (none when nanEvery is 0).
func mixedTable(rng *rand.Rand, n, p, nanEvery int) *Dataset {
	names := make([]string, p)
	for j := range names {
		names[j] = "c" + strconv.Itoa(j)
	}
	d := New("mixed", names, n, p, make([]float64, n*p))
	d.Levels = make([][]string, p)
	for j := range p {
		if rng.IntN(2) == 0 {
			d.Levels[j] = []string{"a", "b,c", `q"q`, "(-1,0]", "[-10,-1]", " sp "}[:1+rng.IntN(6)]
		}
	}
	for i := range n {
		for j := range p {
			v := &d.Data[i*p+j]
			if d.Levels[j] != nil {
				*v = float64(rng.IntN(len(d.Levels[j]) + 1)) // the last: outside the levels
				if rng.IntN(50) == 0 {
					*v = math.NaN()
				}
				continue
			}
			switch k := rng.IntN(40); {
			case k < 25:
				*v = rng.NormFloat64()
			case k < 30:
				*v = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(600)-300))
			case k < 35:
				*v = float64(rng.IntN(2000) - 1000)
			case k == 35:
				*v = math.Copysign(0, -1)
			case k == 36:
				*v = math.Inf(1 - 2*rng.IntN(2))
			default:
				*v = rng.Float64() * 1e-3
			}
			if nanEvery > 0 && rng.IntN(nanEvery) == 0 {
				*v = math.NaN()
			}
		}
	}
	return d
}

// TestAppendMixedRows checks the writer of tables with categories and numbers against the
// standard writer (csv.Writer row by row): writeCSV and the block writer with blocks of
// several lengths, on random tables with the categorical columns anywhere, with and without
// missing numbers (a block with one is written cell by cell), default and custom missing
// tokens; and appendMixedRows on its own, called on every row of a table without missing
// numbers, and refusing rows with one.
func TestAppendMixedRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 3))
	for trial := range 24 {
		p := 1 + rng.IntN(12)
		nanEvery := []int{0, 0, 3000, 20}[trial%4]
		d := mixedTable(rng, 6*blockRows+1+rng.IntN(blockRows), p, nanEvery)
		tok, custom := "", false
		if trial%3 == 2 {
			tok, custom = "n a", true
		}
		want := stdCSV(t, d, tok, custom)
		var got bytes.Buffer
		if err := writeCSV(&got, d, tok, custom); err != nil {
			t.Fatal(err)
		}
		what := "trial " + strconv.Itoa(trial)
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("%s: writeCSV differs from the standard writer", what)
		}
		checkBlockWriter(t, d, tok, custom, want, 4, what)

		f := writeFormatter(t, d, tok, custom)
		if f.q == 0 {
			continue
		}
		head, _ := csvRecord(d.Names...)
		var ms mixedScratch
		b, ok := f.appendMixedRows(nil, 0, d.N, f.q, &ms)
		if hasNaN := nanEvery > 0 && !ok; !ok && !hasNaN || ok && !bytes.Equal(b, want[len(head):]) {
			t.Fatalf("%s: appendMixedRows (ok %v) differs from the standard writer", what, ok)
		}
		if !ok && len(b) != 0 {
			t.Fatalf("%s: appendMixedRows refused the rows but appended to b", what)
		}
	}
}

// BenchmarkWriteMixed writes 10^5 rows of nine normal numbers after an interval label (a
// global_recode release) with the numbers a block at a time (appendMixedRows) and, for
// comparison, cell by cell (the path before it).
func BenchmarkWriteMixed(b *testing.B) {
	rng := rand.New(rand.NewPCG(16, 4))
	const n, p = 100000, 10
	d := New("recoded", []string{"x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10"}, n, p, make([]float64, n*p))
	d.Levels = make([][]string, p)
	d.Levels[0] = []string{"[-10,-1]", "(-1,0]", "(0,1]", "(1,10]"}
	for i := range n {
		d.Data[i*p] = float64(rng.IntN(4))
		for j := 1; j < p; j++ {
			d.Data[i*p+j] = rng.NormFloat64()
		}
	}
	for _, mixed := range []bool{true, false} {
		name := "cells"
		if mixed {
			name = "blocks"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				f := writeFormatter(b, d, "", false)
				if !mixed {
					f.q = 0
				}
				if err := f.write(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
