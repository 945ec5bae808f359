package datasets

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"
)

// numericTable returns n × 10 standard normal numbers as the numeric files of issue 30 are
// written: format "r15" as R's write.csv (15 significant digits, trailing zeros dropped,
// names quoted: -0.626453810742332), "short" as sdcbench writes a release (shortest
// round-trip form, up to 17 significant digits: -0.5550478962387833).
func numericTable(n int, format string) []byte {
	rng := rand.New(rand.NewPCG(30, 15))
	var b bytes.Buffer
	for j := range 10 {
		if j > 0 {
			b.WriteByte(',')
		}
		if format == "r15" {
			b.WriteString(`"x` + strconv.Itoa(j+1) + `"`)
		} else {
			b.WriteString("x" + strconv.Itoa(j+1))
		}
	}
	b.WriteByte('\n')
	row := make([]byte, 0, 256)
	for range n {
		row = row[:0]
		for j := range 10 {
			if j > 0 {
				row = append(row, ',')
			}
			if format == "r15" {
				row = strconv.AppendFloat(row, rng.NormFloat64(), 'g', 15, 64)
			} else {
				row = strconv.AppendFloat(row, rng.NormFloat64(), 'g', -1, 64)
			}
		}
		b.Write(append(row, '\n'))
	}
	return b.Bytes()
}

// BenchmarkReadNumeric times ReadCSV on 10^5 × 10 normal numbers in R's and in sdcbench's
// formatting (numericTable), the inputs of eval and protect at 10^6 in docs/datapath.md, read
// as a file is (a seekable reader, streamed in chunks). MB/cpu-s is input bytes per CPU second
// of the process, steadier than MB/s on a shared machine.
func BenchmarkReadNumeric(b *testing.B) {
	for _, format := range []string{"r15", "short"} {
		in := numericTable(100_000, format)
		b.Run(format, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			c0 := processCPUNanos()
			for b.Loop() {
				if _, err := ReadCSV(bytes.NewReader(in), "norm.csv", ReadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			if c1 := processCPUNanos(); c0 >= 0 && c1 > c0 {
				cpu := float64(c1-c0) / 1e9 / float64(b.N)
				b.ReportMetric(float64(len(in))/1e6/cpu, "MB/cpu-s")
				b.ReportMetric(cpu*1e9/1e6, "cpu-ns/field") // 10^6 fields
			}
		})
	}
}

// BenchmarkNumericLine times numericLine alone on the lines of numericTable (the parse of a
// numeric file without reading, splitting into lines or allocating the table).
func BenchmarkNumericLine(b *testing.B) {
	for _, format := range []string{"r15", "short"} {
		in := numericTable(20_000, format)
		in = in[bytes.IndexByte(in, '\n')+1:]
		b.Run(format, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			row := make([]float64, 10)
			c0 := processCPUNanos()
			for b.Loop() {
				for s := in; len(s) > 0; {
					e := bytes.IndexByte(s, '\n')
					numericLine(s[:e+scanSlack], row, -1) // some lines have e-05
					s = s[e+1:]
				}
			}
			if c1 := processCPUNanos(); c0 >= 0 && c1 > c0 {
				cpu := float64(c1-c0) / 1e9 / float64(b.N)
				b.ReportMetric(float64(len(in))/1e6/cpu, "MB/cpu-s")
				b.ReportMetric(cpu*1e9/200_000, "cpu-ns/field")
			}
		})
	}
}
