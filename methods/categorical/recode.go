package categorical

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/methods"
)

func init() {
	methods.Register(GlobalRecode{})
	methods.Register(TopBot{})
}

// GlobalRecode is `global_recode` (docs/categorical.md; sdcMicro globalRecode and
// groupAndRename): on a categorical column, map relabels categories (old:new pairs, several
// olds may share a new label, unmapped labels are kept); on a numeric column, breaks
// b_0 < … < b_m cut the values into intervals (b_{i−1}, b_i], the first one closed on the
// left as R's cut(include.lowest = TRUE), and the column becomes categorical with labels
// "[b0,b1]", "(b1,b2]", …; values outside [b_0, b_m] become missing. Deterministic.
type GlobalRecode struct{}

// Info implements methods.Method.
func (GlobalRecode) Info() methods.Info {
	return methods.Info{
		Name:        "global_recode",
		Description: "global recoding: merge categories (map old:new) or cut numbers into intervals (breaks)",
		Params: []methods.ParamSpec{
			{Name: "map", Kind: methods.String, Default: "",
				Doc: "categorical columns: old:new pairs separated by ';' (e.g. 1:1-2;2:1-2;9:other)"},
			{Name: "breaks", Kind: methods.String, Default: "",
				Doc: "numeric columns: increasing break points b0,b1,…,bm"},
		},
		Columns: methods.AnyColumns,
		Example: map[string]string{"map": "1:1-2;2:1-2"}, // on testdata's keys
		Missing: "kept missing, as sdcMicro globalRecode (cut() and factor recoding leave NA); a number outside the breaks becomes missing, declared as a suppression (n_suppressed, as cut() gives NA)",
	}
}

type recodeSpec struct {
	mapping map[string]string
	breaks  []float64
}

func parseRecode(d *datasets.Dataset, p methods.Params) (recodeSpec, error) {
	var rs recodeSpec
	if m := p.String("map"); m != "" {
		rs.mapping = map[string]string{}
		for _, pair := range strings.Split(m, ";") {
			old, nw, ok := strings.Cut(pair, ":")
			old, nw = strings.TrimSpace(old), strings.TrimSpace(nw)
			if !ok || old == "" || nw == "" {
				return rs, fmt.Errorf("global_recode: %w map: %q is not old:new", methods.ErrBadParam, pair)
			}
			if _, dup := rs.mapping[old]; dup {
				return rs, fmt.Errorf("global_recode: %w map: label %q mapped twice", methods.ErrBadParam, old)
			}
			rs.mapping[old] = nw
		}
	}
	if b := p.String("breaks"); b != "" {
		for _, f := range strings.Split(b, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || math.IsNaN(v) {
				return rs, fmt.Errorf("global_recode: %w breaks: %q is not a number", methods.ErrBadParam, f)
			}
			if len(rs.breaks) > 0 && v <= rs.breaks[len(rs.breaks)-1] {
				return rs, fmt.Errorf("global_recode: %w breaks: %v does not increase", methods.ErrBadParam, b)
			}
			rs.breaks = append(rs.breaks, v)
		}
		if len(rs.breaks) < 2 {
			return rs, fmt.Errorf("global_recode: %w breaks: need at least 2 break points", methods.ErrBadParam)
		}
	}
	for j := 0; j < d.P; j++ {
		if d.IsCategorical(j) && rs.mapping == nil {
			return rs, fmt.Errorf("global_recode: %w map: column %q is categorical and no map is given", methods.ErrBadParam, d.Names[j])
		}
		if !d.IsCategorical(j) && rs.breaks == nil {
			return rs, fmt.Errorf("global_recode: %w breaks: column %q is numeric and no breaks are given", methods.ErrBadParam, d.Names[j])
		}
	}
	return rs, nil
}

// Validate implements methods.Validator.
func (GlobalRecode) Validate(d *datasets.Dataset, p methods.Params) error {
	_, err := parseRecode(d, p)
	return err
}

// Protect implements methods.Method. Info "outside": numeric values outside the breaks.
func (GlobalRecode) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	rs, err := parseRecode(d, p)
	if err != nil {
		return nil, err
	}
	out := d.Clone()
	if out.Levels == nil {
		out.Levels = make([][]string, d.P)
	}
	outside := 0
	for j := 0; j < d.P; j++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if d.IsCategorical(j) {
			relabel(out, j, func(l string) string {
				if nw, ok := rs.mapping[l]; ok {
					return nw
				}
				return l
			})
			continue
		}
		b := rs.breaks
		labels := make([]string, len(b)-1)
		for i := range labels {
			open := "("
			if i == 0 {
				open = "["
			}
			labels[i] = open + fmtNum(b[i]) + "," + fmtNum(b[i+1]) + "]"
		}
		out.Levels[j] = labels
		for i := 0; i < d.N; i++ {
			v := d.Data[i*d.P+j]
			k, _ := slices.BinarySearch(b, v) // first break ≥ v
			switch {
			case math.IsNaN(v):
				out.Data[i*d.P+j] = math.NaN()
			case v == b[0]:
				out.Data[i*d.P+j] = 0
			case k == 0 || k == len(b):
				out.Data[i*d.P+j] = math.NaN()
				outside++
			default:
				out.Data[i*d.P+j] = float64(k - 1)
			}
		}
	}
	info := map[string]any{"outside": outside}
	if outside > 0 {
		info["n_suppressed"] = outside // methods.CheckHoles
	}
	return &methods.Release{Masked: out, Info: info}, nil
}

// relabel maps every label of categorical column j through f and renumbers the codes over
// the new, sorted set of labels.
func relabel(d *datasets.Dataset, j int, f func(string) string) {
	old := d.Levels[j]
	var labels []string
	for _, l := range old {
		if nw := f(l); !slices.Contains(labels, nw) {
			labels = append(labels, nw)
		}
	}
	datasets.SortLevels(labels)
	remap := make([]float64, len(old))
	for k, l := range old {
		remap[k] = float64(slices.Index(labels, f(l)))
	}
	for i := 0; i < d.N; i++ {
		if v := d.Data[i*d.P+j]; !math.IsNaN(v) {
			d.Data[i*d.P+j] = remap[int(v)]
		}
	}
	d.Levels[j] = labels
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// TopBot is `topbot_code` (sdcMicro topBotCoding; docs/categorical.md). kind top replaces
// every numeric value > value by replacement (default value), kind bottom every value <
// value. On an ordinal categorical column value names a label: with top every category
// after it in level order becomes that label, with bottom every category before it.
type TopBot struct{}

// Info implements methods.Method.
func (TopBot) Info() methods.Info {
	return methods.Info{
		Name:        "topbot_code",
		Description: "top or bottom coding: values beyond a threshold (or categories beyond a level) replaced",
		Params: []methods.ParamSpec{
			{Name: "kind", Kind: methods.String, Default: "top", Choices: []string{"top", "bottom"}, Doc: "code the top or the bottom"},
			{Name: "value", Kind: methods.String, Default: "", Doc: "threshold: a number, or a label of an ordinal categorical column"},
			{Name: "replacement", Kind: methods.String, Default: "", Doc: "numeric replacement (default: value)"},
		},
		Columns: methods.AnyColumns,
		Example: map[string]string{"value": "2"},
		Missing: "kept missing, as sdcMicro topBotCoding (x[x > value] <- replacement skips NA)",
	}
}

type topbot struct {
	top       bool
	num, repl float64
	label     string
	isNum     bool
	codeByCol []int
}

func parseTopBot(d *datasets.Dataset, p methods.Params) (topbot, error) {
	tb := topbot{top: p.String("kind") == "top", label: p.String("value")}
	if tb.label == "" {
		return tb, fmt.Errorf("topbot_code: %w value: give the threshold", methods.ErrBadParam)
	}
	v, err := strconv.ParseFloat(tb.label, 64)
	tb.num, tb.isNum = v, err == nil && !math.IsNaN(v)
	tb.repl = tb.num
	if r := p.String("replacement"); r != "" {
		if tb.repl, err = strconv.ParseFloat(r, 64); err != nil {
			return tb, fmt.Errorf("topbot_code: %w replacement=%q: not a number", methods.ErrBadParam, r)
		}
	}
	tb.codeByCol = make([]int, d.P)
	for j := 0; j < d.P; j++ {
		if !d.IsCategorical(j) {
			if !tb.isNum {
				return tb, fmt.Errorf("topbot_code: %w value=%q: column %q is numeric, the value is not a number", methods.ErrBadParam, tb.label, d.Names[j])
			}
			continue
		}
		tb.codeByCol[j] = slices.Index(d.Levels[j], tb.label)
		if tb.codeByCol[j] < 0 {
			return tb, fmt.Errorf("topbot_code: %w value=%q: not a level of column %q %v", methods.ErrBadParam, tb.label, d.Names[j], d.Levels[j])
		}
	}
	return tb, nil
}

// Validate implements methods.Validator.
func (TopBot) Validate(d *datasets.Dataset, p methods.Params) error {
	_, err := parseTopBot(d, p)
	return err
}

// Protect implements methods.Method. Info "recoded": cells changed.
func (TopBot) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, _ *rand.Rand) (*methods.Release, error) {
	tb, err := parseTopBot(d, p)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := d.Clone()
	recoded := 0
	for j := 0; j < d.P; j++ {
		lim, repl := tb.num, tb.repl
		if d.IsCategorical(j) {
			lim, repl = float64(tb.codeByCol[j]), float64(tb.codeByCol[j])
		}
		for i := 0; i < d.N; i++ {
			v := &out.Data[i*d.P+j]
			if (tb.top && *v > lim) || (!tb.top && *v < lim) {
				*v = repl
				recoded++
			}
		}
	}
	return &methods.Release{Masked: out, Info: map[string]any{"recoded": recoded}}, nil
}
