// Package dpaudit audits the ε-DP synthesizers of methods/dp empirically: it releases many
// times from two neighbouring datasets (one record changed), tries to tell the releases apart
// with the exact likelihood-ratio test, and turns the test's error rates into a lower bound on
// the ε the releases actually satisfy, with Clopper–Pearson intervals (the approach of
// Jagielski, Ullman & Oprea 2020 and Nasr et al. 2021, applied to the Dirichlet-multinomial
// synthesizers of Machanavajjhala et al. 2008). A sound synthesizer's bound stays below its
// claimed ε; one that spends more budget than it claims is caught. docs/attacks.md explains
// the test and its guarantees.
package dpaudit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/binomial"
	"github.com/sdcbench/sdcbench/methods"
	"github.com/sdcbench/sdcbench/methods/dp"
)

// Config sets an audit's size and confidence.
type Config struct {
	Releases int     // releases from each dataset (half choose the test, half measure it), ≥ 20
	Level    float64 // confidence of the lower bound, in (0, 1)
}

// Result is what an audit found.
type Result struct {
	Claimed float64 // the ε the synthesizer claims (its eps parameter)
	Pair    float64 // the exact ε of this neighbouring pair under the claimed model: max |log LR|
	Bound   float64 // the lower bound on ε at Config.Level (0 when nothing is distinguished)
	Hat     float64 // the point estimate log(TPR/FPR) of the chosen test (may be +Inf)
	TPR     float64 // rate of "D′" among the measuring releases from D′
	FPR     float64 // rate of "D′" among the measuring releases from D
	Trials  int     // measuring releases per dataset
}

// Neighbour returns d with one record changed, the change that maximizes the synthesizers'
// likelihood ratio: for a 0/1 column the last 0 becomes 1 (or, without a 0, the last 1
// becomes 0); for one-hot columns the last record moves to the category with the fewest
// records (the lowest index among ties).
func Neighbour(d *datasets.Dataset) (*datasets.Dataset, error) {
	x, err := dp.Counts(d)
	if err != nil {
		return nil, fmt.Errorf("dp_audit: %w", err)
	}
	out := d.Clone()
	if d.P == 1 {
		i := d.N - 1
		for i >= 0 && d.Data[i] != 0 {
			i--
		}
		if i < 0 {
			out.Data[d.N-1] = 0
		} else {
			out.Data[i] = 1
		}
		return out, nil
	}
	last := d.N - 1
	from := slices.Index(d.Row(last), 1)
	to := -1
	for c, v := range x {
		if c != from && (to < 0 || v < x[to]) {
			to = c
		}
	}
	out.Data[last*d.P+from], out.Data[last*d.P+to] = 0, 1
	return out, nil
}

// cellCounts returns the category counts of a binary or one-hot table: {ones, zeros} for one
// column.
func cellCounts(d *datasets.Dataset) ([]int, error) {
	x, err := dp.Counts(d)
	if err != nil {
		return nil, err
	}
	if d.P == 1 {
		return []int{x[0], d.N - x[0]}, nil
	}
	return x, nil
}

// model is the claimed release distribution: Dirichlet-multinomial(nt, α + x).
type model struct {
	nt    int
	alpha float64
	a0    []float64 // α + x under D
	a1    []float64 // α + x′ under D′
}

// logLR returns log P(x̃ | D′)/P(x̃ | D) for the released counts xt.
func (m *model) logLR(xt []int) float64 {
	s := 0.0
	for c, v := range xt {
		if m.a0[c] != m.a1[c] {
			s += lgamma(float64(v)+m.a1[c]) - lgamma(m.a1[c]) - lgamma(float64(v)+m.a0[c]) + lgamma(m.a0[c])
		}
	}
	return s // the normalizers cancel: Σα + n is the same for D and D′
}

// pairEps is max over releases of |logLR|, by enumeration of the counts of the (at most two)
// categories that differ; the others do not enter the ratio.
func (m *model) pairEps() float64 {
	var diff []int
	for c := range m.a0 {
		if m.a0[c] != m.a1[c] {
			diff = append(diff, c)
		}
	}
	xt := make([]int, len(m.a0))
	best := 0.0
	for u := 0; u <= m.nt; u++ {
		for v := 0; v <= m.nt-u; v++ {
			clear(xt)
			xt[diff[0]] = u
			if len(diff) > 1 {
				xt[diff[1]] = v
			} else if v > 0 {
				break
			}
			best = max(best, math.Abs(m.logLR(xt)))
		}
	}
	return best
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// claimedModel reads the target's claimed α from its parameters (eps, M, nt, alpha_rule,
// alpha_scope) as methods/dp computes it.
func claimedModel(p methods.Params, x0, x1 []int) (*model, error) {
	rule, err := dp.ParseAlphaRule(p.String("alpha_rule"))
	if err != nil {
		return nil, err
	}
	n := 0
	for _, v := range x0 {
		n += v
	}
	nt := p.Int("nt")
	if nt == 0 {
		nt = n
	}
	if nt != n {
		return nil, fmt.Errorf("dp_audit: nt = %d: the audit reads releases of n = %d records (leave nt = 0)", nt, n)
	}
	b := dp.Budget{Eps: p.Float("eps"), M: p.Int("M"), NT: nt, Rule: rule, Total: p.String("alpha_scope") == "total"}
	alpha, err := b.CellAlpha(len(x0))
	if err != nil {
		return nil, err
	}
	m := &model{nt: nt, alpha: alpha, a0: make([]float64, len(x0)), a1: make([]float64, len(x0))}
	for c := range x0 {
		m.a0[c], m.a1[c] = alpha+float64(x0[c]), alpha+float64(x1[c])
	}
	return m, nil
}

// Run audits target (with parameters p, whose eps is the claim) on d and its Neighbour. Draw
// order: for r = 0..Releases−1, one release from d then one from the neighbour, each with rng.
// Releases r < Releases/2 choose the test: a threshold t on log LR and a side (guess D′ when
// log LR ≥ t, or when log LR < t), the one whose bound is largest on them. The other half
// measure it: with TP and FP the counts of "D′" among their releases from D′ and from D,
//
//	bound = max(0, log(CP_low(TP) / CP_high(FP))),
//
// CP the Clopper–Pearson interval at Level (each end one-sided at 1 − (1−Level)/2, so the
// bound holds with probability ≥ Level by Bonferroni). Any ε-DP mechanism has
// P(S | D′) ≤ e^ε P(S | D) for every set S of releases, so the bound exceeds the true ε with
// probability at most 1 − Level.
func Run(ctx context.Context, target methods.Method, p methods.Params, d *datasets.Dataset, cfg Config, rng *rand.Rand) (Result, error) {
	if cfg.Releases < 20 || !(cfg.Level > 0 && cfg.Level < 1) {
		return Result{}, fmt.Errorf("dp_audit: need releases ≥ 20 and level in (0, 1) (got %d, %v)", cfg.Releases, cfg.Level)
	}
	d1, err := Neighbour(d)
	if err != nil {
		return Result{}, err
	}
	x0, err := cellCounts(d)
	if err != nil {
		return Result{}, fmt.Errorf("dp_audit: %w", err)
	}
	x1, _ := cellCounts(d1)
	m, err := claimedModel(p, x0, x1)
	if err != nil {
		return Result{}, fmt.Errorf("dp_audit: %w", err)
	}
	s0 := make([]float64, cfg.Releases)
	s1 := make([]float64, cfg.Releases)
	for r := range cfg.Releases {
		for k, src := range []*datasets.Dataset{d, d1} {
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
			rel, err := target.Protect(ctx, src, p, rng)
			if err != nil {
				return Result{}, fmt.Errorf("dp_audit: %s: %w", target.Info().Name, err)
			}
			xt, err := cellCounts(rel.Masked)
			if err != nil {
				return Result{}, fmt.Errorf("dp_audit: %s release: %w", target.Info().Name, err)
			}
			if k == 0 {
				s0[r] = m.logLR(xt)
			} else {
				s1[r] = m.logLR(xt)
			}
		}
	}
	h := cfg.Releases / 2
	t, above := chooseTest(s0[:h], s1[:h], cfg.Level)
	tp, fp := count(s1[h:], t, above), count(s0[h:], t, above)
	n := cfg.Releases - h
	res := Result{Claimed: p.Float("eps"), Pair: m.pairEps(), Trials: n,
		TPR: float64(tp) / float64(n), FPR: float64(fp) / float64(n)}
	res.Bound = bound(tp, fp, n, cfg.Level)
	res.Hat = math.Log(res.TPR / res.FPR)
	return res, nil
}

// count returns how many statistics fall in the "D′" region.
func count(s []float64, t float64, above bool) int {
	k := 0
	for _, v := range s {
		if (v >= t) == above {
			k++
		}
	}
	return k
}

// bound is max(0, log(CP_low(tp)/CP_high(fp))).
func bound(tp, fp, n int, level float64) float64 {
	lo, _ := binomial.ClopperPearson(tp, n, level)
	_, hi := binomial.ClopperPearson(fp, n, level)
	if lo <= 0 {
		return 0
	}
	return max(0, math.Log(lo/hi))
}

// chooseTest returns the threshold and side with the largest bound on the given statistics.
func chooseTest(s0, s1 []float64, level float64) (t float64, above bool) {
	cand := slices.Concat(s0, s1)
	slices.Sort(cand)
	cand = slices.Compact(cand)
	best := -1.0
	t, above = math.Inf(1), true
	for _, c := range cand {
		for _, side := range []bool{true, false} {
			if b := bound(count(s1, c, side), count(s0, c, side), len(s0), level); b > best {
				best, t, above = b, c, side
			}
		}
	}
	return t, above
}

// ErrNotAudited is returned for a target the audit cannot model.
var ErrNotAudited = errors.New("dp_audit: target must be bb_synth or dm_synth")
