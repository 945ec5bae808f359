package metrics

// DP synthetic-data inference metrics (docs/metrics.md §5, DP study).
//
// Each run is one release (one replicate r); these metrics give the per-replicate quantity
// whose mean over the R rows of runs.csv is the aggregate of metrics.md §5: post_mean →
// est_mean, post_var → post_var_mean, coverage_hpd and coverage_et (0 or 100) → the coverage
// in %, bias → bias, mse_est → mse_est. var_est is the sample variance of the post_mean
// column over replicates and is computed by the report.
//
// They read the posterior from the release's Diag.Posterior (diag.Posterior), as the methods
// of methods/dp report it. A release without one, or without posterior means for every
// parameter, gives NaN.

import (
	"math"
	"slices"
	"strconv"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// dpCats is the number of per-category component columns of the cat_* metrics (c1..c16).
const dpCats = 16

func init() {
	type scalar struct {
		id, unit, desc string
		better         Direction
		f              func(ps *dpPost, i int) float64
	}
	list := []scalar{
		{"post_mean", "frac", "posterior mean E_r of p (mean over runs = est_mean; variance over runs = var_est)", None, (*dpPost).mean},
		{"post_var", "frac", "posterior variance V_r of p (mean over runs = post_var_mean)", None, (*dpPost).variance},
		{"coverage_hpd", "%", "100 if the HPD interval at dp_level contains the target, else 0 (mean = coverage)", Target, (*dpPost).covHPD},
		{"coverage_et", "%", "100 if the equal-tailed interval contains the target, else 0", Target, (*dpPost).covET},
		{"hpd_width", "frac", "width of the HPD interval", Lower, (*dpPost).hpdWidth},
		{"et_width", "frac", "width of the equal-tailed interval", Lower, (*dpPost).etWidth},
		{"bias", "frac", "E_r − θ* (mean over runs = bias)", Target, (*dpPost).bias},
		{"rel_bias", "frac", "(E_r − θ*)/θ* (NaN if θ* = 0)", Target, (*dpPost).relBias},
		{"mse_est", "raw", "(E_r − θ*)² (mean over runs = mse_est)", Lower, (*dpPost).sqErr},
		{"ess", "count", "ESS of the stored draws (Geyer, capped at S; or AR spectrum); mean over categories", Higher, nil},
		{"acc_rate", "frac", "MH acceptance rate after burn-in", None, nil},
	}
	for _, s := range list {
		s := s
		info := Info{ID: s.id, Unit: s.unit, Better: s.better, Description: s.desc + " (DP, metrics.md §5)", Diag: true}
		if s.better == Target && s.unit == "%" {
			info.Target = 95
		}
		switch s.id {
		case "ess":
			Register(Func(info, func(in *Input) Result { return Result{Value: newDPPost(in).ess()} }))
			continue
		case "acc_rate":
			Register(Func(info, func(in *Input) Result { return Result{Value: accRate(in)} }))
			continue
		}
		Register(Func(info, func(in *Input) Result { return Result{Value: newDPPost(in).at(s.f, 0)} }))
		if s.id == "post_mean" || s.id == "post_var" || s.id == "coverage_hpd" || s.id == "coverage_et" ||
			s.id == "hpd_width" || s.id == "bias" {
			comps := make([]string, dpCats)
			for i := range comps {
				comps[i] = "c" + strconv.Itoa(i+1)
			}
			cinfo := info
			cinfo.ID, cinfo.Components = "cat_"+s.id, comps
			cinfo.Description = "per category (columns _c1.._c16, NaN beyond C; value = mean over categories): " + info.Description
			Register(Func(cinfo, func(in *Input) Result {
				ps := newDPPost(in)
				res := Result{Value: math.NaN(), Aux: map[string]float64{}}
				if ps == nil {
					return res
				}
				sum := 0.0
				for i := range ps.mu {
					v := ps.at(s.f, i)
					sum += v
					if i < dpCats {
						res.Aux[comps[i]] = v
					}
				}
				res.Value = sum / float64(len(ps.mu))
				return res
			}))
		}
	}
}

// dpPost is the posterior of one release as read from Diag.Posterior.
type dpPost struct {
	target, mu, v []float64
	level         float64
	mix           [][]float64
	a0            []float64
	ab            float64
	draws, chain  [][]float64
	normal        bool
	essMethod     string
	memo          *sync.Map
}

func newDPPost(in *Input) *dpPost {
	p := in.Diag.Posterior
	if p == nil || p.Mean == nil || len(p.Mean) != len(p.Target) {
		return nil
	}
	ps := &dpPost{target: p.Target, mu: p.Mean, v: p.Var, level: p.Level, mix: p.MixW, a0: p.MixA0,
		ab: p.MixAB, draws: p.Draws, chain: p.Chain, normal: p.Normal, essMethod: p.ESSMethod, memo: p.Memo}
	if ps.level == 0 {
		ps.level = 0.95
	}
	return ps
}

// accRate returns the release's MH acceptance rate, NaN if it reports none.
func accRate(in *Input) float64 {
	if in.Diag.Posterior == nil {
		return math.NaN()
	}
	return in.Diag.Posterior.AccRate
}

func (ps *dpPost) at(f func(*dpPost, int) float64, i int) float64 {
	if ps == nil || i >= len(ps.mu) {
		return math.NaN()
	}
	return f(ps, i)
}

func (ps *dpPost) mean(i int) float64 { return ps.mu[i] }

func (ps *dpPost) variance(i int) float64 {
	if i < len(ps.v) {
		return ps.v[i]
	}
	return math.NaN()
}

func (ps *dpPost) bias(i int) float64  { return ps.mu[i] - ps.target[i] }
func (ps *dpPost) sqErr(i int) float64 { d := ps.bias(i); return d * d }

func (ps *dpPost) relBias(i int) float64 {
	if ps.target[i] == 0 {
		return math.NaN()
	}
	return ps.bias(i) / ps.target[i]
}

// interval returns the HPD (hpd true) or equal-tailed interval of parameter i.
func (ps *dpPost) interval(i int, hpd bool) (lo, hi float64) {
	if ps.memo == nil {
		return ps.computeInterval(i, hpd)
	}
	type key struct {
		i   int
		hpd bool
	}
	if v, ok := ps.memo.Load(key{i, hpd}); ok {
		r := v.([2]float64)
		return r[0], r[1]
	}
	lo, hi = ps.computeInterval(i, hpd)
	ps.memo.Store(key{i, hpd}, [2]float64{lo, hi})
	return lo, hi
}

func (ps *dpPost) computeInterval(i int, hpd bool) (lo, hi float64) {
	a := 1 - ps.level
	switch {
	case i < len(ps.mix) && i < len(ps.a0):
		m := NewBetaMixture(ps.mix[i], ps.a0[i], ps.ab)
		if hpd {
			return m.HPD(ps.level)
		}
		return m.Quantile(a / 2), m.Quantile(1 - a/2)
	case i < len(ps.draws):
		s := slices.Clone(ps.draws[i])
		slices.Sort(s)
		if hpd {
			return HPDSorted(s, ps.level)
		}
		return QuantileType7(s, a/2), QuantileType7(s, 1-a/2)
	case ps.normal && i < len(ps.v):
		z := distuv.UnitNormal.Quantile(1 - a/2)
		h := z * math.Sqrt(ps.v[i])
		return max(0, ps.mu[i]-h), min(1, ps.mu[i]+h)
	}
	return math.NaN(), math.NaN()
}

func cover(lo, hi, t float64) float64 {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return math.NaN()
	}
	if lo <= t && t <= hi {
		return 100
	}
	return 0
}

func (ps *dpPost) covHPD(i int) float64 {
	lo, hi := ps.interval(i, true)
	return cover(lo, hi, ps.target[i])
}
func (ps *dpPost) covET(i int) float64 {
	lo, hi := ps.interval(i, false)
	return cover(lo, hi, ps.target[i])
}
func (ps *dpPost) hpdWidth(i int) float64 {
	lo, hi := ps.interval(i, true)
	return hi - lo
}
func (ps *dpPost) etWidth(i int) float64 { lo, hi := ps.interval(i, false); return hi - lo }

func (ps *dpPost) ess() float64 {
	if ps == nil {
		return math.NaN()
	}
	ch := ps.chain
	if ch == nil {
		ch = ps.draws
	}
	if len(ch) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, c := range ch {
		if ps.essMethod == "ar_spectrum" {
			s += ESSARSpectrum(c)
		} else {
			s += ESSGeyer(c)
		}
	}
	return s / float64(len(ch))
}
