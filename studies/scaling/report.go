// Package scaling is the scaling study (README.md): its specs and its report, SCALING.md.
//
// From a results folder whose spec ran with profile = true on generated datasets
// <family>_d<d>_n<n>, the report tabulates, per method and per measure, the time at each n and
// the exponent b of the least-squares fit t ≈ a·n^b on log-log axes, with the CPU seconds and
// peak heap of the method runs, and draws time against n on log-log axes. Everything in the
// report is computed from runs.csv.
package scaling

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/analysis"
)

// File is the report's file name in the results folder.
const File = "SCALING.md"

// Series is one curve: a method's protection time or a measure's evaluation time against n.
type Series struct {
	Name   string
	Kind   string    // "method" or "measure"
	N      []float64 // ascending
	Sec    []float64 // mean wall seconds at each n (ok runs)
	CPU    []float64 // mean cpu_seconds (methods: the whole run), NaN if absent
	Heap   []float64 // mean peak_heap_mb (the whole run), NaN if absent
	Failed []string  // per n: "" or the status of runs that did not finish ok
	// Exponent is the slope of log(seconds) on log(n) over the points with seconds ≥ MinFit;
	// NaN with fewer than three such points or when they span less than a decade of n.
	Exponent float64
	FitFrom  float64 // smallest n in the fit
	// CPUExponent is the same fit of the whole run's cpu_seconds (methods only): steadier than
	// wall time on a loaded machine.
	CPUExponent float64
}

// MinFit is the smallest time (s) that enters a fit: shorter ones are dominated by overheads.
const MinFit = 0.01

// Load reads the runs of dir and builds one series per method (its "seconds") and one per
// measure (<id>_seconds, averaged over the methods' releases).
func Load(dir string) ([]Series, error) {
	runs, err := analysis.ReadRuns(dir)
	if err != nil {
		return nil, err
	}
	type acc struct {
		sec, cpu, heap []float64
		status         []string
	}
	type key struct {
		name string
		n    float64
	}
	data := map[key]*acc{}
	var methods, measures []string
	get := func(k key) *acc {
		a := data[k]
		if a == nil {
			a = &acc{}
			data[k] = a
		}
		return a
	}
	num := func(i int, col string) float64 {
		v, err := strconv.ParseFloat(runs.Get(i, col), 64)
		if err != nil {
			return math.NaN()
		}
		return v
	}
	for _, h := range runs.Header {
		if id, ok := strings.CutSuffix(h, "_seconds"); ok && id != "cpu" && runs.Col(id) >= 0 {
			measures = append(measures, id)
		}
	}
	for i, row := range runs.Rows {
		_, n, _, ok := datasets.ParseFamily(runs.Get(i, "dataset"))
		if !ok {
			return nil, fmt.Errorf("scaling: run %s: dataset %q is not a generated <family>_d<d>_n<n>", runs.Get(i, "run_id"), runs.Get(i, "dataset"))
		}
		m := runs.Get(i, "method")
		if !slices.Contains(methods, m) {
			methods = append(methods, m)
		}
		a := get(key{"method " + m, float64(n)})
		if !row.OK {
			a.status = append(a.status, runs.Get(i, "status"))
			continue
		}
		a.sec = append(a.sec, num(i, "seconds"))
		a.cpu = append(a.cpu, num(i, "cpu_seconds"))
		a.heap = append(a.heap, num(i, "peak_heap_mb"))
		for _, id := range measures {
			b := get(key{"measure " + id, float64(n)})
			b.sec = append(b.sec, num(i, id+"_seconds"))
		}
	}
	var out []Series
	build := func(kind, name string) {
		s := Series{Name: name, Kind: kind, Exponent: math.NaN(), FitFrom: math.NaN()}
		var ns []float64
		for k := range data {
			if k.name == kind+" "+name {
				ns = append(ns, k.n)
			}
		}
		slices.Sort(ns)
		for _, n := range ns {
			a := data[key{kind + " " + name, n}]
			s.N = append(s.N, n)
			s.Sec = append(s.Sec, mean(a.sec))
			s.CPU = append(s.CPU, mean(a.cpu))
			s.Heap = append(s.Heap, mean(a.heap))
			s.Failed = append(s.Failed, strings.Join(a.status, ","))
		}
		s.Exponent, s.FitFrom = fit(s.N, s.Sec)
		s.CPUExponent = math.NaN()
		if kind == "method" {
			s.CPUExponent, _ = fit(s.N, s.CPU)
		}
		out = append(out, s)
	}
	for _, m := range methods {
		build("method", m)
	}
	for _, id := range measures {
		build("measure", id)
	}
	return out, nil
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// fit returns the least-squares slope of log t on log n over the points with t ≥ MinFit, and
// the smallest n used.
func fit(n, t []float64) (slope, from float64) {
	var xs, ys []float64
	from = math.NaN()
	for i := range n {
		if t[i] >= MinFit && !math.IsNaN(t[i]) {
			xs, ys = append(xs, math.Log(n[i])), append(ys, math.Log(t[i]))
			if math.IsNaN(from) {
				from = n[i]
			}
		}
	}
	if len(xs) < 3 || xs[len(xs)-1]-xs[0] < 0.999*math.Ln10 {
		return math.NaN(), from
	}
	mx, my := mean(xs), mean(ys)
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	return sxy / sxx, from
}

// Write writes dir/SCALING.md and dir/plots/scaling.{png,svg}. label describes the machine
// state (e.g. "loaded: 2 cores shared by other jobs").
func Write(dir, label string) error {
	ss, err := Load(dir)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Scaling study: %s\n\n", filepath.Base(dir))
	fmt.Fprintf(&b, "Computed from runs.csv by `sdcbench report DIR`. Machine (from machine.txt): %s. Times are wall seconds of one\n", label)
	b.WriteString("run (the method's `seconds`, or a measure's `<id>_seconds` averaged over the releases of all methods);\n")
	b.WriteString("CPU and heap are those of the whole run (method and measures), from `profile = true` with one worker.\n")
	fmt.Fprintf(&b, "The exponent is the least-squares slope of log(time) on log(n) over the points with time ≥ %g s\n", MinFit)
	b.WriteString("(at least three, spanning a decade of n; otherwise —). On a loaded machine the wall times, and so the\n")
	b.WriteString("wall exponents, carry the load's noise; the run-CPU exponent (method and measures together) is the\n")
	b.WriteString("steadier figure.\n\n")
	var all []float64
	for _, s := range ss {
		for _, n := range s.N {
			if !slices.Contains(all, n) {
				all = append(all, n)
			}
		}
	}
	slices.Sort(all)
	b.WriteString("| kind | name |")
	for _, n := range all {
		fmt.Fprintf(&b, " n = %s |", fmtN(n))
	}
	b.WriteString(" exponent (wall) | exponent (run CPU) | CPU s (largest ok n) | peak heap MiB (largest ok n) |\n|---|---|")
	for range all {
		b.WriteString("---|")
	}
	b.WriteString("---|---|---|---|\n")
	for _, s := range ss {
		fmt.Fprintf(&b, "| %s | %s |", s.Kind, s.Name)
		for _, n := range all {
			i := slices.Index(s.N, n)
			switch {
			case i < 0:
				b.WriteString(" — |")
			case s.Failed[i] != "" && math.IsNaN(s.Sec[i]):
				fmt.Fprintf(&b, " %s |", s.Failed[i])
			default:
				fmt.Fprintf(&b, " %s |", fmtSec(s.Sec[i]))
			}
		}
		exp := "—"
		if !math.IsNaN(s.Exponent) {
			exp = fmt.Sprintf("%.2f (n ≥ %s)", s.Exponent, fmtN(s.FitFrom))
		}
		cexp := "—"
		if !math.IsNaN(s.CPUExponent) {
			cexp = fmt.Sprintf("%.2f", s.CPUExponent)
		}
		cpu, heap := "—", "—"
		if s.Kind == "method" {
			for i := len(s.N) - 1; i >= 0; i-- {
				if !math.IsNaN(s.Sec[i]) {
					cpu, heap = fmtSec(s.CPU[i]), fmt.Sprintf("%.0f", s.Heap[i])
					break
				}
			}
		}
		fmt.Fprintf(&b, " %s | %s | %s | %s |\n", exp, cexp, cpu, heap)
	}
	b.WriteString("\n")
	p, err := plotSeries(ss)
	if err != nil {
		return err
	}
	pd := filepath.Join(dir, "plots")
	if err := os.MkdirAll(pd, 0o755); err != nil {
		return err
	}
	for _, ext := range []string{".png", ".svg"} {
		if err := p.Save(7*vg.Inch, 5*vg.Inch, filepath.Join(pd, "scaling"+ext)); err != nil {
			return fmt.Errorf("scaling: %w", err)
		}
	}
	b.WriteString("![time against n, log-log](plots/scaling.png) ([SVG](plots/scaling.svg))\n")
	return datasets.AtomicWrite(filepath.Join(dir, File), func(w io.Writer) error { _, err := io.WriteString(w, b.String()); return err })
}

func fmtN(n float64) string {
	e := math.Log10(n)
	if e == math.Trunc(e) {
		return fmt.Sprintf("10^%d", int(e))
	}
	return strconv.FormatFloat(n, 'f', -1, 64)
}

func fmtSec(s float64) string {
	switch {
	case math.IsNaN(s):
		return "NaN"
	case s < 0.01:
		return fmt.Sprintf("%.4f", s)
	case s < 10:
		return fmt.Sprintf("%.3f", s)
	}
	return fmt.Sprintf("%.1f", s)
}

// log10Ticks labels a log10 axis at integer powers.
type log10Ticks struct{}

func (log10Ticks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	for e := math.Floor(min); e <= math.Ceil(max); e++ {
		t = append(t, plot.Tick{Value: e, Label: "1e" + strconv.Itoa(int(e))})
	}
	return t
}

func plotSeries(ss []Series) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "time against n (log-log); legend: name (fitted exponent)"
	p.X.Label.Text, p.Y.Label.Text = "n (records, log10)", "seconds (log10)"
	p.X.Tick.Marker, p.Y.Tick.Marker = log10Ticks{}, log10Ticks{}
	p.Legend.Top, p.Legend.Left = true, true
	cols := []color.Color{
		color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0xd6, 0x27, 0x28, 0xff}, color.RGBA{0x2c, 0xa0, 0x2c, 0xff},
		color.RGBA{0xff, 0x7f, 0x0e, 0xff}, color.RGBA{0x94, 0x67, 0xbd, 0xff}, color.RGBA{0x8c, 0x56, 0x4b, 0xff},
		color.RGBA{0xe3, 0x77, 0xc2, 0xff}, color.RGBA{0x7f, 0x7f, 0x7f, 0xff}, color.RGBA{0x17, 0xbe, 0xcf, 0xff},
	}
	for i, s := range ss {
		var xy plotter.XYs
		for j := range s.N {
			if s.Sec[j] > 0 {
				xy = append(xy, plotter.XY{X: math.Log10(s.N[j]), Y: math.Log10(s.Sec[j])})
			}
		}
		if len(xy) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, err
		}
		c := cols[i%len(cols)]
		l.Color, pts.Color = c, c
		if s.Kind == "measure" {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		pts.Shape = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}}[i%4]
		p.Add(l, pts)
		name := s.Name
		if !math.IsNaN(s.Exponent) {
			name = fmt.Sprintf("%s (%.2f)", s.Name, s.Exponent)
		}
		p.Legend.Add(name, l, pts)
	}
	return p, nil
}

// Fprint writes a one-line summary per series to w (for the CLI).
func Fprint(w io.Writer, ss []Series) {
	for _, s := range ss {
		fmt.Fprintf(w, "%-8s %-20s exponent %.2f (run CPU %.2f)\n", s.Kind, s.Name, s.Exponent, s.CPUExponent)
	}
}
