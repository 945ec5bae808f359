package bench

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods/magga"
)

// maggaConfig is the final experiment's setting (docs/magga.md): pop 100, pe 0.1,
// pm 0.2, rho_e 0.9, tsp initial population and mutants, fobj3.
func maggaConfig(b *testing.B, gens int) magga.Config {
	obj, err := magga.ParseObjective("fobj3")
	if err != nil {
		b.Fatal(err)
	}
	return magga.Config{Pop: 100, Gens: gens, Pe: 0.1, Pm: 0.2, RhoE: 0.9, Objective: obj}
}

func maggaProblem(b *testing.B, name string, k int) *magga.Problem {
	d, err := datasets.Load(name)
	if err != nil {
		b.Fatal(err)
	}
	return magga.NewProblem(d, k, true)
}

// BenchmarkMAGGAGeneration times one generation (pop = 100, k = 3, fobj3, tsp) after the
// initial population, on every core. Goals (issue 5): ≤ 20 ms on tarragona, ≤ 0.3 s on eia10
// with 2 cores.
func BenchmarkMAGGAGeneration(b *testing.B) {
	for _, name := range []string{"tarragona", "eia10"} {
		for _, gen := range []magga.Generator{magga.GenTSP, magga.GenD1} {
			b.Run("data="+name+"/mutant="+gen.String(), func(b *testing.B) {
				pr := maggaProblem(b, name, 3)
				cfg := maggaConfig(b, 0)
				cfg.Mutant = gen
				ga, err := magga.NewGA(pr, cfg, rand.New(rand.NewPCG(1, 1)))
				if err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for b.Loop() {
					ga.Step()
				}
				maggaSink = ga.Best()
			})
		}
	}
}

// BenchmarkMAGGARun times a whole run: 200 generations on eia10 with k = 3, pop = 100 and
// fobj3 (goal ≤ 60 s on 2 cores), and 200 on tarragona.
func BenchmarkMAGGARun(b *testing.B) {
	for _, name := range []string{"tarragona", "eia10"} {
		b.Run("data="+name, func(b *testing.B) {
			pr := maggaProblem(b, name, 3)
			cfg := maggaConfig(b, 200)
			for b.Loop() {
				res, err := magga.Run(context.Background(), pr, cfg, rand.New(rand.NewPCG(1, 1)))
				if err != nil {
					b.Fatal(err)
				}
				maggaSink = res.F
				b.ReportMetric(res.Seconds/float64(res.Generations), "s/gen")
			}
		})
	}
}

// maggaSink keeps benchmark results alive.
var maggaSink float64
