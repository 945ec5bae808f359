package methods_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/all" // register every method
	"github.com/sdcbench/sdcbench/metrics"
)

// Protect census with MDAV at k = 3 (deterministic: no generator) and with 10 % additive
// noise (randomized: a seeded generator), then measure both.
func Example() {
	d, err := datasets.Load("census")
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	mdav, err := methods.Apply(ctx, "mdav", d, methods.Set{"k": 3}, nil)
	if err != nil {
		panic(err)
	}
	noisy, err := methods.Apply(ctx, "noise_additive", d, methods.Set{"noise_pct": 10.0}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	for _, r := range []struct {
		name string
		rel  *methods.Release
	}{{"mdav k=3", mdav}, {"noise 10%", noisy}} {
		v, err := metrics.Evaluate(d, r.rel.Masked, "sse_sst", "il1s")
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: sse_sst %.4f, il1s %.4f\n", r.name, v["sse_sst"], v["il1s"])
	}
	_, err = methods.Apply(ctx, "noise_additive", d, nil, nil)
	fmt.Println(err)
	// Output:
	// mdav k=3: sse_sst 5.6922, il1s 0.1145
	// noise 10%: sse_sst 1.0040, il1s 0.0568
	// noise_additive is randomized: pass a *rand.Rand, e.g. rand.New(rand.NewPCG(seed, 0))
}
