package methods

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/registry"
)

// PostProcessor maps a release back towards the original after a method has run, e.g. reverse
// mapping or the restriction to non-negative values (docs/perturbative.md). It is
// deterministic and sees the original, the release and the protected columns. It must keep
// every record in its row (row i of its output is record i, as in masked): it changes values
// only, never which record a row holds or their order. A chain therefore passes the inner
// method's partition (Release.Labels) through unchanged, and the chain's Info keeps the inner
// method's Partitions and BoundedGroups promises, which the runner checks (CheckPartition).
type PostProcessor interface {
	Name() string
	Description() string
	// Apply returns a new release; orig and masked are not modified. cols are the column
	// indices to post-process (sorted, distinct).
	Apply(orig, masked *datasets.Dataset, cols []int) (*datasets.Dataset, error)
}

var postTable registry.Registry[PostProcessor]

// RegisterPost adds a post-processor under its name; it panics on a duplicate. Call it from
// init. A registered post-processor f can wrap any method m as the chain "f(m)".
func RegisterPost(pp PostProcessor) {
	if pp.Name() == "" || pp.Description() == "" || strings.ContainsAny(pp.Name(), "() ") {
		panic("methods: RegisterPost: post-processor without a valid name or description")
	}
	postTable.Add("methods: RegisterPost", pp.Name(), pp)
}

// PostProcessors lists the registered post-processors by name.
func PostProcessors() []PostProcessor { return postTable.Values() }

// lookupChain resolves "f(g(m))": f and g registered post-processors, m a method. The chain
// applies g first, then f (innermost first), and takes m's parameters.
func lookupChain(name string) (Method, error) {
	open := strings.IndexByte(name, '(')
	if open <= 0 || !strings.HasSuffix(name, ")") {
		return nil, fmt.Errorf("methods: malformed chain %q (want post(method), e.g. restrict(revmap(egadp)))", name)
	}
	outer := strings.TrimSpace(name[:open])
	pp, ok := postTable.Get(outer)
	if !ok {
		return nil, fmt.Errorf("methods: chain %q: %w %q: not a post-processor (have %v)", name, ErrUnknownMethod, outer, postTable.Names())
	}
	inner, err := Lookup(strings.TrimSpace(name[open+1 : len(name)-1]))
	if err != nil {
		return nil, err
	}
	return &chain{name: outer + "(" + inner.Info().Name + ")", post: pp, inner: inner}, nil
}

// chain is a method followed by one post-processor; nesting builds longer chains.
type chain struct {
	name  string
	post  PostProcessor
	inner Method
}

func (c *chain) Info() Info {
	in := c.inner.Info()
	in.Name = c.name
	in.Description = c.post.Description() + ", after " + in.Description
	return in
}

// Validate delegates to the inner method.
func (c *chain) Validate(d *datasets.Dataset, p Params) error {
	if v, ok := c.inner.(Validator); ok {
		return v.Validate(d, p)
	}
	return nil
}

// InputFiles delegates to the inner method.
func (c *chain) InputFiles(d *datasets.Dataset, p Params, r Run) []string {
	return InputFiles(c.inner, d, p, r)
}

// ValidateRun delegates to the inner method.
func (c *chain) ValidateRun(d *datasets.Dataset, p Params, r Run) error {
	if v, ok := c.inner.(RunValidator); ok {
		return v.ValidateRun(d, p, r)
	}
	return nil
}

func (c *chain) Protect(ctx context.Context, d *datasets.Dataset, p Params, rng *rand.Rand) (*Release, error) {
	rel, err := c.inner.Protect(ctx, d, p, rng)
	if err != nil {
		return nil, err
	}
	cols := rel.Columns
	if cols == nil {
		cols = make([]int, d.P)
		for j := range cols {
			cols[j] = j
		}
	}
	out, err := c.post.Apply(d, rel.Masked, cols)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.post.Name(), err)
	}
	// The post-processor keeps every record in its row, so the inner partition of the
	// records (Labels) still holds and is passed through, and its diagnostics still describe
	// it. The post-processed values of a group need not coincide any more (revmap gives each
	// record an original value): metrics that group released rows by Labels check that the
	// rows are equal (metrics.DLD) before they use a label as a group of identical rows.
	reportPartition(rel)
	return &Release{Masked: out, Labels: rel.Labels, Columns: rel.Columns, Diag: rel.Diag, Info: rel.Info, Trace: rel.Trace}, nil
}
