package analysis

import (
	"slices"
	"testing"
)

// TestLogTicks checks the labelled ticks of a log axis: powers of ten in %g form, never more
// than maxLogLabels of them, every 2..9 multiple as a minor tick over a short span.
func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		name     string
		min, max float64
		labels   []string
		minors   int
	}{
		{"three decades", 0.05, 60, []string{"0.1", "1", "10"}, 5 + 8 + 8 + 5},
		{"S_pMSE of a mean-keeping release", 1e-26, 30, []string{"1e-20", "1e-10", "1"}, 0},
		{"ten decades", 1e-3, 1e7, []string{"0.001", "1", "1000", "1e6"}, 0},
		{"not positive", 0, 10, nil, 0},
	} {
		var labels []string
		minors := 0
		for _, tk := range (logTicks{}).Ticks(tc.min, tc.max) {
			if tk.Value < tc.min || tk.Value > tc.max {
				t.Errorf("%s: tick %g outside [%g, %g]", tc.name, tk.Value, tc.min, tc.max)
			}
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			} else if tc.minors > 0 {
				minors++
			}
		}
		if !slices.Equal(labels, tc.labels) {
			t.Errorf("%s: labels %q, want %q", tc.name, labels, tc.labels)
		}
		if len(labels) > maxLogLabels {
			t.Errorf("%s: %d labels", tc.name, len(labels))
		}
		if tc.minors > 0 && minors != tc.minors {
			t.Errorf("%s: %d minor ticks, want %d", tc.name, minors, tc.minors)
		}
	}
}
