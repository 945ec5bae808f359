package dp

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalid is wrapped by every error this package returns for invalid input.
var ErrInvalid = errors.New("invalid input")

func invalid(format string, a ...any) error {
	return fmt.Errorf("dp: %w: %s", ErrInvalid, fmt.Sprintf(format, a...))
}

// AlphaRule is an ε → α rule of the synthesizer (docs/dp.md).
type AlphaRule int

const (
	// MV2008 is the condition of Machanavajjhala et al. (2008): a copy at budget ε_c is
	// ε_c-DP iff α ≥ nt/(exp(ε_c) − 1); the rule returns that smallest admissible α.
	MV2008 AlphaRule = iota
	// Printed is the seed's literal rule α = nt/exp(ε_c − 1) (L555–562). It is ε_c-DP only
	// when ε_c ≥ 1 − ln(e − 1) ≈ 0.4587.
	Printed
)

// String returns the parameter value naming r.
func (r AlphaRule) String() string {
	switch r {
	case MV2008:
		return "mv2008"
	case Printed:
		return "printed"
	}
	return fmt.Sprintf("AlphaRule(%d)", int(r))
}

// ParseAlphaRule parses "mv2008" or "printed".
func ParseAlphaRule(s string) (AlphaRule, error) {
	switch s {
	case "mv2008", "":
		return MV2008, nil
	case "printed":
		return Printed, nil
	}
	return 0, invalid("alpha_rule %q: want mv2008 or printed", s)
}

// Alpha returns the rule's α for one copy of size nt released at budget epsCopy:
//
//	mv2008:  α = nt/(exp(ε_c) − 1)
//	printed: α = nt·exp(1 − ε_c)
//
// It returns an error if epsCopy is not a positive finite number or nt < 1. At ε_c = 250
// the mv2008 value for nt = 100 is 2.669190e−107, which is returned as is (never rounded to 0).
func Alpha(rule AlphaRule, nt int, epsCopy float64) (float64, error) {
	if !(epsCopy > 0) || math.IsInf(epsCopy, 1) {
		return 0, invalid("ε per copy must be a positive finite number (got %v)", epsCopy)
	}
	if nt < 1 {
		return 0, invalid("nt must be ≥ 1 (got %d)", nt)
	}
	switch rule {
	case MV2008:
		return float64(nt) / math.Expm1(epsCopy), nil
	case Printed:
		return float64(nt) * math.Exp(1-epsCopy), nil
	}
	return 0, invalid("unknown alpha rule %d", int(rule))
}

// Budget is the public part of a release: total ε, number of copies, copy size and the α rule.
type Budget struct {
	Eps   float64   // total privacy budget ε > 0; each copy uses Eps/M
	M     int       // number of copies, ≥ 1
	NT    int       // size of each copy, ≥ 1
	Rule  AlphaRule // ε → α rule
	Total bool      // alpha_scope total: the rule's α is the total Dirichlet mass, α_i = α/C
}

// Validate reports the first invalid field by its parameter name.
func (b Budget) Validate() error {
	switch {
	case !(b.Eps > 0) || math.IsInf(b.Eps, 1):
		return invalid("eps must be > 0 (got %v)", b.Eps)
	case b.M < 1:
		return invalid("M must be ≥ 1 (got %d)", b.M)
	case b.NT < 1:
		return invalid("nt must be ≥ 1 (got %d)", b.NT)
	}
	return nil
}

// CellAlpha returns the α of each of the C categories (C = 2 for binary data) of one copy:
// the rule's value at ε/M, divided by C when the scope is total.
func (b Budget) CellAlpha(C int) (float64, error) {
	if err := b.Validate(); err != nil {
		return 0, err
	}
	a, err := Alpha(b.Rule, b.NT, b.Eps/float64(b.M))
	if err != nil {
		return 0, err
	}
	if b.Total {
		a /= float64(C)
	}
	return a, nil
}

// CheckCounts returns an error unless every count is ≥ 0 and they sum to n ≥ 1.
func CheckCounts(x []int, n int) error {
	if n < 1 {
		return invalid("n must be ≥ 1 (got %d)", n)
	}
	s := 0
	for i, v := range x {
		if v < 0 {
			return invalid("count %d is negative (%d)", i+1, v)
		}
		s += v
	}
	if s != n {
		return invalid("counts %v sum to %d, not n = %d", x, s, n)
	}
	return nil
}

// CheckProportion returns an error unless p is in [0, 1].
func CheckProportion(p float64) error {
	if !(p >= 0 && p <= 1) {
		return invalid("p must be in [0, 1] (got %v)", p)
	}
	return nil
}

// CountsFromProportions returns the fixed confidential counts x = largest-remainder rounding
// of n·p (x_mode fixed, §8). Every p_i must be in [0, 1] and Σp must be 1 within 1e−9.
func CountsFromProportions(p []float64, n int) ([]int, error) {
	if n < 1 || len(p) < 2 {
		return nil, invalid("need n ≥ 1 and at least 2 proportions (got n = %d, %d)", n, len(p))
	}
	s := 0.0
	for _, v := range p {
		if err := CheckProportion(v); err != nil {
			return nil, err
		}
		s += v
	}
	if math.Abs(s-1) > 1e-9 {
		return nil, invalid("proportions %v sum to %v, not 1", p, s)
	}
	x := make([]int, len(p))
	LargestRemainder(x, p, n)
	return x, nil
}
