package datasets

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// numberCells returns n·p random values of the kinds a release holds: whole numbers (codes,
// counts; the edges of appendShortest's integer range), ±0, NaN, ±Inf, subnormals, huge
// values and normal numbers at many scales.
func numberCells(rng *rand.Rand, k int) []float64 {
	x := make([]float64, k)
	for i := range x {
		switch rng.IntN(12) {
		case 0:
			x[i] = float64(rng.IntN(2_000_003) - 1_000_001)
		case 1:
			x[i] = []float64{0, math.Copysign(0, -1), 1e6, -1e6, 999999, -999999, 1e6 - 0.5}[rng.IntN(7)]
		case 2:
			x[i] = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Float64frombits(0x7ff8000000000001)}[rng.IntN(4)]
		case 3:
			x[i] = math.Float64frombits(rng.Uint64() & (1<<52 - 1)) // subnormal
		case 4:
			x[i] = math.Float64frombits(rng.Uint64()) // any bit pattern
		default:
			x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(30)-15))
		}
	}
	return x
}

// TestAppendNumberRows compares appendNumberRows with appendShortest cell by cell, into
// buffers with and without room, for rows of 1 to 20 values.
func TestAppendNumberRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 6))
	for p := 1; p <= 20; p++ {
		n := 1 + rng.IntN(300)
		x := numberCells(rng, n*p)
		var want []byte
		for i := range n {
			for j, v := range x[i*p : (i+1)*p] {
				if j > 0 {
					want = append(want, ',')
				}
				want = appendShortest(want, v)
			}
			want = append(want, '\n')
		}
		for _, room := range []int{0, 7, len(want) + 64} {
			got := appendNumberRows(append(make([]byte, 0, room), "h\n"...), x, p)
			if !bytes.Equal(got[2:], want) || string(got[:2]) != "h\n" {
				t.Fatalf("p = %d, room %d: appendNumberRows differs from appendShortest", p, room)
			}
		}
	}
}

// TestWriteNumberRowsMatchesStandard writes tables of distinct values of several blocks (so
// that both caches turn off and appendNumberRows writes the later rows), with whole numbers,
// ±0, NaN and ±Inf, by one to three workers, and compares them with csv.Writer row by row;
// with a custom missing token the caches' path is kept and compared too.
func TestWriteNumberRowsMatchesStandard(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 7))
	for _, p := range []int{1, 3, 10, 17} {
		n := 3*blockRows + 5 + rng.IntN(100)
		d := New("t", make([]string, p), n, p, numberCells(rng, n*p))
		for j := range d.Names {
			d.Names[j] = string(rune('a' + j))
		}
		for _, tok := range []struct {
			tok    string
			custom bool
		}{{"", false}, {"-", true}} {
			checkBlockWriter(t, d, tok.tok, tok.custom, stdCSV(t, d, tok.tok, tok.custom), 3, fmt.Sprintf("p = %d", p))
		}
	}
}

// BenchmarkAppendNumberRows formats 10^4 rows of 10 unit normals (a noise release of a
// standardized table) by appendNumberRows and, for comparison, cell by cell through the
// turned-off numbers' cache as appendRows did before it (CPU ns a number: the gap is the
// per-number wrappers).
func BenchmarkAppendNumberRows(b *testing.B) {
	const n, p = 10_000, 10
	rng := rand.New(rand.NewPCG(14, 10))
	x := make([]float64, n*p)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	buf := make([]byte, 0, n*(25*p+1))
	b.Run("rows", func(b *testing.B) {
		cpu0 := processCPUNanos()
		for range b.N {
			buf = appendNumberRows(buf[:0], x, p)
		}
		if cpu1 := processCPUNanos(); cpu0 >= 0 && cpu1 >= 0 {
			b.ReportMetric(float64(cpu1-cpu0)/float64(b.N*n*p), "cpu-ns/number")
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n*p), "ns/number")
	})
	b.Run("cells", func(b *testing.B) {
		c := &shortCache{off: true}
		cpu0 := processCPUNanos()
		for range b.N {
			buf = buf[:0]
			for i := range n {
				for j, v := range x[i*p : (i+1)*p] {
					if j > 0 {
						buf = append(buf, ',')
					}
					buf = c.append(buf, v)
				}
				buf = append(buf, '\n')
			}
		}
		if cpu1 := processCPUNanos(); cpu0 >= 0 && cpu1 >= 0 {
			b.ReportMetric(float64(cpu1-cpu0)/float64(b.N*n*p), "cpu-ns/number")
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n*p), "ns/number")
	})
}
