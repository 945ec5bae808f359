package datasets

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// benchTable returns a 20,000 × 8 table written as CSV: five numeric columns in shortest
// formatting and three categorical keys of 2, 20 and 100 levels, 2 % missing.
func benchTable() []byte {
	rng := rand.New(rand.NewPCG(30, 3))
	var b bytes.Buffer
	b.WriteString("x1,x2,x3,x4,x5,k1,k2,k3\n")
	for range 20_000 {
		for j := range 5 {
			fmt.Fprintf(&b, "%v,", 50+10*rng.NormFloat64()+float64(j))
		}
		for j, l := range []int{2, 20, 100} {
			if rng.Float64() < 0.02 {
				b.WriteString("NA")
			} else {
				fmt.Fprintf(&b, "\"L%d\"", rng.IntN(l))
			}
			if j < 2 {
				b.WriteByte(',')
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// BenchmarkReadFastVsStd times ReadCSV (fast) and readCSVStd (encoding/csv, the reader before)
// on the same mixed input, one after the other in one process, so that their ratio holds on a
// loaded machine.
func BenchmarkReadFastVsStd(b *testing.B) {
	in := benchTable()
	for _, r := range []struct {
		name string
		read func(io.Reader, string, ReadOptions) (*Dataset, error)
	}{{"fast", ReadCSV}, {"std", readCSVStd}} {
		b.Run(r.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.read(bytes.NewReader(in), "bench.csv", ReadOptions{Mixed: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWriteFastVsStd is BenchmarkReadFastVsStd for writeCSV and writeCSVStd.
func BenchmarkWriteFastVsStd(b *testing.B) {
	d, err := ReadCSV(bytes.NewReader(benchTable()), "bench.csv", ReadOptions{Mixed: true})
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range []struct {
		name  string
		write func(io.Writer, *Dataset, string, bool) error
	}{{"fast", writeCSV}, {"std", writeCSVStd}} {
		b.Run(w.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := w.write(io.Discard, d, "", false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
