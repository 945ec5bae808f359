package datasets

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// repeatedRows returns an n × p table whose rows are drawn from g distinct rows (random
// magnitudes, −0, +0, NaN with two payloads, whole numbers, subnormals), so that the writer's
// row cache hits, misses, evicts and, for large g, turns itself off.
func repeatedRows(rng *rand.Rand, n, p, g int) *Dataset {
	proto := make([]float64, g*p)
	for i := range proto {
		switch rng.IntN(12) {
		case 0:
			proto[i] = math.Copysign(0, -1)
		case 1:
			proto[i] = math.NaN()
		case 2:
			proto[i] = math.Float64frombits(0x7ff8000000000001) // another NaN payload
		case 3:
			proto[i] = float64(rng.IntN(2000) - 1000)
		case 4:
			proto[i] = math.Float64frombits(rng.Uint64N(1 << 52)) // subnormal
		default:
			proto[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(600)-300))
		}
	}
	names := make([]string, p)
	for j := range names {
		names[j] = string(rune('a' + j))
	}
	d := New("r", names, n, p, make([]float64, n*p))
	for i := range n {
		copy(d.Data[i*p:(i+1)*p], proto[rng.IntN(g)*p:][:p])
	}
	return d
}

// TestWriteRowCacheMatchesStandard checks the writer with its row cache against the previous
// writer (csv.Writer row by row) on tables whose rows repeat: few distinct rows (every set
// hit), more than the cache holds (evictions), many (the cache turns off), a table that
// changes from repeated to distinct rows, rows wider than rowMaxCols, categorical columns
// with long labels (rows longer than an entry), default and custom missing tokens, three
// block lengths.
func TestWriteRowCacheMatchesStandard(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 7))
	n := 3*blockRows + 5
	var tables []*Dataset
	for _, c := range []struct{ p, g int }{{1, 3}, {5, 100}, {5, 700}, {3, 50000}, {rowMaxCols + 1, 20}, {rowMaxCols, 20}} {
		tables = append(tables, repeatedRows(rng, n, c.p, c.g))
	}
	change := repeatedRows(rng, n, 4, 10)
	copy(change.Data[n/2*4:], repeatedRows(rng, n-n/2, 4, 1<<15).Data)
	tables = append(tables, change)
	cat := repeatedRows(rng, n, 3, 40)
	long := strings.Repeat("l,\"", 40)
	cat.Levels = [][]string{{"x", long, "q\"q"}, nil, {"y"}}
	for i := range n {
		cat.Data[i*3] = float64(rng.IntN(4)) // 3 is outside the levels
		if rng.IntN(20) == 0 {
			cat.Data[i*3] = math.NaN()
		}
		cat.Data[i*3+2] = float64(rng.IntN(2))
	}
	tables = append(tables, cat)
	for _, d := range tables {
		for _, tok := range []struct {
			tok    string
			custom bool
		}{{"", false}, {"-", true}} {
			checkBlockWriter(t, d, tok.tok, tok.custom, stdCSV(t, d, tok.tok, tok.custom), 3, fmt.Sprintf("%d × %d", d.N, d.P))
		}
	}
}

// BenchmarkWriteRepeatedRows writes a 10^5 × 5 table of 100 distinct rows, the shape of
// `protect --method ma_mdav --param k=1000` on 10^5 × 5, on one goroutine.
func BenchmarkWriteRepeatedRows(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	d := repeatedRows(rng, 100_000, 5, 100)
	for i := range d.Data {
		if math.IsNaN(d.Data[i]) {
			d.Data[i] = 0.5
		}
	}
	f := &rowFormatter{d: d}
	for b.Loop() {
		if err := f.write(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
