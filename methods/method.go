// Package methods defines what a protection method is to sdcbench: the Method interface, its
// typed parameters and the registry through which the runner and the CLI find methods by name.
//
// A method lives in a family package (methods/microagg, methods/perturb, ...) and registers
// itself from an init function with Register. Importing methods/all links every family in, so
// adding a method never touches the runner (docs/harness.md "Layout").
package methods

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
	"github.com/sdcbench/sdcbench/internal/registry"
)

// Release is what a method returns: the masked table and the structure behind it.
type Release struct {
	// Masked has the same shape, column names and row order as the input, in raw units.
	Masked *datasets.Dataset
	// Labels is the partition of a microaggregation (canonical: groups numbered by their
	// smallest member), or nil for methods that do not partition.
	Labels []int32
	// Trace holds one point per generation or iteration of an iterative method.
	Trace []TracePoint
	// Columns lists the indices (sorted) of the columns the method protected when it passes
	// others through unchanged (e.g. the predictors of data shuffling). Post-processors touch
	// only these columns and the runner evaluates metrics on them only; nil means every column.
	Columns []int
	// Diag holds the diagnostics other packages read (the measures of metrics/), typed.
	Diag diag.Diagnostics
	// Info carries further method diagnostics for people and tests (e.g. "generations": 300).
	Info map[string]any
}

// TracePoint is one line of traces.csv.
type TracePoint struct {
	Iter    int
	Best    float64
	Mean    float64
	Seconds float64
}

// Info describes a method for the registry, `sdcbench list methods` and spec validation.
type Info struct {
	Name        string
	Description string // one line
	Params      []ParamSpec
	Randomized  bool // draws from the run's *rand.Rand
	Partitions  bool // returns Labels
	// Columns is the kind of column the method protects: "" (numeric), "categorical" or
	// "any". The harness turns numeric columns given to a categorical method into categories
	// and refuses categorical columns for a numeric one (docs/own-data.md).
	Columns string
	// Missing states in one line what the method does with a missing value of a column it
	// protects (e.g. "kept missing; sd over the available values, as sdcMicro addNoise"). ""
	// means it refuses them, with RefuseMissing's error (docs/own-data.md "Missing values").
	Missing string
	// BoundedGroups promises groups of at most 2k−1 records (with the "k" parameter); the
	// runner and protect check it, and every partition's minimum k, with CheckPartition.
	BoundedGroups bool
	// OpenParams accepts parameters the method does not declare, as strings in canonical
	// form, after the declared ones in name order (command fills its placeholders with them).
	// Their names are identifiers: ASCII letters, digits and _, starting with a letter.
	OpenParams bool
	// Example holds parameters with which the method runs quickly on a small dataset: the
	// conformance checks (methods/all) use them, so a method with a required setting, or a
	// slow default, is checked without editing a test. Nil means the defaults.
	Example map[string]string
	// NotEquivariant, when not empty, says why the release is not scale-equivariant (the
	// release of the data × 2^k is not the release × 2^k); the extreme-magnitude checks then
	// ask only for a finite release. Empty promises equivariance to the last bit.
	NotEquivariant string
}

// Column kinds of Info.Columns.
const (
	NumericColumns     = ""
	CategoricalColumns = "categorical"
	AnyColumns         = "any"
)

// Method is a protection method. Protect must not modify d, must draw randomness only from
// rng, and should return ctx.Err() promptly once ctx is done.
type Method interface {
	Info() Info
	Protect(ctx context.Context, d *datasets.Dataset, p Params, rng *rand.Rand) (*Release, error)
}

// Validator is implemented by methods that can reject a (dataset, parameters) pair before
// anything runs, e.g. mdav with fewer than 2k rows.
type Validator interface {
	Validate(d *datasets.Dataset, p Params) error
}

// FileReader is implemented by methods whose runs read files named by their parameters
// (external's release, dfo's start=labels:FILE). The harness hashes those files into the
// results folder's manifest, so that a resume or a merge refuses rows made from another
// version of them.
type FileReader interface {
	InputFiles(d *datasets.Dataset, p Params, r Run) []string
}

// RunValidator is implemented by methods whose check needs the run: external reads the file
// made for it ({replicate}, {seed}, relative to the spec's folder). The harness calls it before
// anything runs, once per distinct set of input files.
type RunValidator interface {
	ValidateRun(d *datasets.Dataset, p Params, r Run) error
}

// Describer is implemented by methods that run other software (command): Describe returns
// what manifest.json records of it for a parameter set, e.g. the command line and the
// program's version, so that a resume or a merge refuses rows made by another version. ctx
// carries the run's folder (WithRun).
type Describer interface {
	Describe(ctx context.Context, p Params) (map[string]string, error)
}

// InputFiles returns the files run r of m with p on d reads (FileReader), none otherwise.
func InputFiles(m Method, d *datasets.Dataset, p Params, r Run) []string {
	if f, ok := m.(FileReader); ok {
		return f.InputFiles(d, p, r)
	}
	return nil
}

var methodTable registry.Registry[Method]

// Register adds m under m.Info().Name. It panics on a duplicate or malformed entry: call it
// from the family package's init function.
func Register(m Method) {
	in := m.Info()
	if in.Name == "" || in.Description == "" {
		panic("methods: Register: method without name or description")
	}
	for _, ps := range in.Params {
		if _, err := ps.parse(ps.Default); err != nil {
			panic(fmt.Sprintf("methods: Register %s: bad default: %v", in.Name, err))
		}
	}
	methodTable.Add("methods: Register", in.Name, m)
}

// ErrUnknownMethod is wrapped by Lookup's error.
var ErrUnknownMethod = errors.New("unknown method")

// Lookup returns the method registered under name.
// A name of the form "post(method)" is a chain built from a registered post-processor
// (RegisterPost) and a method, applied innermost first.
func Lookup(name string) (Method, error) {
	if strings.Contains(name, "(") {
		return lookupChain(name)
	}
	m, ok := methodTable.Get(name)
	if !ok {
		return nil, fmt.Errorf("methods: %w %q%s (have %v)", ErrUnknownMethod, name,
			registry.DidYouMean(name, methodTable.Names()), methodTable.Names())
	}
	return m, nil
}

// List returns the Info of every registered method, sorted by name.
func List() []Info {
	var out []Info
	for _, m := range methodTable.Values() {
		out = append(out, m.Info())
	}
	return out
}

type threadsKey struct{}

// WithThreads returns a context that tells methods to use at most n goroutines for their
// internal parallelism. The runner sets it to CPUs/workers so that parallel runs do not
// oversubscribe the machine; a method must give the same result for any n.
func WithThreads(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, threadsKey{}, n)
}

// Threads returns the goroutine budget set by WithThreads, or 0 (use every CPU).
func Threads(ctx context.Context) int {
	n, _ := ctx.Value(threadsKey{}).(int)
	return n
}
