package bench

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// csvNumeric returns an n × d table of normal numbers (mean 50, sd 10) in shortest
// formatting, as sdcbench writes a release, with a share na of cells missing (written "NA").
func csvNumeric(n, d int, na float64) []byte {
	rng := rand.New(rand.NewPCG(30, 1))
	var b bytes.Buffer
	for j := range d {
		if j > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "x%d", j+1)
	}
	b.WriteByte('\n')
	row := make([]byte, 0, 32*d)
	for range n {
		row = row[:0]
		for j := range d {
			if j > 0 {
				row = append(row, ',')
			}
			if rng.Float64() < na {
				row = append(row, "NA"...)
				continue
			}
			row = appendFloat(row, 50+10*rng.NormFloat64())
		}
		b.Write(append(row, '\n'))
	}
	return b.Bytes()
}

func appendFloat(b []byte, v float64) []byte {
	return fmt.Appendf(b, "%v", v)
}

// csvCategorical returns the census table of BenchmarkCensus at n records written with text
// labels ("L1", "L2", …; quoted like R's write.csv) for the seven keys, 2 % of the key cells
// missing ("NA"), and the weight.
func csvCategorical(n int) []byte {
	d := censusTable(n)
	rng := rand.New(rand.NewPCG(30, 2))
	var b bytes.Buffer
	for j, name := range d.Names {
		if j > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q", name)
	}
	b.WriteByte('\n')
	row := make([]byte, 0, 128)
	for i := range n {
		row = row[:0]
		for j := range d.P {
			if j > 0 {
				row = append(row, ',')
			}
			v := d.Data[i*d.P+j]
			switch {
			case j == d.P-1:
				row = appendFloat(row, v)
			case rng.Float64() < 0.02:
				row = append(row, "NA"...)
			default:
				row = fmt.Appendf(row, "\"L%s\"", d.Levels[j][int(v)])
			}
		}
		b.Write(append(row, '\n'))
	}
	return b.Bytes()
}

// csvBenchN is the number of rows of the CSV benchmarks.
const csvBenchN = 100_000

// BenchmarkReadCSV times datasets.ReadCSV (issue 30's data path: ≥ 200 MB/s on one core) on
// in-memory inputs of csvBenchN rows: numbers (10 columns, as a release is written), numbers
// with 5 % missing, and the categorical census table (seven quoted text keys with NA and a
// weight, read mixed). MB/s is input bytes per wall second, MB/cpu-s per CPU-second.
func BenchmarkReadCSV(b *testing.B) {
	cases := []struct {
		name string
		in   []byte
		opt  datasets.ReadOptions
	}{
		{"numeric", csvNumeric(csvBenchN, 10, 0), datasets.ReadOptions{}},
		{"numeric_na", csvNumeric(csvBenchN, 10, 0.05), datasets.ReadOptions{Mixed: true}},
		{"categorical_na", csvCategorical(csvBenchN), datasets.ReadOptions{Mixed: true}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.in)))
			b.ReportAllocs()
			c0 := cpuSeconds()
			for b.Loop() {
				if _, err := datasets.ReadCSV(bytes.NewReader(c.in), "bench.csv", c.opt); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, c0, len(c.in))
		})
	}
}

// reportCPU reports the process CPU per operation since c0 (cpu-s/op) and the bytes per
// CPU-second (MB/cpu-s): on a shared machine steadier than MB/s, which is per wall second.
func reportCPU(b *testing.B, c0 float64, size int) {
	cpu := (cpuSeconds() - c0) / float64(b.N)
	b.ReportMetric(cpu, "cpu-s/op")
	if cpu > 0 {
		b.ReportMetric(float64(size)/1e6/cpu, "MB/cpu-s")
	}
}

// BenchmarkWriteCSV times datasets.WriteCSVNA on the tables BenchmarkReadCSV reads (the
// numeric one with NaN written as "NA" by a custom token list, the categorical one with its
// labels). MB/s is output bytes per second.
func BenchmarkWriteCSV(b *testing.B) {
	for _, c := range []struct {
		name string
		in   []byte
	}{{"numeric", csvNumeric(csvBenchN, 10, 0)}, {"numeric_na", csvNumeric(csvBenchN, 10, 0.05)}, {"categorical_na", csvCategorical(csvBenchN)}} {
		d, err := datasets.ReadCSV(bytes.NewReader(c.in), "bench.csv", datasets.ReadOptions{Mixed: true})
		if err != nil {
			b.Fatal(err)
		}
		var out bytes.Buffer
		if err := datasets.WriteCSVNA(&out, d, datasets.NewNA("NA", "")); err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(out.Len()))
			b.ReportAllocs()
			c0 := cpuSeconds()
			for b.Loop() {
				if err := datasets.WriteCSVNA(io.Discard, d, datasets.NewNA("NA", "")); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, c0, out.Len())
		})
	}
}

// TestCSVBenchInputs checks that the benchmark inputs read back as intended: the numeric
// one all numbers, the one with missing cells with NaN, the census one with seven
// categorical keys and missing keys.
func TestCSVBenchInputs(t *testing.T) {
	d, err := datasets.ReadCSV(bytes.NewReader(csvNumeric(1000, 10, 0.05)), "n.csv", datasets.ReadOptions{Mixed: true})
	if err != nil {
		t.Fatal(err)
	}
	nan := 0
	for _, v := range d.Data {
		if math.IsNaN(v) {
			nan++
		}
	}
	if d.N != 1000 || d.P != 10 || d.Levels != nil || nan < 300 || nan > 700 {
		t.Errorf("numeric: %d×%d, levels %v, %d NaN", d.N, d.P, d.Levels != nil, nan)
	}
	c, err := datasets.ReadCSV(bytes.NewReader(csvCategorical(1000)), "c.csv", datasets.ReadOptions{Mixed: true})
	if err != nil {
		t.Fatal(err)
	}
	if c.N != 1000 || len(c.Categorical()) != 7 || c.IsCategorical(7) || c.Code(0, 0) < 0 {
		t.Errorf("census: %d rows, categorical %v", c.N, c.Categorical())
	}
}

// BenchmarkReadCSVCodes times datasets.ReadCSV on the census table as eval reads it: seven keys
// written as level numbers (1 to 100, read as numbers, then categorized) and the weight.
func BenchmarkReadCSVCodes(b *testing.B) {
	d := censusTable(csvBenchN)
	var in bytes.Buffer
	if err := datasets.WriteCSV(&in, d); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(in.Len()))
	b.ReportAllocs()
	c0 := cpuSeconds()
	for b.Loop() {
		if _, err := datasets.ReadCSV(bytes.NewReader(in.Bytes()), "bench.csv", datasets.ReadOptions{Mixed: true}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0, in.Len())
}
