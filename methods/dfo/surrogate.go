package dfo

import (
	"fmt"
	"strings"
)

// Base is one of the two base local searches of docs/dfo.md
type Base int

// The base local searches.
const (
	SBM Base = iota // single best move (paper "h-means", HM)
	BR              // batch reassignment, Lloyd (paper "k-means", KM)
)

func (b Base) String() string { return [...]string{"sbm", "br"}[b] }

// Strategy is how a base search enforces the minimum size k (docs/dfo.md).
type Strategy int

// The minimum-size strategies.
const (
	// Restricted moves: a record may leave only a group with more than k records (§5.1).
	StrategyI Strategy = 1
	// Unconstrained search, then Repair, repeated while the repaired SSE improves (§5.2).
	StrategyII Strategy = 2
)

// Surrogate is a size-constrained local search at fixed G: base searches run in order, each
// with the strategy. The paper's F′ uses HMKM (Section 4).
//
// Under Strategy II, Repair, HMIter and OnFail choose the reading of the paper's stopping
// rule (docs/dfo.md, "Readings"); their zero values are the defaults.
type Surrogate struct {
	Stages   []Base
	Strategy Strategy
	Repair   RepairMode
	HMIter   HMIter
	OnFail   OnFail
}

// HMKM is the paper's surrogate (Sections 3–4): single best move then batch reassignment, both
// with Strategy II, i.e. StrategyII(br, StrategyII(sbm, P)).
var HMKM = Surrogate{Stages: []Base{SBM, BR}, Strategy: StrategyII}

// String returns the surrogate's name as ParseSurrogate reads it, e.g. "sbm+br-II".
func (s Surrogate) String() string {
	names := make([]string, len(s.Stages))
	for i, b := range s.Stages {
		names[i] = b.String()
	}
	suffix := "-II"
	if s.Strategy == StrategyI {
		suffix = "-I"
	}
	return strings.Join(names, "+") + suffix
}

// ParseSurrogate reads "hmkm" (= "sbm+br-II") or a plus-separated list of sbm and br with an
// optional strategy suffix "-I" or "-II" (default II), e.g. "br", "sbm+br-I", "br+sbm-II".
func ParseSurrogate(s string) (Surrogate, error) {
	if s == "hmkm" {
		return HMKM, nil
	}
	out := Surrogate{Strategy: StrategyII}
	body := s
	switch {
	case strings.HasSuffix(s, "-II"):
		body = strings.TrimSuffix(s, "-II")
	case strings.HasSuffix(s, "-I"):
		body, out.Strategy = strings.TrimSuffix(s, "-I"), StrategyI
	}
	for _, f := range strings.Split(body, "+") {
		switch f {
		case "sbm":
			out.Stages = append(out.Stages, SBM)
		case "br":
			out.Stages = append(out.Stages, BR)
		default:
			return Surrogate{}, fmt.Errorf("dfo: surrogate %q: want hmkm or sbm, br, sbm+br, br+sbm with optional -I/-II", s)
		}
	}
	if len(out.Stages) > 2 {
		return Surrogate{}, fmt.Errorf("dfo: surrogate %q: at most two stages", s)
	}
	return out, nil
}

// Improve runs the surrogate on p with minimum size k and returns a feasible partition whose
// SSE is at most that of p after repair. With Strategy II p is not modified (unless it had
// to be repaired); with Strategy I p is improved in place and returned.
func (l *Local) Improve(s Surrogate, p *Partition, k int) (*Partition, error) {
	if !p.Feasible(k) {
		if _, err := l.Repair(p, k); err != nil {
			return nil, err
		}
	}
	for _, b := range s.Stages {
		if s.Strategy == StrategyI {
			if b == SBM {
				l.SBM(p, k, 0)
			} else {
				l.BR(p, k, 0)
			}
			continue
		}
		if s.Repair == RepairEvery {
			q, err := l.stageEvery(s, b, p, k)
			if err != nil {
				return nil, err
			}
			p = q
			continue
		}
		h := func(q *Partition) { l.SBM(q, 1, 0) }
		if b == BR {
			h = func(q *Partition) { l.BR(q, 0, 0) }
		}
		q, err := l.StrategyII(p, k, h)
		if err != nil {
			return nil, err
		}
		p = q
	}
	return p, nil
}

// stageEvery runs one Strategy-II stage with RepairEvery on a copy of the feasible p.
func (l *Local) stageEvery(s Surrogate, b Base, p *Partition, k int) (*Partition, error) {
	switch {
	case b == SBM && s.HMIter == HMMove:
		q := p.Clone()
		l.hmEvery(q, k, s.OnFail)
		return q, nil
	case b == SBM:
		return l.strategyIIEvery(p, k, s.OnFail, 1, l.sweep)
	}
	return l.strategyIIEvery(p, k, s.OnFail, 0, func(q *Partition, minSize int) bool {
		return l.BR(q, minSize, 1) > 0
	})
}
