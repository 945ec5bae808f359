package datasets

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"
)

// normTable returns n × 10 standard normal numbers written with 17 significant digits, as
// the input of issue 30's protect timing (a file R writes with digits = 17).
func normTable(n int) []byte {
	rng := rand.New(rand.NewPCG(30, 17))
	var b bytes.Buffer
	b.WriteString("x1,x2,x3,x4,x5,x6,x7,x8,x9,x10\n")
	for range n {
		for j := range 10 {
			b.Write(strconv.AppendFloat(nil, rng.NormFloat64(), 'g', 17, 64))
			if j < 9 {
				b.WriteByte(',')
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// BenchmarkReadNorm17 times ReadCSV on 10^5 × 10 numbers of 17 significant digits (the
// numeric reader's case of docs/datapath.md).
func BenchmarkReadNorm17(b *testing.B) {
	in := normTable(100_000)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadCSV(bytes.NewReader(in), "norm.csv", ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseNorm17 times parseDecimalPrefix alone on the fields of that table.
func BenchmarkParseNorm17(b *testing.B) {
	in := normTable(20_000)
	fields := bytes.FieldsFunc(in[bytes.IndexByte(in, '\n')+1:], func(r rune) bool { return r == ',' || r == '\n' })
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		for _, f := range fields {
			if _, _, ok := parseDecimalPrefix(f); !ok {
				b.Fatalf("%q", f)
			}
		}
	}
}
