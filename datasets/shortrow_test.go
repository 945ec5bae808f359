package datasets

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestShortTextMatchesGo compares shortText (the AVX-512 kernel where the processor has it)
// with shortTextGo on chunks of random decimals of 16 and 17 digits, decimals ending in runs
// of zeros (every length of the digits' text), the ends of the range and of the eight-digit
// halves, where the kernel's float64 quotient by 10^8 needs its correction.
func TestShortTextMatchesGo(t *testing.T) {
	if !useShortTextAVX512 {
		t.Log("no AVX-512: shortText is shortTextGo")
	}
	rng := rand.New(rand.NewPCG(15, 2))
	for range 100_000 {
		var want shortWords
		for i := range want.d {
			var d uint64
			switch rng.IntN(4) {
			case 0:
				d = 1e15 + rng.Uint64N(99e15)
			case 1: // near a multiple of 10^8
				d = (1e15+rng.Uint64N(99e15))/1e8*1e8 + []uint64{0, 1, 1e8 - 1, 1e8 - 2}[rng.IntN(4)]
			case 2:
				d = []uint64{1e15, 1e16, 1e17 - 1, 1e16 - 1, 2e16, 99999999e8, 1e16 + 1e8 - 1, 1e16 + 1e8}[rng.IntN(8)]
			default: // trailing zeros
				d = (1e15 + rng.Uint64N(99e15)) / tenPow(rng.IntN(17)) * tenPow(rng.IntN(17))
			}
			want.d[i] = min(max(d, 1e15), 1e17-1)
		}
		got := want
		shortTextGo(&want)
		shortText(&got)
		for i := range want.d {
			if got.x0[i] != want.x0[i] || got.x1[i] != want.x1[i] || got.x2[i] != want.x2[i] || got.nd[i] != want.nd[i] {
				t.Fatalf("d = %d: shortText %#x %#x %#x %d, shortTextGo %#x %#x %#x %d", want.d[i],
					got.x0[i], got.x1[i], got.x2[i], got.nd[i], want.x0[i], want.x1[i], want.x2[i], want.nd[i])
			}
		}
	}
}

// tenPow returns 10^e for 0 ≤ e < 20.
func tenPow(e int) uint64 {
	p := uint64(1)
	for range e {
		p *= 10
	}
	return p
}

// TestShortDigitsMatchesGo compares shortFrameDigits (the BMI2 assembly where the processor
// has it) with shortFrameDigitsGo on chunks of 1 to shortChunk values: random bit patterns
// with exponents in and around the frame range (0.001 to 10), powers of two, values with few
// mantissa bits (short decimals), specials, subnormals and any other double.
func TestShortDigitsMatchesGo(t *testing.T) {
	if !useShortDigitsBMI2 {
		t.Log("no BMI2: shortFrameDigits is shortFrameDigitsGo")
	}
	rng := rand.New(rand.NewPCG(15, 3))
	xs := make([]float64, shortChunk)
	for range 200_000 {
		xs := xs[:1+rng.IntN(shortChunk)]
		for i := range xs {
			u := rng.Uint64()
			switch rng.IntN(5) {
			case 0, 1: // 2^−14 … 2^6: the frame range and beyond it either side
				u = u&(1<<63|1<<52-1) | uint64(1023-14+rng.IntN(21))<<52
			case 2: // few mantissa bits
				u = u&(1<<63|0xfff<<40) | uint64(1023-14+rng.IntN(21))<<52
			case 3:
				u = []uint64{0, 1 << 63, 0x7ff << 52, 0x7ff8 << 48, 1, 1023 << 52, 1022 << 52, 1013 << 52}[rng.IntN(8)]
			}
			xs[i] = math.Float64frombits(u)
		}
		var want, got shortWords
		nw, ng := shortFrameDigitsGo(&want, xs), shortFrameDigits(&got, xs)
		if nw != ng || want.d != got.d || want.dp != got.dp {
			t.Fatalf("%v: shortFrameDigits %d %v %v, shortFrameDigitsGo %d %v %v", xs, ng, got.d, got.dp, nw, want.d, want.dp)
		}
	}
}
