package experiments

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sdcbench/sdcbench/methods"
)

// selOptions are the column-selection options a [[methods]] entry may set, in the order of
// their runs.csv columns param_sel_<name> (docs/own-data.md §2, docs/harness.md).
var selOptions = []string{"strata", "columns", "keep"}

// hasSel reports whether the entry sets any selection option.
func (ms *MethodSpec) hasSel() bool { return ms.Strata != nil || ms.Columns != nil || ms.Keep != nil }

// selCells returns the entry's selection options as runs.csv cells by option name: the strata
// column, and the columns and keep lists joined by "+"; nil when the entry sets none. An option
// the entry leaves to its dataset entry has no cell (an empty one in runs.csv), so a
// configuration keeps its name across datasets.
func (ms *MethodSpec) selCells() map[string]string {
	if !ms.hasSel() {
		return nil
	}
	c := map[string]string{}
	if ms.Strata != nil {
		c["strata"] = *ms.Strata
	}
	if ms.Columns != nil {
		c["columns"] = strings.Join(ms.Columns, "+")
	}
	if ms.Keep != nil {
		c["keep"] = strings.Join(ms.Keep, "+")
		if len(ms.Keep) == 0 {
			c["keep"] = "none" // keep = []: the cell must differ from an absent keep's
		}
	}
	return c
}

// selKey is the text a run's selection options add to its ID (runKey): empty without any, so
// the runs of entries without them keep the IDs and seeds they always had.
func selKey(cells map[string]string) string {
	var b strings.Builder
	for _, name := range selOptions {
		if v, ok := cells[name]; ok {
			b.WriteString(";sel_" + name + "=" + v)
		}
	}
	return b.String()
}

// selNames returns the selection options that some [[methods]] entry sets, in selOptions
// order: each adds a column param_sel_<name> to runs.csv (none for a spec without them).
func (s *Spec) selNames() []string {
	var out []string
	for _, name := range selOptions {
		for i := range s.Methods {
			if _, ok := s.Methods[i].selCells()[name]; ok {
				out = append(out, name)
				break
			}
		}
	}
	return out
}

// checkSel checks the selection options of [[methods]] entry i as written (the columns
// themselves are checked against each dataset by Prepare).
func (ms *MethodSpec) checkSel(key string) error {
	if ms.Strata != nil && *ms.Strata == "" {
		return &SpecError{Key: key + ".strata", Err: errors.New(`empty: to compare a method with and without strata, set strata in the [[methods]] entry of the stratified variant only, not in the dataset entry`)}
	}
	for _, f := range []struct {
		name string
		list []string
	}{{"strata", nil}, {"columns", ms.Columns}, {"keep", ms.Keep}} {
		if f.name == "strata" && ms.Strata != nil {
			f.list = []string{*ms.Strata}
		}
		for j, c := range f.list {
			// The options are runs.csv cells, the lists joined by "+".
			if err := noControl(c); err != nil {
				return &SpecError{Key: fmt.Sprintf("%s.%s", key, f.name), Err: fmt.Errorf("column %q: %v", clipEcho(c), err)}
			}
			if f.name != "strata" && (strings.Contains(c, "+") || c == "" || (f.name == "keep" && c == "none")) {
				return &SpecError{Key: fmt.Sprintf("%s.%s[%d]", key, f.name, j), Err: fmt.Errorf("column name %q cannot be a method-entry option (the runs.csv cell joins the names with \"+\"; rename the column in the file)", clipEcho(c))}
			}
		}
	}
	if ms.Columns != nil && len(ms.Columns) == 0 {
		return &SpecError{Key: key + ".columns", Err: errors.New("empty list: name the columns the method protects, or leave columns out")}
	}
	return nil
}

// entrySelection returns the column selection of [[methods]] entry ms on a dataset: the dataset
// entry's, with the entry's options in place of the dataset's (docs/own-data.md §2):
//   - strata replaces the dataset's strata column; that one, if any, is then passed through;
//   - columns replaces the protected columns; without keep, every other column the dataset
//     entry releases passes through unchanged, so the variants release the same table;
//   - keep replaces the passed-through columns (keep = [] passes none through).
func (s *Spec) entrySelection(label string, ms *MethodSpec) methods.Selection {
	e := s.entries[label]
	sel := e.selection()
	if !ms.hasSel() {
		return sel
	}
	released := s.data[label].Names // the dataset entry protects every column
	if e.Columns != nil {
		released = nil
		for _, c := range s.data[label].Names {
			if c == e.Strata || slices.Contains(e.Columns, c) || slices.Contains(e.Keep, c) {
				released = append(released, c)
			}
		}
	}
	if ms.Strata != nil {
		if sel.Strata != "" && sel.Strata != *ms.Strata && !slices.Contains(sel.Keep, sel.Strata) {
			sel.Keep = append(slices.Clone(sel.Keep), sel.Strata)
		}
		sel.Strata = *ms.Strata
	}
	if ms.Columns != nil {
		sel.Columns = slices.Clone(ms.Columns)
		if ms.Keep == nil {
			sel.Keep = nil
			for _, c := range released {
				if c != sel.Strata && !slices.Contains(ms.Columns, c) {
					sel.Keep = append(sel.Keep, c)
				}
			}
		}
	}
	if ms.Keep != nil {
		sel.Keep = slices.Clone(ms.Keep)
	}
	return sel
}

// prepareEntry resolves the column selection of [[methods]] entry i on a dataset for its
// method and returns the key of the result in s.prepared. The resolved tables are shared by
// every entry whose selection and column kind agree (docs/scaling.md): ten numeric methods on
// one dataset hold one copy of it, not ten.
func (s *Spec) prepareEntry(i int, label string) (string, error) {
	ms := &s.Methods[i]
	info := s.methods[i].Info()
	sel := s.entrySelection(label, ms)
	b, _ := json.Marshal(sel)
	// Prepare depends on the method only through its column kind (and names it in errors).
	key := label + "\x00" + string(info.Columns) + "\x00" + string(b)
	if _, ok := s.prepared[key]; ok {
		return key, nil
	}
	pr, err := methods.Prepare(s.data[label], sel, info)
	if err != nil {
		return "", err
	}
	if ms.hasSel() {
		e := s.entries[label]
		for _, c := range []string{e.Weight, e.Household, e.Sensitive} {
			if c != "" && pr.Full.ColIndex(c) < 0 {
				return "", fmt.Errorf("column %q (weight, household or sensitive) is not released by this entry's selection: add it to keep", c)
			}
		}
	}
	s.prepared[key] = &preparedSel{pr: pr, sel: sel}
	return key, nil
}

// preparedSel is a selection resolved on a dataset for a column kind.
type preparedSel struct {
	pr  *methods.Prepared
	sel methods.Selection
}

// effectiveKey names what a prepared selection releases and protects and its strata, whatever
// the options that led to it: two entries of one method with equal parameters and equal
// effective keys on a dataset run the same configuration.
func (p *preparedSel) effectiveKey() string {
	return strings.Join(p.pr.Full.Names, "\x1f") + "\x1e" + strings.Join(p.pr.Protected.Names, "\x1f") + "\x1e" + p.sel.Strata
}

// checkSameConfigs refuses two [[methods]] entries that run one method with equal parameters
// and the same effective selection on a dataset under different names (e.g. one inherits the
// dataset's strata, the other sets the same column): the analysis would count one
// configuration twice. Entries with equal run IDs are checkDuplicateRuns' to report.
func (s *Spec) checkSameConfigs() error {
	first := map[string]Run{}
	firstEntry := map[string]int{}
	for k, r := range s.runs {
		p := s.prepared[r.prep]
		if p == nil || r.Replicate != 1 {
			continue
		}
		key := r.Dataset + "\x00" + r.Method + "\x00" + paramKey(r.Params) + "\x00" + p.effectiveKey()
		if q, dup := first[key]; dup && q.ID != r.ID {
			return &SpecError{Key: fmt.Sprintf("methods[%d]", s.runEntry[k]), Err: fmt.Errorf(
				"runs the same configuration as methods[%d] on dataset %s (%s, %s: the same columns protected, released and stratified): remove one entry",
				firstEntry[key], r.Dataset, r.Method, paramKey(r.Params))}
		}
		first[key], firstEntry[key] = r, s.runEntry[k]
	}
	return nil
}
