package dp

import (
	"math"
	"testing"
)

// TestRoundedUniformStep checks §10 item 11: with L = 11, P(x_c − x = j) = 1/22 for |j| ≤ 10
// and 1/44 for j = ±11 (measured on a grid of 2.2·10⁶ values of u).
func TestRoundedUniformStep(t *testing.T) {
	const L, N = 11, 2200000
	count := map[int]int{}
	for k := 0; k < N; k++ {
		count[roundedUniformStep((float64(k)+0.5)/N, L)]++
	}
	for j := -L; j <= L; j++ {
		want := 1.0 / 22
		if j == -L || j == L {
			want = 1.0 / 44
		}
		if got := float64(count[j]) / N; math.Abs(got-want) > 1e-6 {
			t.Errorf("P(step = %d) = %.7f, want %.7f", j, got, want)
		}
	}
	if len(count) != 2*L+1 {
		t.Errorf("steps %v, want −11..11", count)
	}
}

// TestNeighbours checks the size of the discrete_excl neighbourhood at the edges.
func TestNeighbours(t *testing.T) {
	for i, c := range []struct{ x, n, L, want int }{{50, 100, 11, 22}, {0, 100, 11, 11}, {3, 100, 11, 14}, {100, 100, 11, 11}} {
		if got := neighbours(c.x, c.n, c.L); got != c.want {
			t.Errorf("case %d: neighbours = %d, want %d", i, got, c.want)
		}
	}
}
