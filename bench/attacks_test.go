package bench

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/dp"
	"github.com/sdcbench/sdcbench/methods/dpaudit"
	"github.com/sdcbench/sdcbench/metrics"
)

// BenchmarkAttacks measures each attack metric (500 attacks) on EIA's MDAV k = 3 release, with
// the original itself as the control set (the cost does not depend on its content).
func BenchmarkAttacks(b *testing.B) {
	orig, masked, _ := mdavRelease(b)
	opt := metrics.Options{Attack: metrics.AttackOptions{Aux: orig.Names[:4]}}
	for _, id := range metrics.AttackMetrics {
		m, _ := metrics.Lookup(id)
		b.Run(id, func(b *testing.B) {
			for b.Loop() {
				m.Eval(&metrics.Input{Orig: orig, Masked: masked, Control: orig, Opt: opt})
			}
		})
	}
}

// BenchmarkDPAudit measures one audit of bb_synth at ε = 1 with 2,000 releases per dataset.
func BenchmarkDPAudit(b *testing.B) {
	d, _ := datasets.Load("dp_audit_bin_n1")
	m, _ := methods.Lookup("bb_synth")
	p, _ := methods.NewParams(m, methods.Set{"eps": 1.0})
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		if _, err := dpaudit.Run(context.Background(), m, p, d, dpaudit.Config{Releases: 2000, Level: 0.95}, rng); err != nil {
			b.Fatal(err)
		}
	}
}
