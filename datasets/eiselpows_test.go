package datasets

import (
	"math/big"
	"testing"
)

// makeEiselPowsRat is the first initializer of eiselPows: exact rational doublings and halvings
// until the power of ten lies in [2^127, 2^128), kept as a reference.
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
	got := eiselPows[:]
	if len(got) != len(want) {
		t.Fatalf("%d powers, want %d", len(got), len(want))
	}
	ints := makeEiselPows()
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("10^%d: %+v, want %+v", i+eiselMin, got[i], want[i])
		}
		if ints[i] != want[i] {
			t.Errorf("10^%d: makeEiselPows %+v, want %+v", i+eiselMin, ints[i], want[i])
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

// makeEiselPows is the second initializer of eiselPows, kept as a reference: with integers
// only, for q ≥ 0, 10^q has L bits and its mantissa is its top 128 bits (10^q shifted by 128 − L, truncated), exponent L; for q < 0,
// 10^−q has L bits and is not a power of two, so 2^(127+L)/10^−q lies in [2^127, 2^128): the
// mantissa is that quotient rounded down, exponent 1 − L.
func makeEiselPows() []eiselPow {
	ten := big.NewInt(10)
	mask := new(big.Int).SetUint64(^uint64(0))
	out := make([]eiselPow, 0, eiselMax-eiselMin+1)
	p, d, lo := new(big.Int), new(big.Int), new(big.Int)
	for q := eiselMin; q <= eiselMax; q++ {
		p.Exp(ten, big.NewInt(int64(max(q, -q))), nil)
		l := p.BitLen()
		var exp int
		if q >= 0 {
			if l >= 128 {
				d.Rsh(p, uint(l-128))
			} else {
				d.Lsh(p, uint(128-l))
			}
			exp = l
		} else {
			d.Lsh(big.NewInt(1), uint(127+l))
			d.Quo(d, p)
			exp = 1 - l
		}
		lo.And(d, mask)
		out = append(out, eiselPow{hi: new(big.Int).Rsh(d, 64).Uint64(), lo: lo.Uint64(), exp: exp})
	}
	return out
}
