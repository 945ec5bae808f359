package bench

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	_ "github.com/sdcbench/sdcbench/methods/perturb"
	"github.com/sdcbench/sdcbench/metrics"
)

// agreementCase is one sdcMicro call of bench/sdcmicro_perturb.R and our equivalent.
type agreementCase struct {
	method string
	params func(d *datasets.Dataset) map[string]string
}

var agreementCases = []agreementCase{
	{"noise_additive", func(*datasets.Dataset) map[string]string { return map[string]string{"noise_pct": "5"} }},
	{"noise_correlated2", func(*datasets.Dataset) map[string]string { return map[string]string{"delta": "0.1"} }},
	{"rankswap", func(*datasets.Dataset) map[string]string { return map[string]string{"p_frac": "0.1"} }},
	{"shuffle_ds", func(d *datasets.Dataset) map[string]string { return map[string]string{"preds": d.Names[d.P-1]} }},
}

var agreementMetrics = []string{"sse_sst", "il1s_sum_sdc", "interval_disclosure", "eigen"}

// TestSdcMicroAgreement measures sdcMicro's releases (written by bench/sdcmicro_perturb.R into
// $SDCBENCH_SDCMICRO_DIR) and as many of ours with sdcbench's metrics, and writes the means,
// standard errors and z = (ours − sdcMicro)/√(SE²+SE²) to $SDCBENCH_SDCMICRO_OUT (default
// results/perturbative-sdcmicro/agreement.csv, relative to the repository root). With
// SDCBENCH_LONG=1 and no folder given it runs the R script itself (10 releases each) into a
// temporary folder and writes nothing unless SDCBENCH_SDCMICRO_OUT is set; it is skipped when
// Rscript is absent. Fails when a |z| exceeds 4.
func TestSdcMicroAgreement(t *testing.T) {
	dir := os.Getenv("SDCBENCH_SDCMICRO_DIR")
	out := os.Getenv("SDCBENCH_SDCMICRO_OUT")
	if dir == "" {
		if os.Getenv("SDCBENCH_LONG") == "" {
			t.Skip("set SDCBENCH_SDCMICRO_DIR to the output folder of bench/sdcmicro_perturb.R, or SDCBENCH_LONG=1 to run it")
		}
		rs, err := exec.LookPath("Rscript")
		if err != nil {
			t.Skip("Rscript not found: the sdcMicro agreement check needs R with sdcMicro")
		}
		dir = t.TempDir()
		cmd := exec.Command(rs, filepath.Join("bench", "sdcmicro_perturb.R"), dir, "10", "0")
		cmd.Dir = ".."
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("bench/sdcmicro_perturb.R failed (is sdcMicro installed?): %v: %s", err, msg)
		}
		if out == "" {
			out = filepath.Join(t.TempDir(), "agreement.csv")
		}
	}
	if out == "" {
		out = filepath.Join("..", "results", "perturbative-sdcmicro", "agreement.csv")
	}
	var rows [][]string
	rows = append(rows, []string{"dataset", "method", "metric", "reps", "mean_sdcmicro", "se_sdcmicro", "mean_ours", "se_ours", "z"})
	for _, ds := range []string{"census", "tarragona", "eia", "eia10"} {
		d, err := datasets.Load(ds)
		if err != nil {
			t.Fatal(err)
		}
		for _, ac := range agreementCases {
			var theirs, ours [][]float64 // [metric][rep]
			theirs = make([][]float64, len(agreementMetrics))
			ours = make([][]float64, len(agreementMetrics))
			m, err := methods.Lookup(ac.method)
			if err != nil {
				t.Fatal(err)
			}
			p, err := m.Info().Resolve(ac.params(d))
			if err != nil {
				t.Fatal(err)
			}
			for rep := 1; ; rep++ {
				f := filepath.Join(dir, fmt.Sprintf("%s__%s__%02d.csv", ds, ac.method, rep))
				y, err := datasets.ReadFile(f, datasets.ReadOptions{})
				if os.IsNotExist(err) || err != nil && rep > 1 && !fileExists(f) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				measure(theirs, d, y, ac.method == "shuffle_ds")
				rel, err := m.Protect(context.Background(), d, p, rand.New(rand.NewPCG(uint64(rep), 20221)))
				if err != nil {
					t.Fatal(err)
				}
				measure(ours, d, rel.Masked, ac.method == "shuffle_ds")
			}
			if len(ours[0]) == 0 {
				t.Fatalf("no sdcMicro releases for %s %s in %s", ds, ac.method, dir)
			}
			for k, id := range agreementMetrics {
				mt, st := meanSE(theirs[k])
				mo, so := meanSE(ours[k])
				z := (mo - mt) / math.Hypot(st, so)
				if mo == mt {
					z = 0
				}
				rows = append(rows, []string{ds, ac.method, id, strconv.Itoa(len(ours[k])), ff(mt), ff(st), ff(mo), ff(so), ff(z)})
				if math.Abs(z) > 4 {
					t.Errorf("%s %s %s: ours %g ± %g, sdcMicro %g ± %g, z = %.2f", ds, ac.method, id, mo, so, mt, st, z)
				}
			}
		}
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := csv.NewWriter(f)
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func ff(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }

// measure appends each agreement metric of (d, y) to acc; dropLast measures all columns but
// the last (the shuffling predictor, passed through).
func measure(acc [][]float64, d, y *datasets.Dataset, dropLast bool) {
	if dropLast {
		cols := d.Names[:d.P-1]
		d, _ = d.Select(cols)
		y, _ = y.Select(cols)
	}
	in := &metrics.Input{Orig: d, Masked: y}
	for k, id := range agreementMetrics {
		m, _ := metrics.Lookup(id)
		acc[k] = append(acc[k], m.Eval(in).Value)
	}
}

func meanSE(v []float64) (float64, float64) {
	var s float64
	for _, x := range v {
		s += x
	}
	mu := s / float64(len(v))
	var ss float64
	for _, x := range v {
		ss += (x - mu) * (x - mu)
	}
	return mu, math.Sqrt(ss / float64(len(v)-1) / float64(len(v)))
}
