// Package command holds the method `command`, which protects each run by calling an
// executable: a method written in R, Python, Julia or anything else competes in the grid
// beside sdcbench's own methods, with the run's seed, replicate and parameters passed on its
// command line (docs/extending.md "A method in any language").
//
// The harness writes the columns to protect as a CSV (header included) to {in}; the program
// writes the release, same header and row count, to {out}. The line is split like a shell's
// but never run through a shell (Split), so a spec names exactly one program.
package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() { methods.Register(Method{}) }

// Method is `command`. Its parameter cmd is the command line; placeholders in braces are
// replaced in each word after splitting (a value with spaces stays one argument):
//
//	{in}         the CSV the program reads (the columns to protect, header first)
//	{out}        the CSV the program must write (same header, same number of rows)
//	{seed}       the run's seed (runs.csv "seed"), a decimal uint64
//	{replicate}  the run's replicate, 1-based
//	{dataset}    the dataset's label
//	{NAME}       the value of the run's parameter NAME: any further grid parameter of the
//	             spec's entry (command accepts parameters it does not declare), e.g. {digits}
//
// The program runs in the spec file's folder (protect: the working directory), so relative
// paths in the line start there. A non-zero exit, a missing or malformed output or the time
// limit fails the run with the last lines of the program's standard error. Parameter
// deterministic = true declares that the program's release does not depend on the seed, which
// the analysis uses to treat identical replicates as one observation. version, or the output
// of version_cmd, is recorded in the results folder's manifest (Describe).
type Method struct{}

var (
	_ methods.Validator = Method{}
	_ methods.Describer = Method{}
)

// Info implements methods.Method.
func (Method) Info() methods.Info {
	return methods.Info{
		Name:        "command",
		Description: "runs an executable per run (R, Python, …): reads {in}, writes {out}; {seed}, {replicate}, {dataset} and grid parameters {NAME} filled in",
		Params: []methods.ParamSpec{
			{Name: "cmd", Kind: methods.String, Default: "", Doc: `command line, e.g. "python3 round.py {in} {out} {digits} {seed}" (split like a shell's, never run by one)`},
			{Name: "deterministic", Kind: methods.Bool, Default: "false", Doc: "the program ignores the seed: identical replicates are one observation"},
			{Name: "version", Kind: methods.String, Default: "", Doc: "the program's version, recorded in manifest.json"},
			{Name: "version_cmd", Kind: methods.String, Default: "", Doc: "a command line whose output is the program's version, recorded in manifest.json"},
		},
		Randomized: true,
		Columns:    methods.AnyColumns,
		Missing:    "written to {in} as NA; the program's release is read as written, and a missing cell where the input has a value is the program's suppression, counted in n_suppressed",
		OpenParams: true,
		Example:    map[string]string{"cmd": "cp {in} {out}"},
	}
}

// placeholder matches {name}: the words command fills in.
var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{([A-Za-z][A-Za-z0-9_]*)\}`) })

// argv returns the command line of a run, split and filled in. fill returns the value of a
// placeholder and whether it exists.
func argv(line string, fill func(name string) (string, bool)) ([]string, error) {
	if strings.TrimSpace(line) == "" {
		return nil, fmt.Errorf("command: %w: cmd is empty: give the command line, e.g. cmd = \"python3 round.py {in} {out} {seed}\"", methods.ErrBadParam)
	}
	words, err := Split(line)
	if err != nil {
		return nil, fmt.Errorf("command: %w: cmd %q: %v", methods.ErrBadParam, line, err)
	}
	var missing []string
	for i, w := range words {
		words[i] = placeholder().ReplaceAllStringFunc(w, func(m string) string {
			name := m[1 : len(m)-1]
			v, ok := fill(name)
			if !ok {
				missing = append(missing, m)
				return m
			}
			return v
		})
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("command: %w: cmd %q: unknown placeholder %s (have {in}, {out}, {seed}, {replicate}, {dataset} and the run's parameters)",
			methods.ErrBadParam, line, strings.Join(missing, ", "))
	}
	return words, nil
}

// filler returns the placeholder values of a run.
func filler(p methods.Params, run methods.Run, in, out string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		switch name {
		case "in":
			return in, true
		case "out":
			return out, true
		case "seed":
			return strconv.FormatUint(run.Seed, 10), true
		case "replicate":
			return strconv.Itoa(run.Replicate), true
		case "dataset":
			return run.Dataset, true
		case "cmd":
			return "", false
		}
		for _, n := range p.Names() {
			if n == name {
				return p.Get(name), true
			}
		}
		return "", false
	}
}

// Validate checks that cmd splits, names only known placeholders, and that its program
// exists, so a spec with a typo fails before anything runs.
func (Method) Validate(d *datasets.Dataset, p methods.Params) error {
	words, err := argv(p.String("cmd"), filler(p, methods.Run{Replicate: 1, Dataset: d.Name}, "in.csv", "out.csv"))
	if err != nil {
		return err
	}
	if !strings.ContainsRune(words[0], '/') {
		if _, err := exec.LookPath(words[0]); err != nil {
			return fmt.Errorf("command: program %q is not on PATH: install it or give its path", words[0])
		}
	}
	return nil
}

// Describe implements methods.Describer: the command line and its version (the version
// parameter, else the trimmed output of version_cmd run in the run's folder).
func (Method) Describe(ctx context.Context, p methods.Params) (map[string]string, error) {
	v := p.String("version")
	if vc := p.String("version_cmd"); vc != "" && v == "" {
		words, err := Split(vc)
		if err != nil {
			return nil, fmt.Errorf("command: %w: version_cmd %q: %v", methods.ErrBadParam, vc, err)
		}
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		c := exec.CommandContext(cctx, words[0], words[1:]...)
		run, _ := methods.RunOf(ctx)
		c.Dir = run.Dir
		var errs tail
		errs.max = 4 << 10
		c.Stderr = &errs
		out, err := c.Output()
		if err != nil {
			return nil, fmt.Errorf("command: version_cmd %q: %v: %s", vc, err, errs.lines(3))
		}
		v = strings.Join(strings.Fields(string(bytes.ToValidUTF8(out, []byte("?")))), " ")
		if len(v) > 200 {
			v = v[:200]
		}
	}
	return map[string]string{"command " + p.String("cmd"): v}, nil
}

// Protect implements methods.Method: it writes d to a temporary {in}, runs the program and
// reads {out}. The seed is the run's (methods.WithRun); without one it is drawn from rng.
func (Method) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	run, ok := methods.RunOf(ctx)
	if !ok {
		run = methods.Run{Replicate: 1, Dataset: d.Name}
		if rng != nil {
			run.Seed = rng.Uint64()
		}
	}
	tmp, err := os.MkdirTemp("", "sdcbench-command-")
	if err != nil {
		return nil, fmt.Errorf("command: %w", err)
	}
	defer os.RemoveAll(tmp)
	in, out := filepath.Join(tmp, "in.csv"), filepath.Join(tmp, "out.csv")
	words, err := argv(p.String("cmd"), filler(p, run, in, out))
	if err != nil {
		return nil, err
	}
	write := func(w io.Writer) error { return datasets.WriteCSVNA(w, d, datasets.NewNA("NA")) } // R's and pandas' token
	if err := datasets.AtomicWrite(in, write); err != nil {
		return nil, fmt.Errorf("command: writing {in}: %w", err)
	}
	c := exec.CommandContext(ctx, words[0], words[1:]...)
	c.Dir = run.Dir
	c.Env = append(os.Environ(), "SDCBENCH_SEED="+strconv.FormatUint(run.Seed, 10),
		"SDCBENCH_REPLICATE="+strconv.Itoa(run.Replicate), "SDCBENCH_DATASET="+run.Dataset)
	stderr, stdout := &tail{max: 8 << 10}, &tail{max: 8 << 10}
	c.Stderr, c.Stdout = stderr, stdout
	killGroup(c)
	c.WaitDelay = 2 * time.Second
	t0 := time.Now()
	err = c.Run()
	secs := time.Since(t0).Seconds()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		msg := stderr.lines(5)
		if msg == "" {
			msg = stdout.lines(5)
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("command: %s: %v: %s", words[0], ee, msg)
		}
		return nil, fmt.Errorf("command: %s: %w", words[0], err)
	}
	rel, err := readRelease(out, d)
	if err != nil {
		return nil, fmt.Errorf("command: %s: %w", words[0], err)
	}
	info := map[string]any{"command": strings.Join(words, " "), "command_seconds": secs}
	n := 0
	for _, c := range methods.Holes(d, rel) {
		n += c
	}
	if n > 0 { // the program's suppressions, declared (methods.CheckHoles)
		info["n_suppressed"] = n
	}
	return &methods.Release{Masked: rel, Info: info}, nil
}

// readRelease reads the program's output: every column of d by name (order free, extras
// refused), as many rows as d, numeric columns numeric and categorical ones coded with d's
// levels (new labels appended).
func readRelease(path string, d *datasets.Dataset) (*datasets.Dataset, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("wrote no {out} file (%s)", filepath.Base(path))
	}
	var cat []string
	for _, j := range d.Categorical() {
		cat = append(cat, d.Names[j])
	}
	rel, err := datasets.ReadFile(path, datasets.ReadOptions{Columns: d.Names, Mixed: true, Categorical: cat})
	if err != nil {
		return nil, fmt.Errorf("{out}: %w", err)
	}
	if rel.N != d.N {
		return nil, fmt.Errorf("{out} has %d rows, the input %d (one released row per record, same order)", rel.N, d.N)
	}
	for j := range rel.Names {
		if rel.IsCategorical(j) && !d.IsCategorical(j) {
			for i := 0; i < rel.N; i++ {
				if c := rel.Code(i, j); c >= 0 && !isNumber(rel.Levels[j][c]) {
					return nil, fmt.Errorf("{out} row %d column %q: value %q: not a number", i+2, rel.Names[j], rel.Levels[j][c])
				}
			}
		}
	}
	rel, err = rel.AlignLevels(d)
	if err != nil {
		return nil, fmt.Errorf("{out}: %w", err)
	}
	rel.Name = d.Name
	return rel, nil
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil
}
