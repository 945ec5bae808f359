package experiments

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

// Options controls Execute.
type Options struct {
	Out     string // results folder (required)
	Workers int    // concurrent runs; 0 = number of CPUs
	Shard   Shard  // zero value = every run
	Fresh   bool   // discard earlier results in Out
	// KeepTimeouts keeps the runs recorded with status timeout on a resume; by default they
	// are run again, like missing runs (a run may have timed out only because the machine was
	// busy).
	KeepTimeouts bool
	Progress     io.Writer // progress output (a bar on a terminal, plain lines otherwise); nil = none
	// KeepReleases stores the release of every run that finishes ok in Out/releases (as the
	// spec key keep_releases does; release.go), for Rescore.
	KeepReleases bool
}

// Summary counts what Execute did.
type Summary struct {
	Total    int // runs in this shard
	Skipped  int // already in runs.csv (resume)
	Done     int // run and recorded now
	Failed   int // recorded with status error
	Timeouts int // recorded with status timeout
	Elapsed  time.Duration
	Complete bool // every run of the shard is recorded
}

// Status values of runs.csv.
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusTimeout = "timeout"
)

// Execute runs the spec's grid (the runs of opt.Shard not yet recorded in opt.Out) on a pool
// of opt.Workers goroutines and appends one row per finished run to opt.Out/runs.csv. When ctx
// is cancelled it stops starting runs, abandons those in flight (they are not recorded) and
// returns ctx.Err() after flushing; every recorded row is complete. When every run of the
// shard is recorded the folder is rewritten in grid order.
func Execute(ctx context.Context, s *Spec, opt Options) (Summary, error) {
	start := time.Now()
	if opt.Out == "" {
		return Summary{}, errors.New("experiments: no output folder")
	}
	if s.noData {
		return Summary{}, fmt.Errorf("experiments: spec %q was read without its datasets (ParseGrid): parse it with Parse to run it", s.Name)
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	all := s.Expand()
	if opt.Shard.N > len(all) {
		// shards beyond the number of runs hold none (as slurm --shards refuses)
		return Summary{}, fmt.Errorf("experiments: --shard %s: %d shards are more than the %d runs of spec %q: use at most %d",
			opt.Shard, opt.Shard.N, len(all), s.Name, len(all))
	}
	order := make(map[string]int, len(all))
	var mine []Run
	for _, r := range all {
		order[r.ID] = r.Index
		if opt.Shard.Contains(r.ID) {
			mine = append(mine, r)
		}
	}
	if err := os.MkdirAll(opt.Out, 0o755); err != nil {
		return Summary{}, fmt.Errorf("experiments: %w", err)
	}
	unlock, err := resultsdir.Lock(opt.Out)
	if err != nil {
		return Summary{}, err
	}
	defer unlock()
	st, done, err := openStore(opt.Out, s, opt.Fresh, opt.KeepTimeouts)
	if err != nil {
		return Summary{}, err
	}
	man := newManifest(s, opt.Shard, workers, len(mine))
	if old, err := resultsdir.ReadManifest(opt.Out); err == nil {
		man.Started, man.Cumulative = old.Started, old.Cumulative
		man.Reports = old.Reports // the companion reports stay in the folder
		if err := resultsdir.SameDefinitions(old, man); len(done) > 0 && err != nil {
			st.Close()
			return Summary{}, fmt.Errorf("experiments: %s holds runs made under other definitions (then vs now: %v); "+
				"resume would mix them: use --fresh to discard them or another --out", opt.Out, err)
		}
	}
	if err := resultsdir.WriteManifest(opt.Out, man); err != nil {
		st.Close()
		return Summary{}, err
	}
	if opt.Fresh {
		if err := resultsdir.RemoveStartLog(opt.Out); err != nil {
			st.Close()
			return Summary{}, err
		}
	}
	starts, unfinished, err := resultsdir.OpenStartLog(opt.Out)
	if err != nil {
		st.Close()
		return Summary{}, err
	}
	defer starts.Close()
	sum := Summary{Total: len(mine)}
	var todo, abandoned []Run
	for _, r := range mine {
		switch {
		case done[r.ID]:
			sum.Skipped++
		case unfinished[r.ID] >= maxUnfinished:
			abandoned = append(abandoned, r)
		default:
			todo = append(todo, r)
		}
	}
	prog := newProgress(opt.Progress, s.Name, len(mine), sum.Skipped)
	threads := max(1, runtime.NumCPU()/min(workers, max(1, len(todo))))
	x := &executor{spec: s, threads: threads, limit: s.timeLimit, solo: min(workers, len(todo)) <= 1}
	if opt.KeepReleases || s.KeepReleases {
		x.keep = opt.Out
	}
	for _, r := range abandoned {
		// started maxUnfinished times by processes that died during it: an error row, so
		// that the other runs go on instead of the same crash on every resume
		res := x.row(r, nil, 0, StatusError, fmt.Sprintf("did not finish in %d earlier attempts: out of memory or killed? "+
			"Recorded as an error so that the other runs go on; run with --fresh (or another --out) to try it again", unfinished[r.ID]))
		if err := st.Append(res.row, r.ID, nil); err != nil {
			st.Close()
			return sum, err
		}
		starts.End(r.ID)
		sum.Done++
		sum.Failed++
		prog.add(true)
	}

	jobs := make(chan Run)
	var (
		mu       sync.Mutex
		writeErr error
		wg       sync.WaitGroup
	)
	for w := 0; w < min(workers, len(todo)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range jobs {
				if err := starts.Start(r.ID); err != nil {
					mu.Lock()
					writeErr = cmp.Or(writeErr, err)
					mu.Unlock()
					continue
				}
				res, ok := x.do(ctx, r)
				if !ok {
					starts.End(r.ID)
					continue // cancelled: not recorded
				}
				mu.Lock()
				if writeErr == nil {
					writeErr = st.Append(res.row, r.ID, res.trace)
				}
				if writeErr == nil {
					writeErr = starts.End(r.ID)
				}
				if writeErr == nil {
					sum.Done++
					man.Cumulative += res.seconds
					switch res.status {
					case StatusError:
						sum.Failed++
					case StatusTimeout:
						sum.Timeouts++
					}
					prog.add(res.status != StatusOK)
				}
				mu.Unlock()
				if res.busy != nil {
					// The run was abandoned at its time limit and computes on until its next
					// context check: it keeps this worker until it returns, so that it does not
					// slow down (and falsely time out) the runs after it.
					select {
					case <-res.busy:
					case <-ctx.Done():
					}
				}
			}
		}()
	}
feed:
	for _, r := range todo {
		mu.Lock()
		stop := writeErr != nil
		mu.Unlock()
		if stop {
			break
		}
		select {
		case jobs <- r:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	prog.finish()
	cerr := st.Close()
	sum.Elapsed = time.Since(start)
	sum.Complete = sum.Skipped+sum.Done == sum.Total
	if writeErr != nil {
		return sum, writeErr
	}
	if cerr != nil {
		return sum, fmt.Errorf("experiments: %w", cerr)
	}
	if sum.Complete {
		if err := resultsdir.Normalize(opt.Out, order); err != nil {
			return sum, err
		}
		man.Complete, man.Finished = true, time.Now().UTC()
		starts.Close()
		if err := resultsdir.RemoveStartLog(opt.Out); err != nil {
			return sum, err
		}
	}
	if err := resultsdir.WriteManifest(opt.Out, man); err != nil {
		return sum, err
	}
	if err := ctx.Err(); err != nil && !sum.Complete {
		return sum, err
	}
	return sum, nil
}

// executor runs single runs.
type executor struct {
	spec    *Spec
	threads int
	limit   time.Duration
	solo    bool   // one worker: profile columns describe single runs
	keep    string // results folder to store ok runs' releases in; "" = none
}

type result struct {
	row     []string
	trace   [][]string
	status  string
	seconds float64
	// busy, for a run that timed out, is closed when its abandoned method or measure returns.
	busy <-chan struct{}
}

// do runs r. ok is false when ctx was cancelled before the run finished.
func (x *executor) do(ctx context.Context, r Run) (res result, ok bool) {
	if ctx.Err() != nil {
		return res, false
	}
	status, msg := StatusOK, ""
	// One deadline covers the method and the measures (time_limit).
	rctx := ctx
	if x.limit > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, x.limit)
		defer cancel()
	}
	var busy <-chan struct{}
	pr, sel, err := x.spec.runPrepared(r)
	var ctl *datasets.Dataset // held-out control rows (spec key holdout)
	var shadow func(names []string) metrics.ShadowFunc
	if err == nil {
		full := pr
		shadow = func(names []string) metrics.ShadowFunc { return x.spec.shadowFunc(full, sel, r, names) }
		pr, ctl, err = x.spec.holdoutSplit(pr, sel, r.method, r.Seed)
	}
	var rel *methods.Release
	var full *datasets.Dataset
	var secs float64
	var probe *heapProbe
	if x.spec.Profile && x.solo && err == nil {
		probe = startProbe()
	}
	if err == nil {
		rel, full, secs, busy, err = x.protect(rctx, r, pr)
		if ctx.Err() != nil {
			if probe != nil {
				probe.finish()
			}
			return res, false
		}
	}
	var values, times []string
	if err == nil {
		values, times, msg, busy, err = x.evaluateBy(rctx, pr.Protected, rel, full, ctl, shadow, x.spec.EvalOptions(r.Dataset))
		if ctx.Err() != nil {
			if probe != nil {
				probe.finish()
			}
			return res, false
		}
	}
	if x.spec.Profile && err == nil {
		cpu, peak := math.NaN(), math.NaN()
		if probe != nil {
			cpu, peak = probe.finish()
		}
		values = append(append(values, times...), formatFloat(cpu), formatFloat(peak))
	} else if probe != nil {
		probe.finish()
	}
	if err != nil {
		status, msg = StatusError, err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			status, msg = StatusTimeout, fmt.Sprintf("time limit %s exceeded", x.limit)
			if rel != nil {
				msg += " by the measures"
			}
		}
		values = make([]string, len(x.metricColumns()))
	}
	if status == StatusOK && x.keep != "" {
		if err := writeRelease(x.keep, r, pr.Protected, rel); err != nil {
			status, msg = StatusError, err.Error()
			values = make([]string, len(x.metricColumns()))
		}
	}
	res = x.row(r, values, secs, status, msg)
	res.busy = busy
	if rel != nil && status == StatusOK && (x.spec.Traces == nil || *x.spec.Traces) {
		for _, t := range rel.Trace {
			res.trace = append(res.trace, []string{strconv.Itoa(t.Iter), formatFloat(t.Best),
				formatFloat(t.Mean), strconv.FormatFloat(t.Seconds, 'f', 6, 64)})
		}
	}
	return res, true
}

// protect runs the method with the run's generator, thread budget and time limit. A panic
// becomes an error carrying the message and the top of the stack.
//
// ctx carries the run's deadline. When it passes first, protect returns at once with the
// deadline's error and busy, which is closed when the abandoned method returns.
func (x *executor) protect(ctx context.Context, r Run, pr *methods.Prepared) (*methods.Release, *datasets.Dataset, float64, <-chan struct{}, error) {
	rctx := methods.WithThreads(ctx, x.threads)
	rctx = methods.WithRun(rctx, methods.Run{Seed: r.Seed, Replicate: r.Replicate, Dataset: r.Dataset, Dir: x.spec.dir})
	rng := rand.New(rand.NewPCG(r.Seed, r.Seed^0x9e3779b97f4a7c15))
	type out struct {
		rel  *methods.Release
		full *datasets.Dataset
		err  error
		secs float64
	}
	ch := make(chan out, 1)
	done := make(chan struct{})
	go func() {
		var o out
		defer func() {
			if p := recover(); p != nil {
				o.err = fmt.Errorf("%s: panic: %v [%s]", r.Method, p, stackTop())
			}
			ch <- o
			close(done)
		}()
		t0 := time.Now()
		o.rel, o.full, o.err = pr.Protect(rctx, r.method, r.Params, rng)
		o.secs = time.Since(t0).Seconds()
		if o.err == nil {
			o.err = methods.CheckOverflow(r.Method, pr.Protected, o.rel.Masked)
		}
		if o.err == nil {
			o.err = methods.CheckHoles(r.Method, pr.Protected, o.rel)
		}
		if o.err == nil {
			o.err = methods.CheckPartition(r.method.Info(), r.Params, o.rel.Masked.N, o.rel.Labels)
		}
	}()
	select {
	case o := <-ch:
		return o.rel, o.full, o.secs, nil, o.err
	case <-rctx.Done():
		// The method did not stop in time; it is abandoned (it stops at its next ctx check)
		// and holds its worker until then (Execute).
		return nil, nil, x.limit.Seconds(), done, rctx.Err()
	}
}

// evaluateBy is evaluate under the run's deadline (ctx). The measures run in a goroutine and
// under ctx (metrics.Input.Ctx): the long ones stop at their next check once it is done. When
// the deadline passes first, evaluateBy returns the deadline's error and busy, closed when the
// measure being computed returns (at once for those that check ctx, docs/metrics.md §0.7).
func (x *executor) evaluateBy(ctx context.Context, d *datasets.Dataset, rel *methods.Release, full, ctl *datasets.Dataset, shadow func([]string) metrics.ShadowFunc, opt metrics.Options) (vals, secs []string, note string, busy <-chan struct{}, err error) {
	if _, ok := ctx.Deadline(); !ok {
		vals, secs, note, err = x.evaluate(ctx, d, rel, full, ctl, shadow, opt)
		return vals, secs, note, nil, err
	}
	type out struct {
		vals, secs []string
		note       string
		err        error
	}
	ch := make(chan out, 1)
	done := make(chan struct{})
	go func() {
		var o out
		defer func() {
			if p := recover(); p != nil {
				o.err = fmt.Errorf("measures: panic: %v [%s]", p, stackTop())
			}
			ch <- o
			close(done)
		}()
		o.vals, o.secs, o.note, o.err = x.evaluate(ctx, d, rel, full, ctl, shadow, opt)
	}()
	select {
	case o := <-ch:
		return o.vals, o.secs, o.note, nil, o.err
	case <-ctx.Done():
		select {
		case o := <-ch: // finished as the deadline passed
			return o.vals, o.secs, o.note, nil, o.err
		default:
		}
		return nil, nil, "", done, ctx.Err()
	}
}

// maxUnfinished is how many times a run may be started by processes that died during it
// (resultsdir.StartedFile) before a resume records it as an error instead of running it again.
const maxUnfinished = 2

// row returns the runs.csv row of r; values nil means empty metric cells.
func (x *executor) row(r Run, values []string, secs float64, status, msg string) result {
	if values == nil {
		values = make([]string, len(x.metricColumns()))
	}
	row := []string{r.ID, r.Dataset, r.Method}
	for _, name := range x.spec.paramNames() {
		row = append(row, r.Params.Get(name))
	}
	for _, name := range x.spec.selNames() {
		row = append(row, r.Sel[name])
	}
	row = append(row, strconv.Itoa(r.Replicate), strconv.FormatUint(r.Seed, 10))
	row = append(row, values...)
	row = append(row, strconv.FormatFloat(secs, 'f', 6, 64), status, oneLine(msg))
	return result{row: row, status: status, seconds: secs}
}

func (x *executor) metricColumns() []string {
	h := x.spec.Header()
	i := 5 + len(x.spec.paramNames()) + len(x.spec.selNames())
	return h[i : len(h)-3]
}

// evaluate computes the spec's metrics on a release, in column order: d and rel.Masked are
// the protected columns, full the whole released table, ctl the held-out control rows of the
// protected columns (nil without holdout). A method that passed some of its columns through
// (the predictors of shuffle_ds, the released X block of IPSO and FCRM) names the ones it
// masked or synthesized in Release.Columns; only those are measured
// (docs/metrics.md §0.3). shadow, when not nil, gives the membership attack's shadow
// releases of the measured columns (Spec.shadowFunc). secs holds the wall seconds of each metric (profile = true). A metric
// that does not apply to the protected columns' kind leaves its cells empty and its reason in
// note (docs/metrics.md "Column kinds"), which the row carries in its error column. Once ctx is
// done, evaluate returns its error.
func (x *executor) evaluate(ctx context.Context, d *datasets.Dataset, rel *methods.Release, full, ctl *datasets.Dataset, shadow func([]string) metrics.ShadowFunc, opt metrics.Options) (vals, secs []string, note string, err error) {
	orig, masked := d, rel.Masked
	if cols := rel.Columns; cols != nil {
		names := make([]string, len(cols))
		for c, j := range cols {
			if j < 0 || j >= d.P {
				return nil, nil, "", fmt.Errorf("experiments: protected column index %d out of range", j)
			}
			names[c] = d.Names[j]
		}
		if orig, err = d.Select(names); err == nil {
			masked, err = rel.Masked.Select(names)
		}
		if err == nil && ctl != nil {
			ctl, err = ctl.Select(names)
		}
		if err != nil {
			return nil, nil, "", err
		}
	}
	in := &metrics.Input{Orig: orig, Masked: masked, MaskedAll: full, Labels: rel.Labels, Diag: rel.Diag, Opt: opt, Control: ctl, Ctx: ctx}
	if shadow != nil {
		in.Shadow = shadow(orig.Names)
	}
	for _, id := range x.spec.Metrics {
		m, _ := metrics.Lookup(id)
		t0 := time.Now()
		res, err := evalMetric(m, in)
		if err == nil {
			err = in.Err() // cancelled: the measure's value is partial
		}
		if err != nil {
			return nil, nil, "", err
		}
		secs = append(secs, strconv.FormatFloat(time.Since(t0).Seconds(), 'f', 6, 64))
		if res.NotApplicable != "" {
			vals = append(vals, make([]string, 1+len(m.Info().Components))...)
			note = strings.TrimPrefix(note+"; "+res.NotApplicable, "; ")
			continue
		}
		vals = append(vals, formatFloat(res.Value))
		for _, c := range m.Info().Components {
			v, ok := res.Aux[c]
			if !ok {
				vals = append(vals, "NaN")
				continue
			}
			vals = append(vals, formatFloat(v))
		}
	}
	return vals, secs, note, nil
}

func evalMetric(m metrics.Metric, in *metrics.Input) (res metrics.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("metric %s: panic: %v [%s]", m.Info().ID, p, stackTop())
		}
	}()
	return m.Eval(in), nil
}

// stackTop returns the innermost sdcbench frame of the current panic's stack, for error rows.
func stackTop() string {
	for _, line := range strings.Split(string(debug.Stack()), "\n") {
		line = strings.TrimSpace(line)
		if strings.Contains(line, "sdcbench/") && strings.Contains(line, ".go:") &&
			!strings.Contains(line, "experiments/runner.go") {
			if i := strings.LastIndex(line, " +0x"); i > 0 {
				line = line[:i]
			}
			return line
		}
	}
	return "no sdcbench frame"
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
