package experiments

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress reports runs done/total, failures and ETA: a progress bar when w is a terminal,
// otherwise a plain line at most every 10 seconds and at the end. A nil writer reports nothing.
type progress struct {
	w        io.Writer
	bar      *progressbar.ProgressBar
	name     string
	total    int
	done     int // including skipped
	skipped  int
	failed   int
	start    time.Time
	lastLine time.Time
}

func newProgress(w io.Writer, name string, total, skipped int) *progress {
	p := &progress{w: w, name: name, total: total, done: skipped, skipped: skipped, start: time.Now()}
	if w == nil {
		return p
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(name),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetWidth(30),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
		)
		p.bar.Set(skipped)
		return p
	}
	if skipped > 0 {
		fmt.Fprintf(w, "sdcbench: %s: resuming, %d of %d runs already done\n", name, skipped, total)
	}
	return p
}

func (p *progress) add(failed bool) {
	p.done++
	if failed {
		p.failed++
	}
	switch {
	case p.w == nil:
	case p.bar != nil:
		if failed {
			p.bar.Describe(fmt.Sprintf("%s (%d failed)", p.name, p.failed))
		}
		p.bar.Add(1)
	case time.Since(p.lastLine) >= 10*time.Second:
		p.line()
	}
}

func (p *progress) line() {
	p.lastLine = time.Now()
	el := time.Since(p.start)
	eta := "?"
	if n := p.done - p.skipped; n > 0 {
		eta = (time.Duration(float64(el) / float64(n) * float64(p.total-p.done))).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "sdcbench: %s: %d/%d runs done, %d failed, elapsed %s, ETA %s\n",
		p.name, p.done, p.total, p.failed, el.Round(time.Second), eta)
}

func (p *progress) finish() {
	switch {
	case p.w == nil:
	case p.bar != nil:
		if p.done < p.total {
			fmt.Fprintln(p.w)
		}
	default:
		p.line()
	}
}
