package robust

import (
	"math"
	"testing"
)

// TestMCDFactors checks the robustbase scaling factors against robustbase 0.99 (R):
// .MCDcnp2(p, n, 0.5), .MCDcnp2.rew(p, n, 0.5) and .MCDcons(p, alpha), to 1e-12 relative.
func TestMCDFactors(t *testing.T) {
	small := []struct {
		p, n     int
		raw, rew float64
	}{
		{1, 100, 1.08721643197424, 1.00279981475102},
		{1, 834, 1.02274941454355, 1.00011152370191},
		{1, 5000, 1.00758755130981, 1.00000735175},
		{2, 100, 1.08840261629424, 1.00334600946826},
		{2, 834, 1.01909983023155, 1.00005754132682},
		{2, 5000, 1.00546300718025, 1.00000186737142},
		{3, 100, 1.0989331988864, 1.00241411846065},
		{3, 834, 1.01667628021682, 1.00001310735836},
		{3, 5000, 1.00391056349074, 1.00000016057868},
		{5, 100, 1.11708037610078, 1.01689757195068},
		{5, 834, 1.01811550356047, 1.00021097193731},
		{5, 5000, 1.00399666764025, 1.00000528277819},
		{13, 100, 1.20079622966468, 1.07403365592388},
		{13, 834, 1.02550753788792, 1.0042836073935},
		{13, 5000, 1.00500188325805, 1.00040714182096},
	}
	for _, c := range small {
		if got := mcdSmallSample(c.p, c.n, false); !relClose(got, c.raw, 1e-12) {
			t.Errorf(".MCDcnp2(%d, %d) = %.15g, want %.15g", c.p, c.n, got, c.raw)
		}
		if got := mcdSmallSample(c.p, c.n, true); !relClose(got, c.rew, 1e-12) {
			t.Errorf(".MCDcnp2.rew(%d, %d) = %.15g, want %.15g", c.p, c.n, got, c.rew)
		}
	}
	cons := []struct {
		p           int
		alpha, want float64
	}{
		{1, 0.5, 7.01007453970323}, {1, 0.75, 2.71352710177552}, {1, 0.9, 1.60509654328883},
		{3, 0.5, 2.4573679206818}, {3, 0.75, 1.60918251664401}, {3, 0.9, 1.25439132235745},
		{13, 0.5, 1.4415511453385}, {13, 0.75, 1.21579970638378}, {13, 0.9, 1.09658025400314},
	}
	for _, c := range cons {
		if got := mcdConsistency(c.p, c.alpha); !relClose(got, c.want, 1e-12) {
			t.Errorf(".MCDcons(%d, %g) = %.15g, want %.15g", c.p, c.alpha, got, c.want)
		}
	}
}

func relClose(a, b, rel float64) bool { return math.Abs(a-b) <= rel*math.Abs(b) }
