package methods

import "context"

// Run describes the run a method is protecting for: what a method that hands the work to
// another program (command) or reads a file made for this run (external) needs beyond its
// parameters. The runner and `sdcbench protect` attach it with WithRun.
type Run struct {
	Seed      uint64 // the run's seed (runs.csv "seed")
	Replicate int    // 1-based; 1 outside a grid
	Dataset   string // the dataset's label in runs.csv
	// Dir is the folder that relative paths in the parameters start from: the spec file's
	// folder in a grid, the working directory for protect.
	Dir string
}

type runKey struct{}

// WithRun returns a context that carries r.
func WithRun(ctx context.Context, r Run) context.Context {
	return context.WithValue(ctx, runKey{}, r)
}

// RunOf returns the Run set by WithRun and whether one was set.
func RunOf(ctx context.Context) (Run, bool) {
	r, ok := ctx.Value(runKey{}).(Run)
	return r, ok
}
