// Package diag defines the typed diagnostics a protection method attaches to its release
// (methods.Release.Diag) and the measures read back (metrics.Input.Diag): the one vocabulary
// that methods/ and metrics/ share without importing each other; a nil part was not reported.
package diag

import (
	"math"
	"slices"
	"sync"
)

// Diagnostics is the typed part of a release's diagnostics, one part per kind of method.
type Diagnostics struct {
	Partition *Partition // microaggregation methods
	Search    *Search    // searches that improve a start partition (methods/dfo)
	Posterior *Posterior // DP synthesizers (methods/dp)
	FCRM      *FCRM      // fuzzy c-regression synthesis (methods/synth fcrm)
	Audit     *Audit     // the empirical ε audit (methods/dpaudit)
	PRAM      *PRAM      // post-randomization (methods/categorical pram)
}

// Merge adds the diagnostics of one more stratum of a stratified run to d, as the strata's
// releases are combined (methods.Prepared.Protect): counts add up (errors: the maximum; the
// partition's k: the minimum), settings and rates keep the first stratum's value, and a part d
// lacks is taken from add.
func (d *Diagnostics) Merge(add Diagnostics) {
	d.Partition = merge(d.Partition, add.Partition, (*Partition).add)
	d.Search = merge(d.Search, add.Search, (*Search).add)
	d.Posterior = merge(d.Posterior, add.Posterior, (*Posterior).add)
	d.FCRM = merge(d.FCRM, add.FCRM, (*FCRM).add)
	d.Audit = merge(d.Audit, add.Audit, (*Audit).add)
	d.PRAM = merge(d.PRAM, add.PRAM, (*PRAM).add)
}

// merge returns acc with add's numbers added (a copy of add if acc is nil).
func merge[T any](acc, add *T, plus func(acc, add *T)) *T {
	switch {
	case add == nil:
		return acc
	case acc == nil:
		c := *add
		return &c
	}
	plus(acc, add)
	return acc
}

// Partition describes the partition behind a microaggregated release.
type Partition struct {
	// K is the minimum group size the method was asked for (the k of sse_sst_lb), 0 if the
	// method does not report it.
	K int
	// Groups is the number of groups of the released partition.
	Groups int
}

// add merges one more stratum: groups add up; K, the k every stratum was asked for, is the
// smallest reported one (not a sum: each stratum has groups of at least its own k).
func (p *Partition) add(q *Partition) {
	if q.K > 0 && (p.K == 0 || q.K < p.K) {
		p.K = q.K
	}
	p.Groups += q.Groups
}

// Search is the report of a search that improves a start partition (DFO paper; docs/dfo.md).
type Search struct {
	ILStart float64 // sse_sst (%) of the search's unrefined start partition
	GBest   int     // number of groups G* where the search stopped
	CPU     float64 // CPU seconds of the search's thread
	// Pattern is true when the search is DFO's pattern search over G, which also reports G0,
	// the number of groups of its start partition, and Evals, its distinct surrogate
	// evaluations F′(G).
	Pattern   bool
	G0, Evals int
}

func (s *Search) add(t *Search) {
	s.ILStart += t.ILStart
	s.GBest += t.GBest
	s.CPU += t.CPU
	s.G0 += t.G0
	s.Evals += t.Evals
}

// Posterior is the posterior of a DP synthesizer's inference, per parameter (binary: one;
// categorical: one per category), with one form for its intervals: Beta mixtures
// (MixW, MixA0, MixAB), stored draws, or the normal approximation.
type Posterior struct {
	Target []float64 // θ*, the parameters of the data
	Mean   []float64 // posterior means (point estimates)
	Var    []float64 // posterior variances
	Level  float64   // interval level (0: 0.95)
	// MixW[i] and MixA0[i] are the Beta mixture Σ_v w[v]·Beta(a0+v, ab−a0−v), v = 0..len(w)−1,
	// of parameter i, with MixAB = a + b the same for every component.
	MixW  [][]float64
	MixA0 []float64
	MixAB float64
	// Draws are stored MCMC draws per parameter (HPD and type-7 quantiles as coda); Chain
	// is the chain for the ESS (Draws if nil), estimated by ESSMethod ("geyer" or
	// "ar_spectrum").
	Draws, Chain [][]float64
	ESSMethod    string
	// Normal selects mean ± z·√var clipped to [0, 1] (Rubin's rules, Laplace naive).
	Normal bool
	// AccRate is the MH acceptance rate after burn-in, NaN without a Metropolis–Hastings step.
	AccRate float64
	// Memo, if not nil, keeps the intervals one measure computed for the others (coverage
	// and width share one HPD computation).
	Memo *sync.Map
}

// add merges one more stratum: the interval level and the mixture's a + b are settings, not
// counts, and an acceptance rate is not additive, so all three keep the first stratum's value.
func (p *Posterior) add(*Posterior) {}

// FCRM is the convergence report of fuzzy c-regression synthesis (docs/fcrm.md).
type FCRM struct {
	Iters     float64 // iterations done (max over the per-attribute runs)
	LastDelta float64 // last max |ΔU| (max over runs); ≤ eps means converged
	Objective float64 // objective Σ U^m E/(n·t) in z-units (mean over runs)
}

func (f *FCRM) add(g *FCRM) {
	f.Iters += g.Iters
	f.LastDelta += g.LastDelta
	f.Objective += g.Objective
}

// Audit is the result of an empirical ε audit of a DP synthesizer (methods/dpaudit).
type Audit struct {
	EpsLB      float64 // lower bound on the ε the synthesizer satisfies
	EpsClaimed float64 // the ε it claims
	EpsPair    float64 // the exact ε of the audited pair of neighbouring datasets
	EpsHat     float64 // the point estimate log(TPR/FPR)
	TPR, FPR   float64 // the distinguishing test's rates
	Trials     float64 // releases per dataset of the pair
}

func (a *Audit) add(b *Audit) {
	a.EpsLB += b.EpsLB
	a.EpsClaimed += b.EpsClaimed
	a.EpsPair += b.EpsPair
	a.EpsHat += b.EpsHat
	a.TPR += b.TPR
	a.FPR += b.FPR
	a.Trials += b.Trials
}

// PRAM is the report of the post-randomization method given its transition matrices.
type PRAM struct {
	// ExpectedChanged is Σ over levels of n_i·(1 − Rs_ii), the changes expected given the
	// matrices.
	ExpectedChanged float64
	// InvarianceErr is max |πᵀRs − πᵀ| of the invariant matrices (0 for explicit ones).
	InvarianceErr float64
	// Matrices are the transition matrices the run drew from, in draw order: one per column,
	// or one per column and stratum (a matrix per stratum, or a stratified run, whose strata's
	// matrices follow each other). The release report prints them (docs/release-report.md).
	Matrices []PRAMMatrix
}

// PRAMMatrix is one transition matrix of a PRAM run.
type PRAMMatrix struct {
	Column string
	// Stratum is the label of the stratum the matrix was built for, "" for a matrix of the
	// whole column (or of a stratum of a stratified run, which the method does not see).
	Stratum string
	// Levels are the categories in the order of the matrix's rows and columns.
	Levels []string
	// P[i][j] is the probability that a record of category i is released as category j.
	P [][]float64
}

func (p *PRAM) add(q *PRAM) {
	p.ExpectedChanged += q.ExpectedChanged
	p.InvarianceErr = math.Max(p.InvarianceErr, q.InvarianceErr)
	p.Matrices = slices.Concat(p.Matrices, q.Matrices) // a new array: never one of the strata's
}
