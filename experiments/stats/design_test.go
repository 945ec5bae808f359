package stats

import (
	"encoding/csv"
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// designCase is one line of testdata/design_tests.csv, written by testdata/design_tests.R.
type designCase struct {
	name, kind, exact                         string
	x, y                                      []float64
	mu                                        float64
	stat, p, est, lo, hi, level, rankBiserial float64
}

func readDesignCases(t *testing.T) []designCase {
	t.Helper()
	f, err := os.Open("testdata/design_tests.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	num := func(line int, s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("design_tests.csv line %d: %v", line, err)
		}
		return v
	}
	vec := func(line int, s string) []float64 {
		var out []float64
		for _, f := range strings.Fields(s) {
			out = append(out, num(line, f))
		}
		return out
	}
	var out []designCase
	for i, r := range recs[1:] {
		l := i + 2
		out = append(out, designCase{name: r[0], kind: r[1], exact: r[2], x: vec(l, r[3]), y: vec(l, r[4]), mu: num(l, r[5]),
			stat: num(l, r[6]), p: num(l, r[7]), est: num(l, r[8]), lo: num(l, r[9]), hi: num(l, r[10]), level: num(l, r[11]),
			rankBiserial: num(l, r[12])})
	}
	if len(out) < 10 {
		t.Fatalf("design_tests.csv: %d cases", len(out))
	}
	return out
}

// close12 reports whether got equals want to 1e-12 (relative to max(1, |want|)); NaN equals NaN.
func close12(got, want float64) bool {
	if math.IsNaN(want) || math.IsNaN(got) {
		return math.IsNaN(want) && math.IsNaN(got)
	}
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}

// TestDesignTestsAgainstR checks RankSum (two randomized methods' replicates) and OneSample
// (randomized replicates against a deterministic value) with their Hodges–Lehmann estimates,
// intervals and rank-biserial effect sizes against R's wilcox.test, to 1e-12. The cases include
// the failure examples of the issue that introduced them: 20 equal zeros against 20 values of
// 15.7–16.6 (p = 8.0e-9, not "same"), and ten replicates of 0.846 against a deterministic 0.0091
// (p = 0.0019, where one observation per method could never be significant).
func TestDesignTestsAgainstR(t *testing.T) {
	for _, tc := range readDesignCases(t) {
		opt := &WilcoxonOptions{ConfInt: true}
		switch tc.exact {
		case "yes":
			opt.Exact = ExactAlways
		case "no":
			opt.Exact = ExactNever
		}
		var c Comparison
		if tc.kind == "ranksum" {
			c = RankSum(tc.x, tc.y, opt)
		} else {
			c = OneSample(tc.x, tc.mu, opt)
		}
		if c.Shift == nil {
			t.Fatalf("%s: no interval", tc.name)
		}
		for _, f := range []struct {
			what      string
			got, want float64
		}{
			{"statistic", c.Statistic, tc.stat}, {"p", c.P, tc.p}, {"estimate", c.Shift.Estimate, tc.est},
			{"ci_low", c.Shift.Lo, tc.lo}, {"ci_high", c.Shift.Hi, tc.hi}, {"conf_level", c.Shift.Level, tc.level},
			{"r", c.R, tc.rankBiserial},
		} {
			if !close12(f.got, f.want) {
				t.Errorf("%s: %s = %.17g, R %.17g", tc.name, f.what, f.got, f.want)
			}
		}
		if strings.HasPrefix(tc.name, "issue32_") && !(c.P < 0.01) {
			t.Errorf("%s: p = %g, the issue's example must be significant", tc.name, c.P)
		}
	}
}

// TestMaxExact: past MaxExact values an exact test falls back to the normal approximation with
// ErrExactTooLarge (the values are R's exact = FALSE ones, the "capped" cases of the CSV), so an
// exact request never allocates the O(m·n²) rank-sum distribution of large samples.
func TestMaxExact(t *testing.T) {
	seen := 0
	for _, tc := range readDesignCases(t) {
		if !strings.HasSuffix(tc.name, "_capped") {
			continue
		}
		seen++
		opt := &WilcoxonOptions{Exact: ExactAlways}
		var c Comparison
		if tc.kind == "ranksum" {
			c = RankSum(tc.x, tc.y, opt)
		} else {
			c = OneSample(tc.x, tc.mu, opt)
		}
		if c.Exact || !close12(c.P, tc.p) {
			t.Errorf("%s: exact=%v p=%.17g, want the approximation %.17g", tc.name, c.Exact, c.P, tc.p)
		}
		found := false
		for _, w := range c.Warnings {
			found = found || errors.Is(w, ErrExactTooLarge)
		}
		if !found {
			t.Errorf("%s: warnings %v lack ErrExactTooLarge", tc.name, c.Warnings)
		}
	}
	if seen != 2 {
		t.Fatalf("%d capped cases", seen)
	}
	// At the cap the exact test still runs.
	x := make([]float64, MaxExact)
	for i := range x {
		x[i] = float64(i) + 0.5
	}
	if c := OneSample(x, 0.25, &WilcoxonOptions{Exact: ExactAlways}); !c.Exact {
		t.Errorf("n = MaxExact: not exact (%s)", c.Method)
	}
}
