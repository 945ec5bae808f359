package command

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func TestSplit(t *testing.T) {
	cases := []struct {
		line string
		want []string
		err  string
	}{
		{"python3 round.py {in} {out}", []string{"python3", "round.py", "{in}", "{out}"}, ""},
		{"  a\t b\n c  ", []string{"a", "b", "c"}, ""},
		{`Rscript -e 'cat("x y")' {in}`, []string{"Rscript", "-e", `cat("x y")`, "{in}"}, ""},
		{`echo "a \"b\" \$c \n" d`, []string{"echo", `a "b" $c \n`, "d"}, ""},
		{`a\ b c`, []string{"a b", "c"}, ""},
		{`x''y ""`, []string{"xy", ""}, ""},
		{`a | b > c; d`, []string{"a", "|", "b", ">", "c;", "d"}, ""}, // never a shell
		{`a 'b`, nil, "unclosed '"},
		{`a "b`, nil, `unclosed "`},
		{`a \`, nil, "backslash"},
		{"   ", nil, "empty"},
	}
	for _, c := range cases {
		got, err := Split(c.line)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Split(%q) error = %v, want %q", c.line, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", c.line, got, err, c.want)
		}
	}
}

func TestTail(t *testing.T) {
	tl := &tail{max: 16}
	tl.Write([]byte("first line\n"))
	tl.Write([]byte("second\nthird\n\n"))
	if got := tl.lines(2); got != "second | third" {
		t.Errorf("lines(2) = %q", got)
	}
	tl.Write([]byte(strings.Repeat("x", 40)))
	if len(tl.buf) != 16 {
		t.Errorf("kept %d bytes, want 16", len(tl.buf))
	}
}

func params(t *testing.T, raw map[string]string) methods.Params {
	t.Helper()
	p, err := Method{}.Info().Resolve(raw)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func data() *datasets.Dataset {
	return datasets.New("toy", []string{"a", "b"}, 3, 2, []float64{1, 2, 3, 4, 5, 6})
}

func needUnix(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses sh")
	}
}

func TestProtectCopies(t *testing.T) {
	needUnix(t)
	d := data()
	rel, err := Method{}.Protect(context.Background(), d, params(t, map[string]string{"cmd": "cp {in} {out}"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rel.Masked.Data, d.Data) || !slices.Equal(rel.Masked.Names, d.Names) {
		t.Errorf("release %v, want the input %v", rel.Masked.Data, d.Data)
	}
}

// TestPlaceholders: the run's seed, replicate, dataset and grid parameters reach the program,
// each as one argument, and the program runs in the run's folder.
func TestPlaceholders(t *testing.T) {
	needUnix(t)
	dir := t.TempDir()
	script := `printf '%s\n' "$@" > args.txt; cp "$1" "$2"`
	if err := os.WriteFile(filepath.Join(dir, "m.sh"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	p := params(t, map[string]string{"cmd": "sh m.sh {in} {out} {seed} {replicate} {dataset} {digits} '{label} x'", "digits": "2", "label": "a b"})
	ctx := methods.WithRun(context.Background(), methods.Run{Seed: 18446744073709551615, Replicate: 7, Dataset: "my data", Dir: dir})
	if _, err := (Method{}).Protect(ctx, data(), p, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "args.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(string(b)), "\n")
	want := []string{"18446744073709551615", "7", "my data", "2", "a b x"}
	if len(got) != 7 || !slices.Equal(got[2:], want) {
		t.Errorf("arguments %q, want in, out then %q", got, want)
	}
}

func TestFailures(t *testing.T) {
	needUnix(t)
	cases := []struct {
		name, cmd, want string
	}{
		{"exit status", `sh -c 'echo starting; echo "Error in foo: bad k" >&2; exit 3'`, "exit status 3: Error in foo: bad k"},
		{"no output", "true", "wrote no {out} file"},
		{"rows", `sh -c 'head -n 2 "$0" > "$1"' {in} {out}`, "{out} has 1 rows, the input 3"},
		{"text in a numeric column", `sh -c 'printf "a,b\n1,2\nx,4\n5,6\n" > "$0"' {out}`, `row 3 column "a": value "x": not a number`},
		{"missing column", `sh -c 'printf "a\n1\n3\n5\n" > "$0"' {out}`, `"b"`},
		{"no program", "no-such-program-sdcbench {in} {out}", "no-such-program-sdcbench"},
	}
	for _, c := range cases {
		_, err := Method{}.Protect(context.Background(), data(), params(t, map[string]string{"cmd": c.cmd}), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		raw  map[string]string
		want string
	}{
		{map[string]string{"cmd": ""}, "cmd is empty"},
		{map[string]string{"cmd": "cp {in} {outt}"}, "unknown placeholder {outt}"},
		{map[string]string{"cmd": "no-such-program-sdcbench {in} {out}"}, "not on PATH"},
		{map[string]string{"cmd": "cp 'x"}, "unclosed"},
		{map[string]string{"cmd": "cp {in} {out}"}, ""},
		{map[string]string{"cmd": "cp {in} {out} {digits}", "digits": "1"}, ""},
	}
	for _, c := range cases {
		err := Method{}.Validate(data(), params(t, c.raw))
		if c.want == "" {
			if err != nil {
				t.Errorf("%v: %v", c.raw, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.raw, err, c.want)
		}
	}
	if _, err := (Method{}).Info().Resolve(map[string]string{"cmd": "x", "bad-name": "1"}); !errors.Is(err, methods.ErrBadParam) {
		t.Errorf("a parameter name that is no identifier: %v", err)
	}
}

// TestTimeLimit: when the run's context ends, the program and its children are killed and
// Protect returns at once.
func TestTimeLimit(t *testing.T) {
	needUnix(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, err := Method{}.Protect(ctx, data(), params(t, map[string]string{"cmd": `sh -c 'sleep 30 & sleep 30; wait'`}), nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the deadline", err)
	}
	if el := time.Since(t0); el > 5*time.Second {
		t.Errorf("returned after %v", el)
	}
}

// TestCategorical: categorical columns go out as labels and come back coded with the input's
// levels; a new label is appended.
func TestCategorical(t *testing.T) {
	needUnix(t)
	d := datasets.New("cat", []string{"sex", "x"}, 3, 2, []float64{0, 1, 1, 2, 0, 3})
	d.Levels = [][]string{{"female", "male"}, nil}
	cmd := `sh -c 'printf "x,sex\n1,male\n2,other\n3,NA\n" > "$0"' {out}`
	rel, err := Method{}.Protect(context.Background(), d, params(t, map[string]string{"cmd": cmd}), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := rel.Masked
	if got := []string{m.Label(0, 0), m.Label(1, 0), m.Label(2, 0)}; !slices.Equal(got, []string{"male", "other", "NA"}) {
		t.Errorf("labels %q", got)
	}
	if m.Code(0, 0) != 1 || m.Code(1, 0) != 2 || m.At(2, 1) != 3 {
		t.Errorf("codes %v, levels %q", m.Data, m.Levels)
	}
}

// TestSeed: without a run (sdcbench protect outside a grid) the seed comes from the generator.
func TestSeed(t *testing.T) {
	needUnix(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "seed.txt")
	p := params(t, map[string]string{"cmd": `sh -c 'echo "$2" > "$3"; cp "$0" "$1"' {in} {out} {seed} ` + out})
	rng := rand.New(rand.NewPCG(1, 2))
	want := rand.New(rand.NewPCG(1, 2)).Uint64()
	if _, err := (Method{}).Protect(context.Background(), data(), p, rng); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if got := strings.TrimSpace(string(b)); got != strconv.FormatUint(want, 10) {
		t.Errorf("seed %s, want %d", got, want)
	}
}

// TestMissingIn: missing cells reach the program as NA, and a cell the program leaves missing
// where the input has a value is counted as its suppression.
func TestMissingIn(t *testing.T) {
	needUnix(t)
	d := datasets.New("toy", []string{"a", "b"}, 3, 2, []float64{1, math.NaN(), 3, 4, 5, 6})
	dir := t.TempDir()
	copyIn := filepath.Join(dir, "in.csv")
	cmd := `sh -c 'cp "$0" "$2"; printf "a,b\n1,NA\nNA,4\n5,6\n" > "$1"' {in} {out} ` + copyIn
	rel, err := Method{}.Protect(context.Background(), d, params(t, map[string]string{"cmd": cmd}), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(copyIn)
	if got := string(b); got != "a,b\n1,NA\n3,4\n5,6\n" {
		t.Errorf("{in} = %q", got)
	}
	if n := rel.Info["n_suppressed"]; n != 1 {
		t.Errorf("n_suppressed = %v, want 1 (row 2, column a)", n)
	}
}
