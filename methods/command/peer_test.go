package command_test

import (
	"context"
	"math"
	"math/rand/v2"
	"os/exec"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/all"
)

// TestSdcMicroPeer runs sdcMicro's MDAV through peers/sdcmicro/sdcmicro.R and the command
// method and checks that it equals sdcbench's ma_mdav value for value. It needs R with
// sdcMicro and skips without them.
func TestSdcMicroPeer(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts R")
	}
	if err := exec.Command("Rscript", "-e", "suppressPackageStartupMessages(library(sdcMicro))").Run(); err != nil {
		t.Skip("R with sdcMicro is not installed (Rscript -e 'library(sdcMicro)' failed): the sdcMicro peer is not checked")
	}
	d, err := datasets.Load("tarragona")
	if err != nil {
		t.Fatal(err)
	}
	ctx := methods.WithRun(context.Background(), methods.Run{Seed: 1, Replicate: 1, Dataset: "tarragona", Dir: "../../peers/sdcmicro"})
	peer, err := methods.Apply(ctx, "command", d, methods.Set{"cmd": "Rscript sdcmicro.R microaggregation {in} {out} {seed} aggr=3 method=mdav"}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	ours, err := methods.Apply(ctx, "ma_mdav", d, methods.Set{"k": 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// R writes 15 significant digits, so values agree to 1e-13 relative. Records that are
	// identical in the original (tarragona has duplicates) may land in each other's groups: a
	// row that differs must equal ours for an identical twin.
	p := d.P
	close := func(a, b []float64) bool {
		for j := range a {
			if math.Abs(a[j]-b[j]) > 1e-13*math.Max(1, math.Abs(b[j])) {
				return false
			}
		}
		return true
	}
	swapped := 0
	for i := 0; i < d.N; i++ {
		got, want := peer.Masked.Data[i*p:(i+1)*p], ours.Masked.Data[i*p:(i+1)*p]
		if close(got, want) {
			continue
		}
		twin := false
		for k := 0; k < d.N && !twin; k++ {
			twin = k != i && slices.Equal(d.Row(k), d.Row(i)) && close(got, ours.Masked.Data[k*p:(k+1)*p])
		}
		if !twin {
			t.Fatalf("row %d: sdcMicro %v, ma_mdav %v (and no identical record has sdcMicro's values)", i+1, got, want)
		}
		swapped++
	}
	t.Logf("sdcMicro's mdav equals ma_mdav on %d of %d records; %d identical records swap groups", d.N-swapped, d.N, swapped)
}
