package methods

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/diag"
)

// Selection says what a method does with the columns of a table (docs/own-data.md): it
// protects Columns, passes Keep (and the Strata column) through unchanged, runs within each
// stratum of Strata, and the risk measures read the key variables Keys. Columns in neither
// list are left out of the release.
type Selection struct {
	Columns []string // protected columns; nil: every column not in Keep and not Strata
	Keep    []string // passed through unchanged, in their original position
	Strata  string   // column whose values split the records; "" for none
	Keys    []string // key variables of the categorical risk measures (made categorical)
	// Categorical names further columns to treat as categories (as Keys are).
	Categorical []string
}

// Prepared is a Selection resolved against a table and a method. Its tables are read-only:
// they may share their values with the table Prepare was given and with each other.
type Prepared struct {
	// Full holds the released columns (protected, kept, strata) in file order; keys and the
	// columns of a categorical method are categorical.
	Full *datasets.Dataset
	// Protected holds the protected columns only, in file order: what the method sees.
	Protected *datasets.Dataset
	prot      []int   // indices of the protected columns in Full
	strata    [][]int // rows of each stratum, strata in value order; nil without strata
	names     []string
	owned     bool // PrepareOwned: the released table is Full, the protected columns written over
}

// Prepare resolves sel on d for a method with Info info. Unknown or repeated column names,
// a column both protected and kept, keys outside the release, and a categorical column
// protected by a numeric method are errors naming the column.
func Prepare(d *datasets.Dataset, sel Selection, info Info) (*Prepared, error) {
	return prepare(d, sel, info, false)
}

// PrepareOwned is Prepare for a caller that owns d, shares it with no one and needs neither
// d nor Full once the release is made (protect with no summary and no report to compare the
// release with): the columns Prepare would categorize in a copy are categorized in d itself
// (datasets.Dataset.CategorizeInPlace), Full is d when every column of d is released, and
// the released table of Protect and Released is Full with the protected columns written over
// its own values instead of into a copy of it. At 10^6 × 10 with one column protected each
// copy was 80 MB of fresh memory, up to about a quarter of the process's time
// (docs/datapath.md, "Copies of the table"). The tables, the release and the released table hold the values and
// levels Prepare's would, bit for bit (TestPrepareOwnedMatchesPrepare); Protected is a table
// of its own whenever the release is written over Full, so a caller may still compare it with
// the release (methods.CheckOverflow, methods.CheckHoles) after Protect. The released table
// is Full itself: a second release overwrites the first.
func PrepareOwned(d *datasets.Dataset, sel Selection, info Info) (*Prepared, error) {
	return prepare(d, sel, info, true)
}

func prepare(d *datasets.Dataset, sel Selection, info Info, owned bool) (*Prepared, error) {
	bad := func(flag, format string, a ...any) error {
		return fmt.Errorf("%s: %s: %s", d.Name, flag, fmt.Sprintf(format, a...))
	}
	has := func(flag string, names []string) error {
		seen := map[string]bool{}
		for _, c := range names {
			if d.ColIndex(c) < 0 {
				return bad(flag, "no column %q (have %s)", c, strings.Join(d.Names, ", "))
			}
			if seen[c] {
				return bad(flag, "column %q named twice", c)
			}
			seen[c] = true
		}
		return nil
	}
	for _, f := range []struct {
		flag  string
		names []string
	}{{"columns", sel.Columns}, {"keep", sel.Keep}, {"keys", sel.Keys}, {"categorical", sel.Categorical}} {
		if err := has(f.flag, f.names); err != nil {
			return nil, err
		}
	}
	if sel.Strata != "" && d.ColIndex(sel.Strata) < 0 {
		return nil, bad("strata", "no column %q (have %s)", sel.Strata, strings.Join(d.Names, ", "))
	}
	protected := map[string]bool{}
	released := map[string]bool{sel.Strata: sel.Strata != ""}
	for _, c := range sel.Keep {
		if slices.Contains(sel.Columns, c) {
			return nil, bad("keep", "column %q is also in columns (protect it or keep it)", c)
		}
		if c == sel.Strata {
			continue
		}
		released[c] = true
	}
	if sel.Columns == nil {
		for _, c := range d.Names {
			if !released[c] {
				protected[c] = true
			}
		}
	}
	for _, c := range sel.Columns {
		if c == sel.Strata {
			return nil, bad("strata", "column %q is also protected (strata are passed through)", c)
		}
		protected[c] = true
	}
	if len(protected) == 0 {
		return nil, bad("columns", "no column left to protect")
	}
	var cols []string
	for _, c := range d.Names {
		if protected[c] || released[c] {
			cols = append(cols, c)
		}
	}
	for _, k := range sel.Keys {
		if !protected[k] && !released[k] {
			return nil, bad("keys", "key %q is neither protected nor kept (add it to keep)", k)
		}
	}
	var full *datasets.Dataset
	var err error
	switch {
	case slices.Equal(cols, d.Names) && owned:
		full = d // the caller's own table: categorized and released in place
	case slices.Equal(cols, d.Names):
		full = d.View() // the whole table is released: Prepared's tables are read-only, share its values
	default:
		if full, err = d.Select(cols); err != nil {
			return nil, err
		}
	}
	full.Name = d.Name
	cat := append(slices.Clone(sel.Keys), sel.Categorical...)
	if info.Columns == CategoricalColumns {
		for c := range protected {
			cat = append(cat, c)
		}
	}
	slices.Sort(cat)
	if cat = slices.Compact(cat); owned {
		if err := full.CategorizeInPlace(cat); err != nil {
			return nil, err
		}
	} else if len(cat) > 0 && !categorical(full, cat) {
		if full, err = full.Categorize(cat); err != nil {
			return nil, err
		}
	}
	pr := &Prepared{Full: full, owned: owned}
	var pnames []string
	for j, c := range full.Names {
		if !protected[c] {
			continue
		}
		if info.Columns == NumericColumns && full.IsCategorical(j) {
			return nil, &ColumnKindError{Data: d.Name, Method: info.Name, Column: c}
		}
		pr.prot = append(pr.prot, j)
		pnames = append(pnames, c)
	}
	if slices.Equal(pnames, full.Names) {
		pr.Protected = full.View() // every released column is protected
	} else if pr.Protected, err = full.Select(pnames); err != nil {
		return nil, err
	}
	pr.Protected.Name = d.Name
	if sel.Strata != "" {
		sc := full.ColIndex(sel.Strata)
		groups := map[string][]int{}
		for i := 0; i < full.N; i++ {
			l := full.Label(i, sc)
			if _, ok := groups[l]; !ok {
				pr.names = append(pr.names, l)
			}
			groups[l] = append(groups[l], i)
		}
		datasets.SortLevels(pr.names)
		for _, l := range pr.names {
			pr.strata = append(pr.strata, groups[l])
		}
		for s, l := range pr.names {
			pr.names[s] = sel.Strata + "=" + l
		}
	}
	return pr, nil
}

// categorical reports whether every column in names is a categorical column of d: a caller
// that owns its table may have categorized it in place (datasets.Dataset.CategorizeInPlace),
// and Prepare then need not copy it.
func categorical(d *datasets.Dataset, names []string) bool {
	for _, c := range names {
		if j := d.ColIndex(c); j < 0 || !d.IsCategorical(j) {
			return false
		}
	}
	return true
}

// ColumnKindError reports a categorical column given to a numeric method.
type ColumnKindError struct {
	Data, Method, Column string
}

func (e *ColumnKindError) Error() string {
	return fmt.Sprintf("%s: %s: column %q is categorical; a numeric method protects numbers (pass it through with keep, or choose a categorical method)", e.Data, e.Method, e.Column)
}

// Strata returns the stratum names ("region=North") in the order they run; nil without strata.
func (pr *Prepared) Strata() []string { return pr.names }

// part returns the protected columns of stratum s as a table named "<data>[<stratum>]".
func (pr *Prepared) part(s int) *datasets.Dataset {
	rows := pr.strata[s]
	d := pr.Protected
	data := make([]float64, 0, len(rows)*d.P)
	for _, i := range rows {
		data = append(data, d.Row(i)...)
	}
	sub := datasets.New(d.Name+"["+pr.names[s]+"]", slices.Clone(d.Names), len(rows), d.P, data)
	if d.Levels != nil {
		sub.Levels = make([][]string, d.P)
		for j, l := range d.Levels {
			if l != nil {
				sub.Levels[j] = slices.Clone(l)
			}
		}
	}
	return sub
}

// Validate checks the parameters on the protected columns, or on every stratum: a stratum
// with fewer records than the method's k, or one the method's Validator rejects, is an error
// naming it.
func (pr *Prepared) Validate(m Method, p Params) error {
	v, _ := m.(Validator)
	if pr.strata == nil {
		if v != nil {
			return v.Validate(pr.Protected, p)
		}
		return nil
	}
	hasK := slices.ContainsFunc(m.Info().Params, func(ps ParamSpec) bool { return ps.Name == "k" && ps.Kind == Int })
	for s := range pr.strata {
		n := len(pr.strata[s])
		if hasK && n < p.Int("k") {
			return fmt.Errorf("%s: stratum %s has %d records, fewer than k = %d", m.Info().Name, pr.names[s], n, p.Int("k"))
		}
		if v != nil {
			if err := v.Validate(pr.part(s), p); err != nil {
				return fmt.Errorf("stratum %s (%d records): %w", pr.names[s], n, err)
			}
		}
	}
	return nil
}

// Protect runs m on the protected columns, or on each stratum in turn with the same
// generator (strata in value order), and returns the release of the protected columns and
// the whole released table (which may share its values with the release's Masked, or be
// Full itself for a Prepared of PrepareOwned: neither is to be modified). With strata,
// partitions are merged and renumbered by smallest member, numeric Info values are summed
// (those whose key ends in "_err" or "_max": the maximum), other Info values, the protected
// Columns and the trace are the first stratum's, and the typed diagnostics are merged alike
// (diag.Diagnostics.Merge).
func (pr *Prepared) Protect(ctx context.Context, m Method, p Params, rng *rand.Rand) (rel *Release, full *datasets.Dataset, err error) {
	if pr.strata == nil {
		rel, err = m.Protect(ctx, pr.Protected, p, rng)
		if err != nil {
			return nil, nil, err
		}
		if err := pr.checkShape(m, rel, pr.Protected); err != nil {
			return nil, nil, err
		}
		reportPartition(rel)
		return rel, pr.merge(rel.Masked), nil
	}
	out := pr.Protected.Clone()
	merged := &Release{Masked: out}
	var labels []int32
	offset := int32(0)
	for s, rows := range pr.strata {
		part := pr.part(s)
		r, err := m.Protect(ctx, part, p, rng)
		if err != nil {
			return nil, nil, fmt.Errorf("stratum %s: %w", pr.names[s], err)
		}
		if err := pr.checkShape(m, r, part); err != nil {
			return nil, nil, err
		}
		masked := r.Masked
		if s > 0 && masked.Levels != nil {
			if masked, err = masked.AlignLevels(out); err != nil {
				return nil, nil, err
			}
		}
		if masked.Levels != nil {
			out.Levels = masked.Levels
		}
		for k, i := range rows {
			copy(out.Row(i), masked.Row(k))
		}
		if r.Labels != nil {
			if labels == nil {
				labels = make([]int32, out.N)
			}
			top := int32(0)
			for k, i := range rows {
				labels[i] = offset + r.Labels[k]
				top = max(top, r.Labels[k]+1)
			}
			offset += top
		}
		if s == 0 {
			merged.Trace = r.Trace
		}
		merged.Info = mergeInfo(merged.Info, r.Info)
		if merged.Columns == nil {
			merged.Columns = r.Columns
		}
		reportPartition(r)
		merged.Diag.Merge(r.Diag)
	}
	if labels != nil {
		merged.Labels = canonical(labels)
	}
	return merged, pr.merge(out), nil
}

func (pr *Prepared) checkShape(m Method, r *Release, in *datasets.Dataset) error {
	if r == nil || r.Masked == nil || r.Masked.N != in.N || r.Masked.P != in.P {
		return fmt.Errorf("%s: release does not have the input's %d×%d shape", m.Info().Name, in.N, in.P)
	}
	return nil
}

// Released returns the whole released table of a release of the protected columns: Full
// with the protected columns replaced by masked's, as Protect returns it (it may share
// masked's values; of a Prepared of PrepareOwned it may be Full itself).
func (pr *Prepared) Released(masked *datasets.Dataset) *datasets.Dataset { return pr.merge(masked) }

// merge returns Full with the protected columns replaced by masked's. When every column of
// Full is protected the result shares masked's values instead of copying them (at 10^6 × 10 a
// copy of fresh memory costs a third of a CPU-second; docs/datapath.md): its names and levels
// are its own, as a copy's would be. Otherwise a Prepared of PrepareOwned writes the
// protected columns over Full itself and returns it; any other copies Full first.
func (pr *Prepared) merge(masked *datasets.Dataset) *datasets.Dataset {
	if pr.protectsAll() && masked.P == pr.Full.P && masked.N == pr.Full.N {
		full := &datasets.Dataset{Name: pr.Full.Name, Names: slices.Clone(pr.Full.Names), N: masked.N, P: masked.P, Data: masked.Data}
		if pr.Full.Levels != nil || len(masked.Categorical()) > 0 {
			full.Levels = make([][]string, full.P)
			for j := range full.P {
				if masked.IsCategorical(j) {
					full.Levels[j] = slices.Clone(masked.Levels[j])
				}
			}
		}
		return full
	}
	full := pr.Full
	if !pr.owned {
		full = full.Clone()
	}
	return mergeInto(full, masked, pr.prot)
}

// mergeInto writes column c of masked into column prot[c] of full, values and levels (a copy
// of masked's; nil for a numeric column), and returns full. It goes row by row: a pass per
// column would read every cache line of full once per protected column.
func mergeInto(full, masked *datasets.Dataset, prot []int) *datasets.Dataset {
	for i := 0; i < full.N; i++ {
		dst, src := full.Data[i*full.P:(i+1)*full.P], masked.Data[i*masked.P:(i+1)*masked.P]
		for c, j := range prot {
			dst[j] = src[c]
		}
	}
	for c, j := range prot {
		if masked.IsCategorical(c) {
			if full.Levels == nil {
				full.Levels = make([][]string, full.P)
			}
			full.Levels[j] = slices.Clone(masked.Levels[c])
		} else if full.Levels != nil {
			full.Levels[j] = nil
		}
	}
	return full
}

// protectsAll reports whether every column of Full is protected (then in the same order).
func (pr *Prepared) protectsAll() bool {
	if len(pr.prot) != pr.Full.P {
		return false
	}
	for c, j := range pr.prot {
		if c != j {
			return false
		}
	}
	return true
}

// reportPartition gives a release with a partition (Labels) that does not describe it in
// Diag.Partition one with its number of groups.
func reportPartition(rel *Release) {
	if rel.Labels == nil || rel.Diag.Partition != nil {
		return
	}
	seen := map[int32]bool{}
	for _, l := range rel.Labels {
		seen[l] = true
	}
	rel.Diag.Partition = &diag.Partition{Groups: len(seen)}
}

func mergeInfo(acc, add map[string]any) map[string]any {
	if acc == nil {
		acc = map[string]any{}
	}
	for k, v := range add {
		old, ok := acc[k]
		if !ok {
			acc[k] = v
			continue
		}
		a, okA := number(old)
		b, okB := number(v)
		if !okA || !okB {
			continue
		}
		if strings.HasSuffix(k, "_err") || strings.HasSuffix(k, "_max") {
			acc[k] = math.Max(a, b)
		} else {
			acc[k] = a + b
		}
	}
	return acc
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// canonical renumbers labels by the first appearance of each group in row order.
func canonical(labels []int32) []int32 {
	m := map[int32]int32{}
	out := make([]int32, len(labels))
	for i, l := range labels {
		c, ok := m[l]
		if !ok {
			c = int32(len(m))
			m[l] = c
		}
		out[i] = c
	}
	return out
}
