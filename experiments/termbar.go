package experiments

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// termBar is the progress bar a run draws on a terminal:
//
//	quickstart  38% |███████████                   | (35/90) [4s:6s]
//
// the description, the percentage done, a bar of 30 cells, runs done/total, and the elapsed
// and predicted remaining time in whole seconds; once all runs are done only the elapsed time,
// then a newline. It redraws at most every 100 ms (and always at the end), over the widest
// line drawn so far (spaces between carriage returns), and narrows the bar to fit a narrower
// terminal. It draws what the github.com/schollz/progressbar/v3 bar with the options sdcbench
// used (count, predicted time, elapsed time at the end, 100 ms throttle, width 30) drew,
// including its prediction: the mean of the rates sampled between updates at least 0.5 s
// apart (the last ten), or the overall rate before the first sample. That package linked
// net/http, crypto and their init into every sdcbench process (docs/datapath.md "Start-up").
type termBar struct {
	w     io.Writer
	desc  string
	total int
	width int // cells of the bar when the terminal is wide enough

	n        int // runs done, the first Set included
	started  bool
	finished bool
	start    time.Time // of the first draw
	shown    time.Time // last draw
	maxWidth int       // widest line drawn, in runes

	sampleStart time.Time // rate sampling: start of the current sample
	sampleN     int       // runs added since sampleStart
	rates       []float64 // the last ten sampled rates (runs per second)

	now       func() time.Time
	termWidth func() int // columns of the terminal, ≤ 0 when unknown
}

const (
	barWidth    = 30
	barThrottle = 100 * time.Millisecond
	barSample   = 500 * time.Millisecond
)

// newTermBar returns the bar for total runs, drawn on w (a terminal).
func newTermBar(w io.Writer, desc string, total int) *termBar {
	b := &termBar{w: w, desc: desc, total: total, width: barWidth, now: time.Now, termWidth: func() int { return 0 }}
	if f, ok := w.(*os.File); ok {
		b.termWidth = func() int {
			cols, _, err := term.GetSize(int(f.Fd()))
			if err != nil {
				return 0
			}
			return cols
		}
	}
	return b
}

// Describe replaces the description from the next draw on.
func (b *termBar) Describe(desc string) { b.desc = desc }

// Set sets the runs done to n (n ≥ the runs done) and draws.
func (b *termBar) Set(n int) { b.Add(n - b.n) }

// Add adds k runs done and draws, unless drawn less than 100 ms ago and not yet complete.
func (b *termBar) Add(k int) {
	if b.total <= 0 || b.finished {
		return
	}
	b.n = min(b.n+k, b.total)
	now := b.now()
	if b.sampleStart.IsZero() {
		b.sampleStart = now
	}
	b.sampleN += k
	if d := now.Sub(b.sampleStart); d > barSample {
		b.rates = append(b.rates, float64(b.sampleN)/d.Seconds())
		if len(b.rates) > 10 {
			b.rates = b.rates[1:]
		}
		b.sampleStart, b.sampleN = now, 0
	}
	if !b.started {
		b.started, b.start = true, now
	} else if now.Sub(b.shown) < barThrottle && b.n < b.total {
		return
	}
	var s strings.Builder
	if b.maxWidth > 0 {
		s.WriteString("\r" + strings.Repeat(" ", b.maxWidth) + "\r")
	}
	if b.n >= b.total {
		b.finished = true
		s.WriteString(b.line(now))
		s.WriteString("\n")
		io.WriteString(b.w, s.String())
		return
	}
	line := b.line(now)
	s.WriteString(line)
	io.WriteString(b.w, s.String())
	b.maxWidth = max(b.maxWidth, utf8.RuneCountInString(line)-1) // the \r takes no column
	b.shown = now
}

// line renders the bar at time now, starting with a carriage return.
func (b *termBar) line(now time.Time) string {
	pct := int(float64(b.n) / float64(b.total) * 100)
	elapsed := (time.Duration(now.Sub(b.start).Seconds()) * time.Second).String()
	count := "(" + strconv.Itoa(b.n) + "/" + strconv.Itoa(b.total) + ")"
	tail := " [" + elapsed + "]"
	if !b.finished {
		tail = " [" + elapsed + ":" + b.remaining(now).String() + "]"
	}
	render := func(width int) string {
		cells := min(max(int(float64(pct)/100*float64(width)), 0), width)
		return fmt.Sprintf("\r%s%4d%% |%s%s| %s%s", b.desc, pct,
			strings.Repeat("█", cells), strings.Repeat(" ", width-cells), count, tail)
	}
	width := b.width
	if cols := b.termWidth(); cols > 0 {
		if over := utf8.RuneCountInString(render(width)) - 1 - cols; over > 0 {
			width = max(width-over, 0)
		}
	}
	return render(width)
}

// remaining predicts the time left from the sampled rates, whole seconds.
func (b *termBar) remaining(now time.Time) time.Duration {
	rate := 0.0
	if len(b.rates) > 0 {
		for _, r := range b.rates {
			rate += r
		}
		rate /= float64(len(b.rates))
	} else if t := now.Sub(b.start).Seconds(); t > 0 {
		rate = float64(b.n) / t
	}
	secs := (1 / rate) * float64(b.total-b.n)
	if !(secs >= 0) || secs > float64(1<<62)/1e9 { // no rate yet, or absurd
		return 0
	}
	return time.Duration(secs) * time.Second
}
