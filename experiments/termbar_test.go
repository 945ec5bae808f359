package experiments

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/schollz/progressbar/v3"
)

// fakeClock is a settable clock for termBar.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) at(d time.Duration) bool { c.t = time.Unix(1e9, 0).Add(d); return true }

func barLine(desc string, pct, cells, width int, count, tail string) string {
	return fmt.Sprintf("\r%s%4d%% |%s%s| %s %s", desc, pct, strings.Repeat("█", cells), strings.Repeat(" ", width-cells), count, tail)
}

// TestTermBar follows a bar of 10 runs on a fake clock: drawn at once, throttled within
// 100 ms, the prediction from the rate sampled over 0.6 s, the last draw with the elapsed
// time only and a newline, nothing after; and narrowed on a 40-column terminal.
func TestTermBar(t *testing.T) {
	var buf bytes.Buffer
	clk := &fakeClock{}
	b := newTermBar(&buf, "x", 10)
	b.now = clk.now
	clk.at(0)
	b.Set(0)
	first := barLine("x", 0, 0, 30, "(0/10)", "[0s:0s]")
	want := first
	clk.at(50 * time.Millisecond)
	b.Add(1) // throttled
	clk.at(600 * time.Millisecond)
	b.Add(1) // rate sample 2 runs / 0.6 s: 8 left take 2.4 s
	second := barLine("x", 20, 6, 30, "(2/10)", "[0s:2s]")
	want += "\r" + strings.Repeat(" ", len([]rune(first))-1) + "\r" + second
	b.Describe("x (1 failed)")
	clk.at(2500 * time.Millisecond)
	b.Add(8)
	want += "\r" + strings.Repeat(" ", len([]rune(second))-1) + "\r" + barLine("x (1 failed)", 100, 30, 30, "(10/10)", "[2s]") + "\n"
	b.Add(1)
	if got := buf.String(); got != want {
		t.Errorf("drew\n%q\nwant\n%q", got, want)
	}

	buf.Reset()
	b = newTermBar(&buf, "x", 10)
	b.now, b.termWidth = clk.now, func() int { return 40 }
	b.Set(5)
	full := len([]rune(barLine("x", 50, 15, 30, "(5/10)", "[0s:0s]"))) - 1
	w := 30 - (full - 40)
	if got, want := buf.String(), barLine("x", 50, int(0.5*float64(w)), w, "(5/10)", "[0s:0s]"); got != want {
		t.Errorf("on 40 columns drew %q, want %q", got, want)
	}
}

// TestTermBarMatchesProgressbar draws the same sequences with termBar and with the
// github.com/schollz/progressbar/v3 bar sdcbench used before, configured as it was, and
// compares the bytes. The sequences take far less than the 100 ms throttle and the 0.5 s
// rate sample, so both draw the first state and the last, with 0s elapsed and predicted; a
// run is retried when the machine stalled for longer than that.
func TestTermBarMatchesProgressbar(t *testing.T) {
	type step struct {
		add    int
		failed int // > 0: Describe with that many failures first
	}
	cases := []struct {
		name           string
		total, skipped int
		steps          []step
	}{
		{"quickstart", 90, 0, nil},
		{"dp-e1", 7, 3, []step{{1, 0}, {1, 1}, {1, 0}, {1, 2}}},
		{"all-resumed", 4, 4, nil},
		{"partial", 12, 0, []step{{1, 0}, {1, 0}}},
		{"one", 1, 0, []step{{1, 1}}},
	}
	for i := range cases {
		if cases[i].steps == nil && cases[i].skipped < cases[i].total {
			for range cases[i].total - cases[i].skipped {
				cases[i].steps = append(cases[i].steps, step{1, 0})
			}
		}
	}
	for _, c := range cases {
		var got, want string
		for try := 0; try < 3; try++ {
			var mine, theirs bytes.Buffer
			start := time.Now()
			b := newTermBar(&mine, c.name, c.total)
			pb := progressbar.NewOptions(c.total,
				progressbar.OptionSetWriter(&theirs),
				progressbar.OptionSetDescription(c.name),
				progressbar.OptionShowCount(),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionShowElapsedTimeOnFinish(),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionSetWidth(30),
				progressbar.OptionOnCompletion(func() { fmt.Fprintln(&theirs) }),
			)
			b.Set(c.skipped)
			pb.Set(c.skipped)
			for _, s := range c.steps {
				if s.failed > 0 {
					d := fmt.Sprintf("%s (%d failed)", c.name, s.failed)
					b.Describe(d)
					pb.Describe(d)
				}
				b.Add(s.add)
				pb.Add(s.add)
			}
			got, want = mine.String(), theirs.String()
			if got == want || time.Since(start) < 50*time.Millisecond {
				break
			}
		}
		if got != want {
			t.Errorf("%s: termBar drew\n%q\nprogressbar\n%q", c.name, got, want)
		}
	}
}
