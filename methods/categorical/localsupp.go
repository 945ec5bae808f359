package categorical

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/keyfreq"
	"github.com/sdcbench/sdcbench/methods"
)

func init() { methods.Register(LocalSupp{}) }

// LocalSupp is `local_supp`, sdcMicro's threshold local suppression localSupp
// (docs/categorical.md): the columns given are the key variables; for each step
// (key_var[s], threshold[s]) in order, the individual risk r = 1/f of the current release is
// computed on all keys (missing values are wildcards) and key_var[s] is set missing in every
// record with r > threshold[s]. Deterministic.
type LocalSupp struct{}

// Info implements methods.Method.
func (LocalSupp) Info() methods.Info {
	return methods.Info{
		Name:        "local_supp",
		Description: "threshold local suppression: set key_var missing where the individual risk 1/f exceeds threshold (sdcMicro localSupp)",
		Params: []methods.ParamSpec{
			{Name: "key_var", Kind: methods.String, Default: "",
				Doc: "the key to suppress; a comma list runs several steps in order (e.g. water,relat)"},
			{Name: "threshold", Kind: methods.String, Default: "0.15",
				Doc: "risk threshold in [0, 1]; a comma list gives one per step"},
		},
		Columns: methods.CategoricalColumns,
		Example: map[string]string{"key_var": "water"}, // testdata's key
		Missing: "kept missing; a missing key matches every category in the frequencies (sdcMicro's rule); new missing cells are its declared suppressions (n_suppressed)",
	}
}

type suppStep struct {
	col int
	thr float64
}

func suppSteps(d *datasets.Dataset, p methods.Params) ([]suppStep, error) {
	if err := requireCategorical("local_supp", d); err != nil {
		return nil, err
	}
	vars := strings.Split(p.String("key_var"), ",")
	thrs := strings.Split(p.String("threshold"), ",")
	if p.String("key_var") == "" {
		return nil, fmt.Errorf("local_supp: %w key_var: name the key to suppress (one of %v)", methods.ErrBadParam, d.Names)
	}
	if len(thrs) != 1 && len(thrs) != len(vars) {
		return nil, fmt.Errorf("local_supp: %w threshold=%q: give one threshold or one per key_var (%d)", methods.ErrBadParam, p.String("threshold"), len(vars))
	}
	steps := make([]suppStep, len(vars))
	for s, v := range vars {
		v = strings.TrimSpace(v)
		j := d.ColIndex(v)
		if j < 0 {
			return nil, fmt.Errorf("local_supp: %w key_var=%q: not among the key columns %v", methods.ErrBadParam, v, d.Names)
		}
		ts := strings.TrimSpace(thrs[min(s, len(thrs)-1)])
		t, err := strconv.ParseFloat(ts, 64)
		if err != nil || t < 0 || t > 1 {
			return nil, fmt.Errorf("local_supp: %w threshold=%q: must be in [0, 1]", methods.ErrBadParam, ts)
		}
		steps[s] = suppStep{j, t}
	}
	return steps, nil
}

// Validate implements methods.Validator.
func (LocalSupp) Validate(d *datasets.Dataset, p methods.Params) error {
	_, err := suppSteps(d, p)
	return err
}

// Protect implements methods.Method. Info: "n_suppressed" (cells set missing, all steps) and
// "n_suppressed_<s>" for each step s = 1, 2, ….
func (LocalSupp) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	steps, err := suppSteps(d, p)
	if err != nil {
		return nil, err
	}
	out := d.Clone()
	info := map[string]any{}
	total := 0
	for s, st := range steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := keyRisk(out)
		if err != nil {
			return nil, fmt.Errorf("local_supp: %w", err)
		}
		n := 0
		for i, ri := range r {
			k := i*out.P + st.col
			if ri > st.thr && !math.IsNaN(out.Data[k]) {
				out.Data[k] = math.NaN()
				n++
			}
		}
		info["n_suppressed_"+strconv.Itoa(s+1)] = n
		total += n
	}
	info["n_suppressed"] = total
	return &methods.Release{Masked: out, Info: info}, nil
}

// keyRisk returns the individual risk r = 1/f of every record of d, f being the sample
// frequency of its combination of all d's columns with missing values as wildcards
// (keyfreq.Count; metrics.md §4.1 and §4.3, unweighted): the risk the measure ind_risk_max
// reports, recomputed after each suppression step.
func keyRisk(d *datasets.Dataset) ([]float64, error) {
	if d.N == 0 || d.P == 0 {
		return nil, fmt.Errorf("no key columns")
	}
	cols := make([]int, d.P)
	for j := range cols {
		cols[j] = j
	}
	f, _ := keyfreq.Count(d.Data, d.N, d.P, cols, nil)
	r := make([]float64, d.N)
	for i, v := range f {
		r[i] = 1 / v
	}
	return r, nil
}
