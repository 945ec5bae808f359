package datasets

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// kernelField returns a random field for TestNumericLineKernel: mostly the shapes
// numGroupAVX512 takes (a point, 1 to 19 digits, a sign or none, R's and the shortest form,
// values that need Eisel–Lemire or decline it), and near misses it must leave to the Go loop
// (two points, a sign inside, no digits, an exponent, 20 digits, 8 integer digits, a quote,
// a space), or any field of scanField.
func kernelField(rng *rand.Rand) string {
	switch rng.IntN(14) {
	case 0, 1:
		return strconv.FormatFloat(rng.NormFloat64(), 'g', 15, 64)
	case 2, 3:
		return strconv.FormatFloat(rng.NormFloat64(), 'g', -1, 64)
	case 4: // [sign] i integer digits, a point, f fraction digits
		var b strings.Builder
		b.WriteString([]string{"", "", "-", "+"}[rng.IntN(4)])
		i, f := rng.IntN(10), rng.IntN(21)
		for range i {
			b.WriteByte(byte('0' + rng.IntN(10)))
		}
		b.WriteByte('.')
		for range f {
			b.WriteByte(byte('0' + rng.IntN(10)))
		}
		return b.String()
	case 5: // doubles of any magnitude in fixed notation (subnormal-free up to 1e-19)
		v := math.Float64frombits(rng.Uint64()>>2 | 0x3C00000000000000)
		return strconv.FormatFloat(v, 'f', rng.IntN(20), 64)
	case 6: // midpoints and ties: the shortest form with a digit appended
		return strconv.FormatFloat(rng.NormFloat64(), 'f', -1, 64) + strconv.Itoa(rng.IntN(10))
	case 7: // near misses
		f := strconv.FormatFloat(rng.NormFloat64(), 'g', 15, 64)
		k := rng.IntN(len(f) + 1)
		return f[:k] + []string{".", "-", "+", "e", "\"", " ", "x", "0", ",", ""}[rng.IntN(10)] + f[k:]
	case 8:
		return []string{"0.", ".5", "-.5", "+.5", "5.", "-0.0", "0.000000000000000000", "9007199254740993.",
			"9007199254740992.5", "1234567.123456789012", "12345678.5", "0.1234567890123456789",
			"0.12345678901234567890", "-9.99999999999999999", "99999999999999999.9", "."}[rng.IntN(16)]
	}
	f, _ := scanField(rng)
	return f
}

// TestNumericLineKernel compares numericLine, which runs the vector kernel (numericGroups)
// where there is one, with numericLineFrom, the Go loop alone, on random lines of 1 to 40
// fields (kernelField), or of up to 100 fields of 2 to 4 bytes, longer and shorter than the
// kernel's window and group, followed by
// '\n', '\r' or another byte: the cells taken, where it stopped and every value bit for bit
// must be the same. Under purego, or without AVX-512, the two are the same code; on this
// machine the kernel must take most lines of typical fields itself.
func TestNumericLineKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 17))
	// 64 field starts before byte 192 and a minus sign at 192, beyond the first group
	edge := strings.Repeat("1.25,", 16) + strings.Repeat(",", 48) + strings.Repeat("1", 63) + ",-.4,-1.5"
	compareNumericLine(t, edge, 67, '\n', -1)
	// the sixteenth field of a group with two points (the seventeenth point is in it)
	compareNumericLine(t, strings.Repeat("1.25,", 15)+"1.2.5,2.5,2.5", 18, '\n', -1)
	compareNumericLine(t, strings.Repeat("1.25,", 15)+"1.25.,2.5,2.5", 18, '\n', -1)
	kernelLines, typicalLines := 0, 0
	for iter := range 200000 {
		if iter < 2000 {
			// 60 to 70 fields of two bytes, or 16 of four and up to 120 empty ones, then minus
			// signs: 64 field starts or more before byte 192, none of the kernel's fields after
			// the first group
			fields := make([]string, 60+rng.IntN(11), 200)
			for c := range fields {
				fields[c] = []string{"1.", ".5"}[rng.IntN(2)]
			}
			if iter%2 == 1 {
				fields = fields[:16+rng.IntN(121)]
				for c := range fields {
					fields[c] = ""
					if c < 16 {
						fields[c] = strconv.FormatFloat(float64(rng.IntN(100))/4, 'f', 2, 64)
					}
				}
			}
			for range 1 + rng.IntN(10) {
				fields = append(fields, "-.4")
			}
			compareNumericLine(t, strings.Join(fields, ","), len(fields), '\n', -1)
			continue
		}
		p := 1 + rng.IntN(40)
		if iter%2 == 0 {
			p = 1 + rng.IntN(16)
		}
		tiny := iter%7 == 1 // many short fields: more than 64 start in the window
		if tiny {
			p = 1 + rng.IntN(100)
		}
		fields := make([]string, p)
		typical := iter%3 == 0 && !tiny
		for c := range fields {
			if tiny {
				fields[c] = []string{"1.", ".3", "2.", ".5", "-.4", "-1.", "-0.6", "7"}[rng.IntN(7+iter%2)]
			} else if typical {
				fields[c] = strconv.FormatFloat(rng.NormFloat64(), 'g', []int{15, -1}[iter%2], 64)
			} else {
				fields[c] = kernelField(rng)
			}
		}
		line := strings.Join(fields, ",")
		switch rng.IntN(20) { // a wrong number of fields
		case 0:
			line += ","
		case 1:
			p++
		case 2:
			if p > 1 {
				p--
			}
		}
		term := []byte{'\n', '\r', '\n', ','}[rng.IntN(4)]
		short := -1
		if rng.IntN(10) == 0 {
			short = 3
		}
		b, end := compareNumericLine(t, line, p, term, short)
		if typical && term != ',' && short < 0 && p == len(fields) && !strings.ContainsRune(line, 'e') {
			typicalLines++
			if k, _ := numericGroups(b, end, make([]float64, p), short); k > 0 {
				kernelLines++
			}
		}
	}
	if useAVX512 && kernelLines < typicalLines*9/10 {
		t.Errorf("the kernel took %d of %d lines of typical fields", kernelLines, typicalLines)
	}
	t.Logf("the kernel took %d of %d lines of typical fields (useAVX512 %v)", kernelLines, typicalLines, useAVX512)
}

// compareNumericLine fails unless numericLine and numericLineFrom (the Go loop alone) take the
// same cells of line, followed by term and digits, commas, points and minus signs, into p
// cells, stop at the same field and give the same values bit for bit. It returns the line as
// numericLine reads it and where the line ends in it.
func compareNumericLine(t *testing.T, line string, p int, term byte, short int) (b []byte, end int) {
	t.Helper()
	b = append([]byte(line), term)
	for i := range scanSlack - 1 {
		b = append(b, "0123456789,.-"[(i*7+len(line))%13])
	}
	row, want := make([]float64, p), make([]float64, p)
	taken, pos := numericLine(b, row, short)
	end = len(b) - scanSlack
	wtaken, wpos := 0, 0
	if term != ',' {
		wtaken, wpos = numericLineFrom(b, end, want, short, 0, 0)
	}
	if taken != wtaken || pos != wpos && taken < p {
		t.Fatalf("numericLine(%q, %d cells) = %d, %d; the Go loop %d, %d", line, p, taken, pos, wtaken, wpos)
	}
	for c := range taken {
		if math.Float64bits(row[c]) != math.Float64bits(want[c]) {
			t.Fatalf("numericLine(%q): cell %d = %v (%x), the Go loop %v (%x)", line, c, row[c],
				math.Float64bits(row[c]), want[c], math.Float64bits(want[c]))
		}
	}
	return b, end
}

// TestEiselNegPows compares the kernel's table of 10^−f with eiselPows.
func TestEiselNegPows(t *testing.T) {
	for f := range 24 {
		p := eiselPows[-f-eiselMin]
		if eiselNegPows[0][f] != p.hi || int(int64(eiselNegPows[1][f])) != p.exp {
			t.Fatalf("10^-%d: %x, %d; eiselPows %x, %d", f, eiselNegPows[0][f], int64(eiselNegPows[1][f]), p.hi, p.exp)
		}
	}
}
