package datasets

// eiselPows[q−eiselMin] is 10^q for q in [eiselMin, eiselMax] as eiselLemire needs it: the
// top 128 bits of 10^q rounded down, and the binary exponent ⌊log2 10^q⌋ + 1 (Go's strconv
// generates the same table with math/big, internal/strconv/pow10gen.go). Read-only after
// initialization.
var eiselPows [eiselMax - eiselMin + 1]eiselPow

// The mantissas are those of shortPows minus one: shortPows holds g = ⌊10^e·2^k⌋ + 1 with
// k = 127 − ⌊log2 10^e⌋, and the 128-bit mantissa of 10^e rounded down is ⌊10^e·2^k⌋ (for
// e ≥ 0 the top 128 bits of 10^e, for e < 0 the quotient 2^(127+L)/10^−e with L the bit
// length of 10^−e). ⌊log2 10^q⌋ is ⌊q·217706/2^16⌋ for |q| ≤ 1,500, as in strconv. So the
// table costs a loop at start-up, not the math/big computation it replaced (0.2 ms and 350
// allocations in every sdcbench process; docs/datapath.md "Start-up");
// TestEiselPowsMatchRational checks it against that computation and an exact rational one.
func init() {
	for i := range eiselPows {
		q := i + eiselMin
		g := shortPows[q-shortPowMin]
		hi, lo := g[0], g[1]-1
		if g[1] == 0 {
			hi--
		}
		eiselPows[i] = eiselPow{hi: hi, lo: lo, exp: (q*217706)>>16 + 1}
	}
}
