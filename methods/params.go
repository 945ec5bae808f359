package methods

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sdcbench/sdcbench/internal/registry"
)

// Kind is the type of a parameter.
type Kind int

// Parameter kinds.
const (
	Int Kind = iota
	Float
	String
	Bool
)

func (k Kind) String() string {
	return [...]string{"int", "float", "string", "bool"}[k]
}

// ParamSpec declares one parameter of a method. Min and Max bound numeric values
// (inclusive); leave both zero for no bound. Choices, when set, lists the allowed strings.
type ParamSpec struct {
	Name    string
	Kind    Kind
	Default string
	Min     float64
	Max     float64
	MinOpen bool // Min itself is excluded: the range is (Min, Max]
	Choices []string
	Doc     string
}

// Range renders the valid values, e.g. "[2, +inf)" or "zscore|none".
func (ps ParamSpec) Range() string {
	switch {
	case len(ps.Choices) > 0:
		return strings.Join(ps.Choices, "|")
	case ps.Kind == Int || ps.Kind == Float:
		if ps.Min == 0 && ps.Max == 0 {
			return "any"
		}
		hi := "+inf)"
		if !math.IsInf(ps.Max, 1) {
			hi = strconv.FormatFloat(ps.Max, 'g', -1, 64) + "]"
		}
		lo := "["
		if ps.MinOpen {
			lo = "("
		}
		return lo + strconv.FormatFloat(ps.Min, 'g', -1, 64) + ", " + hi
	case ps.Kind == Bool:
		return "true|false"
	}
	return "any"
}

// MaxInt is the largest magnitude an Int parameter may have: 2^53, the largest range in
// which every integer is exact in a float64 (and fits any int).
const MaxInt = 1 << 53

// clip cuts a value echoed in an error to 64 bytes, so that a huge argument does not make
// a huge message.
func clip(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…(%d bytes)", s[:cut], len(s))
}

// ErrBadParam is wrapped by every parameter validation error.
var ErrBadParam = errors.New("bad parameter")

// parse checks s against the spec and returns its canonical form.
func (ps ParamSpec) parse(s string) (string, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w %s=%q: %s", ErrBadParam, ps.Name, clip(s), fmt.Sprintf(format, a...))
	}
	switch ps.Kind {
	case Int, Float:
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		switch {
		case err != nil && errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0):
			return "", bad("outside the float64 range")
		case err != nil || math.IsNaN(v):
			return "", bad("not a number")
		case math.IsInf(v, 0):
			return "", bad("must be finite")
		}
		if ps.Kind == Int {
			if v != math.Trunc(v) {
				return "", bad("must be an integer")
			}
			if math.Abs(v) > MaxInt {
				return "", bad("integer too large (|value| ≤ 2^53 = %d)", int64(MaxInt))
			}
		}
		if (ps.Min != 0 || ps.Max != 0) && (v < ps.Min || v > ps.Max || ps.MinOpen && v == ps.Min) {
			return "", bad("must be in %s", ps.Range())
		}
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	case Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return "", bad("must be true or false")
		}
		return strconv.FormatBool(b), nil
	default:
		if len(ps.Choices) > 0 && !slices.Contains(ps.Choices, s) {
			return "", bad("must be one of %s", ps.Range())
		}
		return s, nil
	}
}

// Params holds a method's resolved parameters: every declared parameter, validated, in
// canonical string form. Build one with Info.Resolve.
type Params struct {
	spec []ParamSpec
	vals map[string]string
}

// Resolve validates raw (name → value, as written by the user) against the declared
// parameters and fills in defaults. Unknown names and invalid values are errors that name
// the method and the parameter.
func (in Info) Resolve(raw map[string]string) (Params, error) {
	p := Params{spec: in.Params, vals: make(map[string]string, len(in.Params))}
	if in.OpenParams {
		var extra []ParamSpec
		for name, v := range raw {
			if slices.ContainsFunc(in.Params, func(ps ParamSpec) bool { return ps.Name == name }) {
				continue
			}
			if !openName(name) {
				return Params{}, fmt.Errorf("%s: %w: parameter name %q: use letters, digits and _ (starting with a letter)", in.Name, ErrBadParam, clip(name))
			}
			extra = append(extra, ParamSpec{Name: name, Kind: String, Default: v, Doc: "free parameter"})
		}
		slices.SortFunc(extra, func(a, b ParamSpec) int { return strings.Compare(a.Name, b.Name) })
		p.spec = append(slices.Clip(in.Params), extra...)
	}
	for name := range raw {
		if !slices.ContainsFunc(p.spec, func(ps ParamSpec) bool { return ps.Name == name }) {
			names := make([]string, len(in.Params))
			for i, ps := range in.Params {
				names[i] = ps.Name
			}
			return Params{}, fmt.Errorf("%s: %w: unknown parameter %q%s (have %v)", in.Name, ErrBadParam, clip(name),
				registry.DidYouMean(name, names), names)
		}
	}
	for _, ps := range p.spec {
		s, ok := raw[ps.Name]
		if !ok {
			s = ps.Default
		}
		v, err := ps.parse(s)
		if err != nil {
			return Params{}, fmt.Errorf("%s: %w", in.Name, err)
		}
		p.vals[ps.Name] = v
	}
	return p, nil
}

// Names returns the parameter names in declaration order.
func (p Params) Names() []string {
	out := make([]string, len(p.spec))
	for i, ps := range p.spec {
		out[i] = ps.Name
	}
	return out
}

// Get returns the canonical string value of name ("" if undeclared).
func (p Params) Get(name string) string { return p.vals[name] }

// Int returns an Int parameter. It panics if name is not declared: a programming error.
func (p Params) Int(name string) int {
	v, err := strconv.ParseFloat(p.must(name), 64)
	if err != nil {
		panic(err)
	}
	return int(v)
}

// Float returns a numeric parameter.
func (p Params) Float(name string) float64 {
	v, err := strconv.ParseFloat(p.must(name), 64)
	if err != nil {
		panic(err)
	}
	return v
}

// String returns a String parameter.
func (p Params) String(name string) string { return p.must(name) }

// Bool returns a Bool parameter.
func (p Params) Bool(name string) bool { return p.must(name) == "true" }

func (p Params) must(name string) string {
	v, ok := p.vals[name]
	if !ok {
		panic("methods: undeclared parameter " + name)
	}
	return v
}

// FormatValue renders a TOML or CLI value (int64, float64, string, bool) as the string that
// Resolve parses.
func FormatValue(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case int:
		return strconv.Itoa(x), nil
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case bool:
		return strconv.FormatBool(x), nil
	}
	return "", fmt.Errorf("%w: unsupported value %v of type %T", ErrBadParam, v, v)
}

// openName reports whether name may name an undeclared parameter of an Info.OpenParams
// method: an identifier of ASCII letters, digits and underscores that starts with a letter.
func openName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r == '_' || r >= '0' && r <= '9'):
		default:
			return false
		}
	}
	return true
}
