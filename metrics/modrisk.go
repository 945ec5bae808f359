package metrics

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/internal/keyfreq"
)

// Model-based global risk of sdcMicro 5.8.1's modRisk (docs/metrics.md "Model-based global
// risk"; Skinner and Holmes 1998; Clogg and Eliason 1987).
func init() {
	Register(Func(Info{ID: "modrisk_gr1", Label: "Model-based risk gr1", Unit: "frac", Better: Lower, Components: []string{"er"},
		Description: "log-linear model risk: Σ over sample uniques of P(population unique), divided by the number of non-empty key cells; er the sum (sdcMicro modRisk gr1; metrics.md: model-based global risk)"},
		ModRiskGR1))
	Register(Func(Info{ID: "modrisk_gr2", Label: "Model-based risk gr2", Unit: "frac", Better: Lower, Components: []string{"er"},
		Description: "log-linear model risk: Σ over sample uniques of E(1/F), divided by the number of non-empty key cells; er the sum (sdcMicro modRisk gr2; metrics.md: model-based global risk)"},
		ModRiskGR2))
}

// ModRiskOptions are the parameters of modrisk_gr1 and modrisk_gr2: sdcMicro modRisk's method,
// formulaM and bound.
type ModRiskOptions struct {
	// Method is "default" (also ""), "CE", "PML", "weightedLLM" or "IPF" (metric option
	// modrisk_method, any letter case).
	Method string
	// Formula is the log-linear model over columns of the release, R syntax with +, : and *
	// ("~ sex + water + roof + sex:water"); "" means the main effects of the keys (metric option
	// modrisk_formula).
	Formula string
	// Bound counts only the key cells of at most Bound records (0 means no bound, sdcMicro's
	// Inf; metric option modrisk_bound).
	Bound float64
}

// modRiskMethods are the canonical method names, keyed by their lower-case form.
var modRiskMethods = map[string]string{"": "default", "default": "default", "ce": "CE", "pml": "PML",
	"weightedllm": "weightedLLM", "ipf": "IPF"}

// setModRiskOption sets the metric options modrisk_method, modrisk_formula and modrisk_bound;
// ok is false for another key.
func (o *Options) setModRiskOption(key, value string) (ok bool, err error) {
	bad := func(want string) error { return fmt.Errorf("%w %s=%q: want %s", ErrBadOption, key, value, want) }
	switch key {
	case "modrisk_method":
		m, found := modRiskMethods[strings.ToLower(strings.TrimSpace(value))]
		if !found {
			return true, bad("default, CE, PML, weightedLLM or IPF")
		}
		o.ModRisk.Method = m
	case "modrisk_formula":
		if strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(value), "~")) == "" {
			return true, bad("a model formula such as ~ a + b + a:b")
		}
		o.ModRisk.Formula = value
	case "modrisk_bound":
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || !(v > 0) {
			return true, bad("a number > 0 (Inf for no bound)")
		}
		if math.IsInf(v, 1) {
			v = 0
		}
		o.ModRisk.Bound = v
	default:
		return false, nil
	}
	return true, nil
}

// maxModRiskCells bounds the table of the model, the cross product of the levels of its
// variables (sdcMicro builds it with expand.grid and fits it as a dense model matrix).
const maxModRiskCells = 1 << 22

// maxModRiskCoef bounds the coefficients of a glm model: each IRLS step factors a dense
// matrix of that order (4,000² float64 are 128 MB).
const maxModRiskCoef = 4000

// modRisk holds the two global risks of one Input.
type modRisk struct {
	gr1, gr2 float64 // sdcMicro's gr1, gr2
	er1, er2 float64 // their sums over the sample uniques
	notes    []string
}

// ModRiskGR1 returns modrisk_gr1, sdcMicro modRisk's gr1 (docs/metrics.md "Model-based global
// risk"): the release's records are tabulated on the model's variables (the cross product of
// their observed levels; a record with a missing value is left out), a Poisson log-linear model
// of the cell counts gives each cell's expected population frequency λ_k, and
//
//	gr1 = Σ_{k: f_k = 1} exp(−(1 − π_k)·λ_k) / #{k : 0 < f_k ≤ bound},
//
// with π_k = Σ_{i∈k} 1/w_i, the sum of the inclusion probabilities of the cell's records. Aux
// "er" is the numerator, the expected number of sample uniques that are population uniques
// (Skinner and Holmes 1998). NaN with a note for a bad option, a missing or non-positive
// weight, no key column, a table larger than 2^22 cells or a glm model of more than 4,000
// coefficients; a cancelled Input.Ctx gives NaN with a "cancelled" note.
func ModRiskGR1(in *Input) Result {
	r := cached(in, "modrisk", modRiskOf)
	if r.notes != nil && math.IsNaN(r.gr1) {
		return Result{Value: math.NaN(), Notes: r.notes}
	}
	return Result{Value: r.gr1, Aux: map[string]float64{"er": r.er1}, Notes: r.notes}
}

// ModRiskGR2 returns modrisk_gr2, sdcMicro modRisk's gr2: as ModRiskGR1 with the expected
// inverse population frequency of a sample unique, (1 − exp(−v))/v at v = (1 − π_k)·λ_k (1 at
// v = 0), in place of exp(−v). Aux "er" is the numerator, the expected number of correct
// matches of the sample uniques.
func ModRiskGR2(in *Input) Result {
	r := cached(in, "modrisk", modRiskOf)
	if r.notes != nil && math.IsNaN(r.gr2) {
		return Result{Value: math.NaN(), Notes: r.notes}
	}
	return Result{Value: r.gr2, Aux: map[string]float64{"er": r.er2}, Notes: r.notes}
}

// modRiskCells is the table of the model: per cell the record count f, the weight sum and
// the sum of inverse weights π, over the complete records.
type modRiskCells struct {
	vars     []int // the model's variables (columns of the key table)
	levels   []int // observed levels per variable
	radix    []int // cell = Σ code_v·radix_v
	f, w, pi []float64
	nAll     float64 // records, complete or not
	wAll     float64 // their weight sum
}

func modRiskFail(format string, a ...any) *modRisk {
	return &modRisk{gr1: math.NaN(), gr2: math.NaN(), notes: []string{"modrisk: " + fmt.Sprintf(format, a...)}}
}

// modRiskOf fits the model of in.Opt.ModRisk and computes both risks.
func modRiskOf(in *Input) *modRisk {
	t := in.keyTable()
	o := in.Opt.ModRisk
	method, ok := modRiskMethods[strings.ToLower(o.Method)]
	if !ok {
		return modRiskFail("unknown method %q (default, CE, PML, weightedLLM or IPF)", o.Method)
	}
	var terms [][]int
	if o.Formula == "" {
		cols, note := keyColumns(in)
		if note == "" && len(cols) == 0 {
			note = "no key columns"
		}
		if note != "" {
			return modRiskFail("%s", note)
		}
		for _, c := range cols {
			terms = append(terms, []int{c})
		}
	} else {
		var err error
		if terms, err = parseFormula(o.Formula, t.Names); err != nil {
			return modRiskFail("%v", err)
		}
	}
	if method == "IPF" && len(terms[len(terms)-1]) > 1 {
		return modRiskFail("method IPF fits main effects only, as sdcMicro's (formula %q has interactions)", o.Formula)
	}
	var notes []string
	var w []float64
	if in.Opt.Weight == "" {
		notes = append(notes, "modrisk: no weight column: every weight is 1, as sdcMicro's modRisk sets them")
	} else {
		wc := colIndex(t.Names, in.Opt.Weight)
		if wc < 0 {
			return modRiskFail("weight column %s not found", in.Opt.Weight)
		}
		w = t.Col(wc)
		for i, v := range w {
			if !(v > 0) || math.IsInf(v, 1) {
				return modRiskFail("weight %v of record %d (column %s) is not a positive number", v, i+1, in.Opt.Weight)
			}
		}
	}
	c, err := tabulate(in, terms, w)
	if err != nil {
		return modRiskFail("%v", err)
	}
	var lambda []float64
	if method == "IPF" {
		lambda = c.independence()
	} else {
		lambda, ok, err = c.fitLogLinear(method, terms, in.Err)
		if err != nil {
			if in.Err() != nil {
				return &modRisk{gr1: math.NaN(), gr2: math.NaN(), notes: cancelled(err).Notes}
			}
			return modRiskFail("%v", err)
		}
		if !ok {
			notes = append(notes, "modrisk: the Poisson fit did not converge in 100 iterations")
		}
	}
	r := &modRisk{notes: notes}
	cells := 0
	for k, f := range c.f {
		if f == 0 || (o.Bound > 0 && f > o.Bound) {
			continue
		}
		cells++
		if f != 1 {
			continue
		}
		v := (1 - c.pi[k]) * lambda[k]
		r.er1 += math.Exp(-v)
		if v == 0 {
			r.er2++
		} else {
			r.er2 += -math.Expm1(-v) / v
		}
	}
	if cells == 0 {
		return modRiskFail("no key cell holds between 1 and %v records", o.Bound)
	}
	r.gr1, r.gr2 = r.er1/float64(cells), r.er2/float64(cells)
	return r
}

// tabulate builds the model's table over the variables of terms (its main effects): a
// variable's levels are its distinct observed values (keyfreq.Bits), a record with a missing
// value counts only in nAll and wAll, and w nil means weights 1.
func tabulate(in *Input, terms [][]int, w []float64) (*modRiskCells, error) {
	t := in.keyTable()
	c := &modRiskCells{}
	for _, tm := range terms {
		if len(tm) == 1 {
			c.vars = append(c.vars, tm[0])
		}
	}
	n, p := t.N, t.P
	codes := make([][]int32, len(c.vars))
	size := 1
	for v, col := range c.vars {
		ids := map[uint64]int32{}
		codes[v] = make([]int32, n)
		for i := 0; i < n; i++ {
			x := t.Data[i*p+col]
			if math.IsNaN(x) {
				codes[v][i] = -1
				continue
			}
			k := keyfreq.Bits(x)
			id, ok := ids[k]
			if !ok {
				id = int32(len(ids))
				ids[k] = id
			}
			codes[v][i] = id
		}
		if len(ids) == 0 {
			return nil, fmt.Errorf("column %s has no observed value", t.Names[col])
		}
		c.levels = append(c.levels, len(ids))
		c.radix = append(c.radix, size)
		if size > maxModRiskCells/len(ids) {
			return nil, fmt.Errorf("the table of the model's variables has more than %d cells", maxModRiskCells)
		}
		size *= len(ids)
	}
	c.f, c.w, c.pi = make([]float64, size), make([]float64, size), make([]float64, size)
	for i := 0; i < n; i++ {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		c.nAll++
		c.wAll += wi
		k := 0
		for v := range c.vars {
			code := codes[v][i]
			if code < 0 {
				k = -1
				break
			}
			k += int(code) * c.radix[v]
		}
		if k < 0 {
			continue
		}
		c.f[k]++
		c.w[k] += wi
		c.pi[k] += 1 / wi
	}
	return c, nil
}

// independence returns the fitted counts of the main-effects model, N·Π_v (f_v(k)/N) with
// f_v the margins of the counts and N their total: what sdcMicro's IPF (MASS loglm) reaches
// after its first cycle, and where it stops.
func (c *modRiskCells) independence() []float64 {
	margins := make([][]float64, len(c.vars))
	for v := range c.vars {
		margins[v] = make([]float64, c.levels[v])
	}
	var total float64
	for k, f := range c.f {
		total += f
		for v := range c.vars {
			margins[v][k/c.radix[v]%c.levels[v]] += f
		}
	}
	lambda := make([]float64, len(c.f))
	for k := range lambda {
		l := total
		for v := range c.vars {
			l *= margins[v][k/c.radix[v]%c.levels[v]] / total
		}
		lambda[k] = l
	}
	return lambda
}

// fitLogLinear fits sdcMicro's glm of the method over every cell of the table and returns the
// fitted counts λ. The response is the count f, and for PML the rounded scaled weight sum
// round(w_k·nAll/wAll) (R's round: half to even); CE adds the offset ln(f_k/w_k + 0.1)
// (ln 0.1 for an empty cell); weightedLLM adds the weight sum w_k as a covariate. A cell in a
// margin of some term whose response total is 0 has λ = 0, the limit the maximum-likelihood
// fit approaches (R's glm stops near it, with "fitted rates numerically 0"); the other cells
// are fitted by IRLS (poissonModel.fit), which stop can cancel. The design is limited to
// maxModRiskCoef coefficients.
func (c *modRiskCells) fitLogLinear(method string, terms [][]int, stop func() error) (lambda []float64, converged bool, err error) {
	size := len(c.f)
	y := c.f
	if method == "PML" {
		y = make([]float64, size)
		scale := c.nAll / c.wAll
		for k, wk := range c.w {
			y[k] = math.RoundToEven(wk * scale)
		}
	}
	// terms as variable positions, their combination index per cell
	pos := make(map[int]int, len(c.vars))
	for v, col := range c.vars {
		pos[col] = v
	}
	tv := make([][]int, len(terms))
	tsize := make([]int, len(terms))
	for i, tm := range terms {
		tsize[i] = 1
		for _, col := range tm {
			tv[i] = append(tv[i], pos[col])
			tsize[i] *= c.levels[pos[col]]
		}
	}
	combo := func(i, k int) (idx int, ref bool) {
		r := 1
		for _, v := range tv[i] {
			d := k / c.radix[v] % c.levels[v]
			ref = ref || d == 0
			idx += d * r
			r *= c.levels[v]
		}
		return idx, ref
	}
	// cells in a zero margin: λ = 0
	removed := make([]bool, size)
	for i := range terms {
		tot := make([]float64, tsize[i])
		for k := 0; k < size; k++ {
			idx, _ := combo(i, k)
			tot[idx] += y[k]
		}
		for k := 0; k < size; k++ {
			if idx, _ := combo(i, k); tot[idx] == 0 {
				removed[k] = true
			}
		}
	}
	var rows []int
	for k := 0; k < size; k++ {
		if !removed[k] {
			rows = append(rows, k)
		}
	}
	lambda = make([]float64, size)
	if len(rows) == 0 {
		return lambda, true, nil
	}
	// treatment-coded design: a column per term and combination of non-first levels
	m := &poissonModel{stride: len(terms), y: make([]float64, len(rows)), cols: make([]int32, len(rows)*len(terms))}
	ids := make([][]int32, len(terms))
	for i := range ids {
		ids[i] = make([]int32, tsize[i])
		for j := range ids[i] {
			ids[i][j] = -1
		}
	}
	next := int32(1)
	for r, k := range rows {
		m.y[r] = y[k]
		for i := range terms {
			idx, ref := combo(i, k)
			col := int32(-1)
			if !ref {
				if ids[i][idx] < 0 {
					ids[i][idx] = next
					next++
				}
				col = ids[i][idx]
			}
			m.cols[r*len(terms)+i] = col
		}
	}
	m.p = int(next)
	if method == "weightedLLM" {
		m.p++
	}
	if m.p > maxModRiskCoef {
		return nil, false, fmt.Errorf("the model has %d coefficients, more than %d", m.p, maxModRiskCoef)
	}
	m.stop = stop
	switch method {
	case "CE":
		m.off = make([]float64, len(rows))
		for r, k := range rows {
			ec := 0.0
			if c.w[k] != 0 || c.f[k] != 0 {
				ec = c.f[k] / c.w[k]
			}
			m.off[r] = math.Log(ec + 0.1)
		}
	case "weightedLLM":
		m.num = make([]float64, len(rows))
		for r, k := range rows {
			m.num[r] = c.w[k]
		}
	}
	mu, converged, err := m.fit()
	if err != nil {
		return nil, false, err
	}
	for r, k := range rows {
		lambda[k] = mu[r]
	}
	return lambda, converged, nil
}
