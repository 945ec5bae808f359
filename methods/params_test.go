package methods

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestParamEdges is issue 14 item 2: non-finite, out-of-range and too-large numbers are
// refused with a message that names the parameter, and long values are echoed cut.
func TestParamEdges(t *testing.T) {
	info := Info{Name: "m", Params: []ParamSpec{
		{Name: "k", Kind: Int, Default: "3", Min: 2, Max: math.Inf(1)},
		{Name: "pct", Kind: Float, Default: "10", Min: 0, Max: math.Inf(1)},
		{Name: "x", Kind: Float, Default: "0"},
		{Name: "frac", Kind: Float, Default: "0.5", Min: 0, Max: 1, MinOpen: true},
	}}
	cases := []struct {
		name, value, want string // want "" = accepted
	}{
		{"pct", "Inf", "must be finite"},
		{"pct", "+Inf", "must be finite"},
		{"x", "-Inf", "must be finite"},
		{"x", "NaN", "not a number"},
		{"pct", "1e400", "outside the float64 range"},
		{"k", "99999999999999999999", "integer too large"},
		{"k", "9007199254740994", "integer too large"},
		{"k", "9007199254740992", ""},
		{"k", "1e300", "integer too large"},
		{"k", "2.5", "must be an integer"},
		{"k", "1", "must be in [2, +inf)"},
		{"pct", "1e308", ""},
		{"x", "-1e-310", ""},
		{"frac", "0", "must be in (0, 1]"},
		{"frac", "-0.1", "must be in (0, 1]"},
		{"frac", "1.5", "must be in (0, 1]"},
		{"frac", "1e-300", ""},
		{"frac", "1", ""},
	}
	for _, c := range cases {
		_, err := info.Resolve(map[string]string{c.name: c.value})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s=%s: %v", c.name, c.value, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrBadParam)):
			t.Errorf("%s=%s: got %v, want %q", c.name, c.value, err, c.want)
		}
	}
	long := strings.Repeat("7", 100_000)
	_, err := info.Resolve(map[string]string{"k": long})
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "(100000 bytes)") {
		t.Errorf("a 100 KB value: %d-byte error", len(err.Error()))
	}
	_, err = info.Resolve(map[string]string{long: "1"})
	if err == nil || len(err.Error()) > 250 {
		t.Errorf("a 100 KB parameter name: %d-byte error", len(err.Error()))
	}
}
