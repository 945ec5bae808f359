package analysis

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// maxLogLabels bounds the labelled ticks of a log axis: past it the labels step over powers of
// ten (every 2nd, 3rd, 5th, 10th, …) so that they never run into each other.
const maxLogLabels = 5

// logTicks marks a log axis at powers of ten, labelled short ("1e-26", "0.01", "100", "1e4"). gonum's plot.LogTicks labels every power of ten in fixed notation, which on a span of
// 1e-26 to 30 (S_pMSE of a release that keeps every mean) writes 28 overlapping labels of up to 30
// digits. Over at most maxLogLabels decades the unlabelled 2..9 multiples are drawn as minor ticks.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) || math.IsInf(max, 0) {
		return nil
	}
	lo, hi := int(math.Floor(math.Log10(min))), int(math.Ceil(math.Log10(max)))
	step := 1
	for _, s := range []int{1, 2, 3, 5, 10, 20, 50, 100} {
		step = s
		if (hi-lo)/s+1 <= maxLogLabels {
			break
		}
	}
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		v, _ := strconv.ParseFloat("1e"+strconv.Itoa(e), 64) // exact, where math.Pow(10, -25) is not
		if e%step == 0 && v >= min*(1-1e-12) && v <= max*(1+1e-12) {
			ticks = append(ticks, plot.Tick{Value: v, Label: decadeLabel(e)})
		} else if v >= min && v <= max {
			ticks = append(ticks, plot.Tick{Value: v})
		}
		if step == 1 {
			for m := 2; m <= 9; m++ {
				if w := float64(m) * v; w >= min && w <= max {
					ticks = append(ticks, plot.Tick{Value: w})
				}
			}
		}
	}
	return ticks
}

// decadeLabel writes 10^e short: plainly from 0.001 to 1000, else as "1e4" or "1e-26".
func decadeLabel(e int) string {
	if e >= -3 && e <= 3 {
		v, _ := strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return "1e" + strconv.Itoa(e)
}
