package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/metrics"
)

func init() {
	commands["protect"] = command{
		usage: "protect --method NAME [--param name=value]... (--dataset NAME | --in FILE) --out FILE [--seed S] [--groups FILE]",
		run:   runProtect,
	}
	commands["eval"] = command{
		usage: "eval (--dataset NAME | --orig FILE) --masked FILE --metrics a,b,...",
		run:   runEval,
	}
}

// paramFlag collects repeated --param name=value flags.
type paramFlag map[string]string

func (p paramFlag) String() string { return fmt.Sprint(map[string]string(p)) }

func (p paramFlag) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("want name=value, got %q", s)
	}
	name = strings.TrimSpace(name)
	if _, dup := p[name]; dup {
		return fmt.Errorf("parameter %q given twice", name)
	}
	p[name] = strings.TrimSpace(val)
	return nil
}

// loadInput returns the registered dataset or the CSV file (exactly one must be given).
func loadInput(cmd, dataset, file, fileFlag string, cols []string) (*datasets.Dataset, error) {
	switch {
	case dataset != "" && file != "":
		return nil, usageErr(cmd, "give --dataset or --%s, not both", fileFlag)
	case dataset != "":
		return datasets.Load(dataset)
	case file != "":
		return datasets.ReadFile(file, datasets.ReadOptions{Columns: cols})
	}
	return nil, usageErr(cmd, "need --dataset NAME or --%s FILE", fileFlag)
}

func runProtect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("protect", commands["protect"].usage, stderr)
	method := fs.String("method", "", "method name (see: sdcbench list methods)")
	params := paramFlag{}
	fs.Var(params, "param", "method parameter `name=value` (repeatable)")
	dataset := fs.String("dataset", "", "embedded dataset name (see: sdcbench list datasets)")
	in := fs.String("in", "", "input CSV `file` with a header row")
	columns := fs.String("columns", "", "with --in: comma-separated columns to protect (default all)")
	out := fs.String("out", "", "masked CSV `file` to write")
	seed := fs.Uint64("seed", 1, "random seed for randomized methods")
	groups := fs.String("groups", "", "also write one group id per record to `file` (partitioning methods)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("protect", "unexpected argument %q (flags only)", fs.Arg(0))
	}
	if *method == "" || *out == "" {
		return usageErr("protect", "need --method and --out")
	}
	m, err := methods.Lookup(*method)
	if err != nil {
		return err
	}
	info := m.Info()
	p, err := info.Resolve(params)
	if err != nil {
		return err
	}
	if *groups != "" && !info.Partitions {
		return usageErr("protect", "--groups: method %s does not partition the records", info.Name)
	}
	if *groups != "" && samePath(*groups, *out) {
		return usageErr("protect", "--groups and --out name the same file %q: the group list would replace the masked data", *out)
	}
	d, err := loadInput("protect", *dataset, *in, "in", csvList(*columns))
	if err != nil {
		return err
	}
	if v, ok := m.(methods.Validator); ok {
		if err := v.Validate(d, p); err != nil {
			return err
		}
	}
	rel, err := m.Protect(ctx, d, p, rand.New(rand.NewPCG(*seed, *seed^0x9e3779b97f4a7c15)))
	if err != nil {
		return err
	}
	if err := methods.CheckOverflow(info.Name, d, rel.Masked); err != nil {
		return err
	}
	if err := datasets.WriteFile(*out, rel.Masked); err != nil {
		return err
	}
	if *groups != "" {
		err := datasets.AtomicWrite(*groups, func(w io.Writer) error {
			b := []byte("group\n")
			for _, l := range rel.Labels {
				b = strconv.AppendInt(b, int64(l), 10)
				b = append(b, '\n')
			}
			_, err := w.Write(b)
			return err
		})
		if err != nil {
			os.Remove(*out) // leave no half-finished output behind
			return err
		}
	}
	return nil
}

func runEval(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", commands["eval"].usage, stderr)
	dataset := fs.String("dataset", "", "embedded original dataset name")
	orig := fs.String("orig", "", "original CSV `file`")
	columns := fs.String("columns", "", "with --orig: comma-separated columns to compare (default all)")
	masked := fs.String("masked", "", "masked CSV `file` (same columns as the original; extra columns ignored)")
	list := fs.String("metrics", "", "comma-separated metric IDs (see: sdcbench list metrics)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("eval", "unexpected argument %q (flags only)", fs.Arg(0))
	}
	ids := csvList(*list)
	if *masked == "" || len(ids) == 0 {
		return usageErr("eval", "need --masked FILE and --metrics a,b,...")
	}
	ms := make([]metrics.Metric, len(ids))
	for i, id := range ids {
		m, err := metrics.Lookup(id)
		if err != nil {
			return err
		}
		ms[i] = m
	}
	d, err := loadInput("eval", *dataset, *orig, "orig", csvList(*columns))
	if err != nil {
		return err
	}
	rel, err := datasets.ReadFile(*masked, datasets.ReadOptions{Columns: d.Names})
	if err != nil {
		return err
	}
	if rel.N != d.N {
		return fmt.Errorf("eval: %s has %d rows, the original %s has %d", *masked, rel.N, d.Name, d.N)
	}
	input := &metrics.Input{Orig: d, Masked: rel}
	var b strings.Builder
	for _, m := range ms {
		res := m.Eval(input)
		fmt.Fprintf(&b, "%s,%s\n", m.Info().ID, strconv.FormatFloat(res.Value, 'g', -1, 64))
		for _, c := range m.Info().Components {
			if v, ok := res.Aux[c]; ok {
				fmt.Fprintf(&b, "%s_%s,%s\n", m.Info().ID, c, strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

// samePath reports whether a and b name the same file: the same cleaned absolute path, or,
// when both exist, the same file (hard or symbolic links).
func samePath(a, b string) bool {
	if fa, err1 := os.Stat(a); err1 == nil {
		if fb, err2 := os.Stat(b); err2 == nil {
			return os.SameFile(fa, fb)
		}
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}
