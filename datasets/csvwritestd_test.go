package datasets

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// writeCSVStd is the writer writeCSV replaced (encoding/csv, row by row): the reference of
// TestWriteFastMatchesStandard.
func writeCSVStd(w io.Writer, d *Dataset, tok string, custom bool) error {
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	if err := cw.Write(d.Names); err != nil {
		return fmt.Errorf("datasets: write: %w", err)
	}
	cw.Flush()
	buf := make([]byte, 0, 32)
	rec := make([]string, d.P)
	for i := 0; i < d.N; i++ {
		if d.Levels != nil { // labels may need quoting
			for j := range rec {
				if custom && d.Data[i*d.P+j] != d.Data[i*d.P+j] {
					rec[j] = tok
					continue
				}
				rec[j] = d.Label(i, j)
			}
			if err := cw.Write(rec); err != nil {
				return fmt.Errorf("datasets: write: %w", err)
			}
			cw.Flush()
			continue
		}
		for j, v := range d.Row(i) {
			if j > 0 {
				bw.WriteByte(',')
			}
			if custom && v != v {
				bw.WriteString(csvField(tok))
				continue
			}
			buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
			bw.Write(buf)
		}
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("datasets: write: %w", err)
	}
	return nil
}

// TestAppendShortest compares appendShortest with strconv.AppendFloat(…, 'g', -1, 64) on
// every whole number of magnitude below 10^6 and its neighbours (where AppendInt is used,
// exhaustively), on ±0, 10^6 and beyond, and on random bit patterns and random numbers.
func TestAppendShortest(t *testing.T) {
	room := make([]byte, 1, 64) // room for the word stores: appendShortest's fast path
	room[0] = 'x'
	check := func(v float64) {
		got := appendShortest(room[:1], v)
		want := strconv.AppendFloat([]byte("x"), v, 'g', -1, 64)
		if !bytes.Equal(got, want) {
			t.Fatalf("appendShortest(%v) = %q, strconv %q", v, got, want)
		}
	}
	for n := -1_000_001; n <= 1_000_001; n++ {
		v := float64(n)
		check(v)
		check(math.Nextafter(v, math.Inf(1)))
		check(math.Nextafter(v, math.Inf(-1)))
	}
	for _, v := range []float64{math.Copysign(0, -1), 0.5, -0.5, 1e6 - 0.5, 1e6, 1e7, 1e21, 1e22, -1e21,
		1 << 53, 1 << 62, 1 << 63, -(1 << 63), 1 << 64, math.MaxFloat64, math.SmallestNonzeroFloat64,
		math.Inf(1), math.Inf(-1), math.NaN()} {
		check(v)
		check(-v)
	}
	rng := rand.New(rand.NewPCG(30, 7))
	for range 200_000 {
		check(math.Float64frombits(rng.Uint64()))
		check(math.Round(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(25)))))
	}
}
