package recordswap

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// genDat returns data shaped like sdcMicro's createDat(n): n households of 1 to 6 persons in
// 3 × 5 × 15 × 5 nested areas, with household size, type and income and each person's age
// group (7), gender (2) and nationality (5), all uniform.
func genDat(n int, rng *rand.Rand) *datasets.Dataset {
	names := []string{"nuts1", "nuts2", "nuts3", "lau2", "hid", "hsize", "ageGroup", "gender", "national", "htype", "hincome"}
	var data []float64
	for h := 1; h <= n; h++ {
		n1 := 1 + rng.IntN(3)
		n2 := 10*n1 + 1 + rng.IntN(5)
		n3 := 100*n2 + 1 + rng.IntN(15)
		l2 := 10*n3 + 1 + rng.IntN(5)
		size, typ, inc := 1+rng.IntN(6), 1+rng.IntN(10), 1+rng.IntN(10)
		for range size {
			data = append(data, float64(n1), float64(n2), float64(n3), float64(l2), float64(h), float64(size),
				float64(1+rng.IntN(7)), float64(1+rng.IntN(2)), float64(1+rng.IntN(5)), float64(typ), float64(inc))
		}
	}
	return datasets.New("createdat", names, len(data)/len(names), len(names), data)
}

// BenchmarkRecordSwap swaps 100,000 households (about 350,000 records) with the parameters
// of the sdcMicro comparison's nuts123_k3 configuration.
func BenchmarkRecordSwap(b *testing.B) {
	d := genDat(100_000, rand.New(rand.NewPCG(1, 1)))
	p, err := RecordSwap{}.Info().Resolve(map[string]string{"hid": "hid", "hierarchy": "nuts1,nuts2,nuts3",
		"similar": "hsize", "risk_variables": "ageGroup,gender", "carry_along": "lau2"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (RecordSwap{}).Protect(context.Background(), d, p, rand.New(rand.NewPCG(1, 2))); err != nil {
			b.Fatal(err)
		}
	}
}
