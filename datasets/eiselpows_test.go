package datasets

import (
	"math/big"
	"testing"
)

// makeEiselPowsRat is the former makeEiselPows: exact rational doublings and halvings until
// the power of ten lies in [2^127, 2^128), kept as the reference of the integer computation.
func makeEiselPowsRat() []eiselPow {
	one, ten := big.NewInt(1), big.NewInt(10)
	b1p64 := new(big.Int).Lsh(one, 64)
	r1p128 := new(big.Rat).SetInt(new(big.Int).Lsh(one, 128))
	two := big.NewRat(2, 1)
	var out []eiselPow
	for q := int64(eiselMin); q <= eiselMax; q++ {
		r := new(big.Rat).SetFrac(new(big.Int).Exp(ten, big.NewInt(max(q, -q)), nil), one)
		if q < 0 {
			r.Inv(r)
		}
		be := 0 // r·2^be in [2^127, 2^128)
		for r.Cmp(r1p128) < 0 {
			r.Mul(r, two)
			be++
		}
		for r.Cmp(r1p128) >= 0 {
			r.Quo(r, two)
			be--
		}
		d := new(big.Int).Div(r.Num(), r.Denom())
		hi, lo := new(big.Int).DivMod(d, b1p64, new(big.Int))
		out = append(out, eiselPow{hi: hi.Uint64(), lo: lo.Uint64(), exp: 128 - be})
	}
	return out
}

func TestEiselPowsMatchRational(t *testing.T) {
	want := makeEiselPowsRat()
	got := makeEiselPows()
	if len(got) != len(want) {
		t.Fatalf("%d powers, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("10^%d: %+v, want %+v", i+eiselMin, got[i], want[i])
		}
		if got[i].hi>>63 != 1 {
			t.Errorf("10^%d: top bit of the mantissa not set: %+v", i+eiselMin, got[i])
		}
	}
	// Spot checks independent of both computations: 10^0 = 2^127·2^−127, 10^1 = 0xA·2^124.
	if p := got[-eiselMin]; p.hi != 1<<63 || p.lo != 0 || p.exp != 1 {
		t.Errorf("10^0 = %+v, want {hi: 1<<63, lo: 0, exp: 1}", p)
	}
	if p := got[1-eiselMin]; p.hi != 0xA<<60 || p.lo != 0 || p.exp != 4 {
		t.Errorf("10^1 = %+v, want {hi: 0xA<<60, lo: 0, exp: 4}", p)
	}
}

func BenchmarkMakeEiselPows(b *testing.B) {
	for b.Loop() {
		makeEiselPows()
	}
}
