package datasets

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// TestWriteBlocksMatchesStandard checks the writer that formats blocks of rows against the
// previous writer (csv.Writer row by row) on tables of several blocks and a remainder:
// numbers with and without missing values, categories with labels that need quoting, default
// and custom missing tokens, blocks of blockRows down to a single row.
func TestWriteBlocksMatchesStandard(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 60))
	n := 3*blockRows + 17
	num := New("n", []string{"x", "y"}, n, 2, make([]float64, 2*n))
	mixed := New("m", []string{"a", "b"}, n, 2, make([]float64, 2*n))
	mixed.Levels = [][]string{{"x", "a,b", "q\"q"}, nil}
	numNA := New("na", []string{"x", "y"}, n, 2, make([]float64, 2*n))
	for i := range 2 * n {
		num.Data[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
		numNA.Data[i] = num.Data[i]
		if rng.IntN(10) == 0 {
			numNA.Data[i] = math.NaN()
		}
		mixed.Data[i] = num.Data[i]
		if i%2 == 0 {
			mixed.Data[i] = float64(rng.IntN(4)) // 3 is outside the levels
		}
		if rng.IntN(10) == 0 {
			mixed.Data[i] = math.NaN()
		}
	}
	for _, d := range []*Dataset{num, numNA, mixed} {
		for _, tok := range []struct {
			tok    string
			custom bool
		}{{"", false}, {"a b", true}} {
			want := stdCSV(t, d, tok.tok, tok.custom)
			var got bytes.Buffer
			if err := writeCSV(&got, d, tok.tok, tok.custom); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s, token %q: writeCSV differs from the standard writer", d.Name, tok.tok)
			}
			checkBlockWriter(t, d, tok.tok, tok.custom, want, 5, d.Name)
		}
	}
}

// stdCSV returns d as the standard writer (writeCSVStd) writes it: the bytes the fast writers
// must produce.
func stdCSV(t *testing.T, d *Dataset, tok string, custom bool) []byte {
	t.Helper()
	var want bytes.Buffer
	if err := writeCSVStd(&want, d, tok, custom); err != nil {
		t.Fatal(err)
	}
	return want.Bytes()
}

// checkBlockWriter writes d with writeCSV's row formatter in blocks of blockRows rows and of
// sizes−1 smaller lengths (blockRows/4, /16, …, at least one row: the caches then carry
// over more block boundaries) and reports, under the name what, each block length whose
// bytes differ from want.
func checkBlockWriter(t *testing.T, d *Dataset, tok string, custom bool, want []byte, sizes int, what string) {
	t.Helper()
	head, err := csvRecord(d.Names...)
	if err != nil {
		t.Fatal(err)
	}
	for k := range sizes {
		f := writeFormatter(t, d, tok, custom)
		f.block = max(1, blockRows>>(2*k))
		got := bytes.NewBuffer(append([]byte(nil), head...))
		if err := f.write(got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s, token %q, blocks of %d rows: the block writer differs from the standard writer", what, tok, f.block)
		}
	}
}

// writeFormatter returns the rowFormatter writeCSV makes for d, its encodings built as
// writeCSV builds them.
func writeFormatter(t testing.TB, d *Dataset, tok string, custom bool) *rowFormatter {
	t.Helper()
	f := &rowFormatter{d: d, naTok: []byte(csvField(tok)), custom: custom}
	if d.Levels != nil {
		f.levels = make([][][]byte, d.P)
		for j, lv := range d.Levels {
			for _, l := range lv {
				b, err := csvEncode(l)
				if err != nil {
					t.Fatal(err)
				}
				f.levels[j] = append(f.levels[j], b)
			}
		}
		f.na = []byte("NA")
		if custom {
			b, err := csvEncode(tok)
			if err != nil {
				t.Fatal(err)
			}
			f.na = b
		}
		f.segs, f.q = mixedSegs(f.levels)
	}
	return f
}

// failWriter fails every write after the first ok bytes.
type failWriter struct{ ok int }

func (w *failWriter) Write(b []byte) (int, error) {
	if len(b) > w.ok {
		return 0, errShortWrite
	}
	w.ok -= len(b)
	return len(b), nil
}

var errShortWrite = bytes.ErrTooLarge

// TestWriteBlocksError checks that the block writer returns its writer's error.
func TestWriteBlocksError(t *testing.T) {
	n := 2*blockRows + 1
	d := New("n", []string{"x"}, n, 1, make([]float64, n))
	for _, block := range []int{0, 1, 7} {
		f := &rowFormatter{d: d, block: block}
		if err := f.write(&failWriter{ok: n}); err != errShortWrite { // 2 bytes a row
			t.Errorf("blocks of %d rows: error %v, want %v", block, err, errShortWrite)
		}
	}
}
