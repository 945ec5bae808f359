package attacks

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments/stats"
)

func TestRanksSpearman(t *testing.T) {
	if got := stats.Rank(nil, []float64{3, 1, 3, 2}); !slices.Equal(got, []float64{3.5, 1, 3.5, 2}) {
		t.Errorf("ranks = %v", got)
	}
	// Hand: ranks x 1 2 3 4, y 1 3 2 4 → Σd² = 2, ρ = 1 − 6·2/(4·15) = 0.8.
	if r := spearman([]float64{1, 2, 3, 4}, []float64{10, 30, 20, 40}); math.Abs(r-0.8) > 1e-12 {
		t.Errorf("spearman = %v, want 0.8", r)
	}
	if !math.IsNaN(spearman([]float64{1, 2}, []float64{1, 2})) {
		t.Error("spearman of 2 points not NaN")
	}
	lo, hi := fisherCI(0.8, 10)
	if !(lo < 0.8 && 0.8 < hi && hi < 1) {
		t.Errorf("fisherCI(0.8, 10) = [%v, %v]", lo, hi)
	}
}

// TestWrite: three configurations, one of which dld calls riskier while the attack's interval
// says the opposite.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	runs := `run_id,dataset,method,param_k,replicate,seed,dld,inference,inference_ci_low,inference_ci_high,seconds,status,error
a,d,m,2,1,1,50,0.5,0.4,0.6,0,ok,
b,d,m,3,1,1,30,0.1,0.0,0.2,0,ok,
c,d,m,4,1,1,60,0.05,-0.05,0.15,0,ok,
e,d,m,5,1,1,1,0.3,0.3,0.3,0,error,x
`
	os.WriteFile(filepath.Join(dir, "runs.csv"), []byte(runs), 0o644)
	if err := Write(dir); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "ATTACKS.md"))
	// dld ranks 2,1,3 vs inference 3,2,1: ρ = 1 − 6·(1+1+4)/(3·8) = −0.5. Disagreeing: (c > a by
	// dld, but a's attack interval above c's) and (c > b? b's low 0.0 < c's high 0.15: overlap).
	for _, want := range []string{"| inference | dld | -0.500 |", "| 1 | dld: m k=4 60.000 > 50.000 of m k=2", "| m k=2 | 1 |"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("ATTACKS.md lacks %q:\n%s", want, b)
		}
	}
	os.WriteFile(filepath.Join(dir, "runs.csv"), []byte("run_id,dataset,method,replicate,seed,dld,seconds,status,error\n"), 0o644)
	if err := Write(dir); err == nil || !strings.Contains(err.Error(), "need at least one attack metric") {
		t.Errorf("no attack column: %v", err)
	}
}
