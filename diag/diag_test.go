package diag

import (
	"math"
	"testing"
)

// TestMerge checks the strata rule: counts add up (the PRAM invariance error: the maximum, the
// partition's k: the minimum), settings and rates are the first stratum's, and a part missing so
// far is copied.
func TestMerge(t *testing.T) {
	var d Diagnostics
	first := Diagnostics{
		Partition: &Partition{K: 3, Groups: 10},
		Search:    &Search{ILStart: 1.5, GBest: 4, CPU: 0.25, Pattern: true, G0: 5, Evals: 7},
		Posterior: &Posterior{Target: []float64{0.5}, Mean: []float64{0.4}, Level: 0.95, AccRate: math.NaN(), ESSMethod: "geyer"},
		PRAM:      &PRAM{ExpectedChanged: 2, InvarianceErr: 1e-3, Matrices: []PRAMMatrix{{Column: "a", Levels: []string{"x"}, P: [][]float64{{1}}}}},
	}
	d.Merge(first)
	if d.Partition == first.Partition {
		t.Error("Merge into an empty part must copy, not share")
	}
	d.Merge(Diagnostics{
		Partition: &Partition{K: 3, Groups: 12},
		Search:    &Search{ILStart: 2, GBest: 6, CPU: 0.5, Pattern: true, G0: 1, Evals: 3},
		Posterior: &Posterior{Target: []float64{0.7}, Mean: []float64{0.6}, Level: 0.95, AccRate: math.NaN(), ESSMethod: "ar_spectrum"},
		FCRM:      &FCRM{Iters: 30},
		PRAM:      &PRAM{ExpectedChanged: 3, InvarianceErr: 1e-4, Matrices: []PRAMMatrix{{Column: "b", Stratum: "s2"}}},
	})
	if *d.Partition != (Partition{K: 3, Groups: 22}) {
		t.Errorf("Partition %+v", *d.Partition)
	}
	if *d.Search != (Search{ILStart: 3.5, GBest: 10, CPU: 0.75, Pattern: true, G0: 6, Evals: 10}) {
		t.Errorf("Search %+v", *d.Search)
	}
	if p := d.Posterior; p.Target[0] != 0.5 || p.Mean[0] != 0.4 || p.Level != 0.95 || !math.IsNaN(p.AccRate) || p.ESSMethod != "geyer" {
		t.Errorf("Posterior %+v", *p)
	}
	if d.FCRM == nil || d.FCRM.Iters != 30 || d.Audit != nil {
		t.Errorf("FCRM %+v, Audit %+v", d.FCRM, d.Audit)
	}
	if p := d.PRAM; p.ExpectedChanged != 5 || p.InvarianceErr != 1e-3 || len(p.Matrices) != 2 ||
		p.Matrices[0].Column != "a" || p.Matrices[1].Column != "b" || p.Matrices[1].Stratum != "s2" {
		t.Errorf("PRAM %+v: want the counts added, the larger error and the matrices in order", *p)
	}
	if len(first.PRAM.Matrices) != 1 {
		t.Errorf("Merge changed the first stratum's matrices: %+v", first.PRAM.Matrices)
	}
	if *first.Partition != (Partition{K: 3, Groups: 10}) {
		t.Error("Merge modified its first argument's parts")
	}
}

// TestMergePartitionK: a stratified partition's k is the smallest k a stratum reported (a stratum
// that reports none leaves it), never a sum.
func TestMergePartitionK(t *testing.T) {
	cases := []struct {
		ks   []int
		want int
	}{
		{[]int{3, 3, 3}, 3},
		{[]int{5, 3}, 3},
		{[]int{0, 4}, 4},
		{[]int{4, 0}, 4},
		{[]int{0, 0}, 0},
	}
	for _, c := range cases {
		var d Diagnostics
		for _, k := range c.ks {
			d.Merge(Diagnostics{Partition: &Partition{K: k, Groups: 1}})
		}
		if d.Partition.K != c.want || d.Partition.Groups != len(c.ks) {
			t.Errorf("strata k %v: %+v, want K %d, Groups %d", c.ks, *d.Partition, c.want, len(c.ks))
		}
	}
}
