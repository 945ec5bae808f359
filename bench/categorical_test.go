package bench

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/categorical"
)

var catKeys = []string{"urbrur", "roof", "walls", "water", "electcon", "relat", "sex"}

// catTables returns testdata's seven keys as categories and a 200,000-record table made by
// drawing testdata records with replacement (same categories, realistic frequencies).
func catTables(b *testing.B) map[string]*datasets.Dataset {
	d, err := datasets.Load("testdata")
	if err != nil {
		b.Fatal(err)
	}
	if d, err = d.Categorize(catKeys); err != nil {
		b.Fatal(err)
	}
	if d, err = d.Select(catKeys); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 200000
	data := make([]float64, 0, n*d.P)
	for i := 0; i < n; i++ {
		data = append(data, d.Row(rng.IntN(d.N))...)
	}
	big := datasets.New("testdata200k", d.Names, n, d.P, data)
	big.Levels = d.Levels
	return map[string]*datasets.Dataset{"testdata": d, "200k": big}
}

func benchMethod(b *testing.B, m methods.Method, raw map[string]string) {
	p, err := m.Info().Resolve(raw)
	if err != nil {
		b.Fatal(err)
	}
	for name, d := range catTables(b) {
		b.Run(name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(3, 4))
			for b.Loop() {
				if _, err := m.Protect(context.Background(), d, p, rng); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPRAM: PRAM of all seven keys (invariant matrices, pd 0.75, alpha 0.5).
func BenchmarkPRAM(b *testing.B) {
	benchMethod(b, categorical.PRAM{}, map[string]string{"pd": "0.75"})
}

// BenchmarkLocalSupp: the two-step sequence water 0.4, relat 0.7 (two risk evaluations).
func BenchmarkLocalSupp(b *testing.B) {
	benchMethod(b, categorical.LocalSupp{}, map[string]string{"key_var": "water,relat", "threshold": "0.4,0.7"})
}
