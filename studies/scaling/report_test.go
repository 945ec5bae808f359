package scaling_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/studies/scaling"
)

// TestExponents writes a runs.csv whose method time is 1e-7·n² and whose measure time is
// 1e-5·n, and checks the fitted exponents (2 and 1), the timeout cell and the files.
func TestExponents(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("run_id,dataset,method,replicate,seed,dbrl,dbrl_seconds,cpu_seconds,peak_heap_mb,seconds,status,error\n")
	for i, n := range []int{1000, 10000, 100000, 1000000} {
		fmt.Fprintf(&b, "r%d,normal_d10_n%d,mdav,1,1,5,%g,%g,%g,%g,ok,\n", i, n, 1e-5*float64(n), 2e-7*float64(n*n), float64(n)/1e4, 1e-7*float64(n)*float64(n))
	}
	b.WriteString("r9,normal_d10_n3000000,mdav,1,1,,,,,900,timeout,time limit 15m exceeded\n")
	if err := os.WriteFile(filepath.Join(dir, "runs.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ss, err := scaling.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"mdav": 2, "dbrl": 1}
	for _, s := range ss {
		if math.Abs(s.Exponent-want[s.Name]) > 1e-9 {
			t.Errorf("%s: exponent %v, want %v", s.Name, s.Exponent, want[s.Name])
		}
	}
	if err := scaling.Write(dir, "test"); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, scaling.File))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"| method | mdav |", "timeout", "2.00 (n ≥ 10^3)", "1.00 (n ≥ 10^3)"} {
		if !strings.Contains(string(md), s) {
			t.Errorf("report lacks %q:\n%s", s, md)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "plots", "scaling.png")); err != nil {
		t.Error(err)
	}
	os.WriteFile(filepath.Join(dir, "runs.csv"), []byte("run_id,dataset,method,seconds,status,error\nr,tarragona,mdav,1,ok,\n"), 0o644)
	if _, err := scaling.Load(dir); err == nil || !strings.Contains(err.Error(), "tarragona") {
		t.Errorf("non-generated dataset: err = %v", err)
	}
}
