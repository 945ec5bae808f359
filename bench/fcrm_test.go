package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/synth"
)

// synthRun times one registered synth method on a registered dataset.
func synthRun(b *testing.B, method, data string, raw map[string]string) {
	m, err := methods.Lookup(method)
	if err != nil {
		b.Fatal(err)
	}
	p, err := m.Info().Resolve(raw)
	if err != nil {
		b.Fatal(err)
	}
	d, err := datasets.Load(data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		seed++
		if _, err := m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(seed, 1))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFCRM times fcrm on Census S1 (nine per-attribute runs) for the c of the issue,
// and one S3 cell (d = 1, n = 6).
func BenchmarkFCRM(b *testing.B) {
	for _, c := range []int{2, 15, 56} {
		b.Run(fmt.Sprintf("data=census_s1/c=%d", c), func(b *testing.B) {
			synthRun(b, "fcrm", "census_s1", map[string]string{"c": fmt.Sprint(c)})
		})
	}
	b.Run("data=census_s3_d1_n6/c=10", func(b *testing.B) {
		synthRun(b, "fcrm", "census_s3_d1_n6", map[string]string{"c": "10"})
	})
}

// BenchmarkFCM times the fuzzy c-means initialization alone (method fcm) on Census S1.
func BenchmarkFCM(b *testing.B) {
	for _, c := range []int{2, 15, 56} {
		b.Run(fmt.Sprintf("data=census_s1/c=%d", c), func(b *testing.B) {
			synthRun(b, "fcm", "census_s1", map[string]string{"c": fmt.Sprint(c)})
		})
	}
}

// BenchmarkIPSO times the three IPSO variants on Census S1 and S2.
func BenchmarkIPSO(b *testing.B) {
	for _, data := range []string{"census_s1", "census_s2"} {
		for _, m := range []string{"ipso_a", "ipso_b", "ipso_c"} {
			b.Run("data="+data+"/method="+m, func(b *testing.B) { synthRun(b, m, data, nil) })
		}
	}
}
