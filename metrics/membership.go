package metrics

// The membership-inference attack on a release (docs/synthetic-attacks.md): does the
// release tell whether a record was among those it was made from? The score of a target is
// its distance to the closest release record, TAPAS's ClosestDistanceMIA (Houssiau et al.
// 2022, "TAPAS: a toolbox for adversarial privacy auditing of synthetic data"), calibrated
// per target on shadow releases the attacker makes from data of the same population without
// the target (the offline likelihood-ratio test of Carlini et al. 2022, "Membership inference
// attacks from first principles"). The attack is read as its true-positive rate at a low
// false-positive rate, with a Wilson interval.

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/internal/parallel"
)

// ShadowFunc runs the release's method, with the run's parameters, on the control rows rows
// (indices into Input.Control, ascending) with a generator seeded by seed, and returns that
// shadow release's measured columns (those of Input.Masked). Package metrics cannot run a
// method (methods and metrics never import each other): the harness, which ran the method,
// provides it (experiments' runner, when the spec holds records out).
type ShadowFunc func(ctx context.Context, rows []int, seed uint64) (*datasets.Dataset, error)

// membershipComponents are membership's extra runs.csv columns.
var membershipComponents = []string{"ci_low", "ci_high", "fpr", "auc", "n_members", "n_nonmembers", "shadows"}

func init() {
	Register(Func(Info{ID: "membership", Label: "Membership TPR at low FPR", Unit: "frac", Better: Lower,
		Description: "membership inference: share of the release's own records an attacker flags at a false-positive rate ≤ mia_fpr, scoring by the distance to the closest release record calibrated on shadow releases (TAPAS, Carlini et al. 2022)",
		Components:  membershipComponents},
		evalMembership))
}

// logDistFloor keeps log(distance) finite for a target copied into a release.
const logDistFloor = 1e-12

// evalMembership runs the attack. Draw order (generator seeded by attack_seed): a
// permutation of the control rows (the first n are the non-member targets, the rest the
// shadow pool), a permutation of the original rows (the first n are the member targets), and
// one Uint64 per shadow release (its seed). The shadow releases are made from the pool, which
// is smaller than the original: their distances are larger for every target alike, a shift
// of the mean log distance that moves members and non-members together and so no decision
// (the threshold is read on the non-members' scores).
func evalMembership(in *Input) Result {
	a := in.Opt.Attack
	T, C, R := in.Orig, in.Control, in.Masked
	if C == nil || C.N < 4 {
		return nanNote("membership needs held-out records (spec key holdout, at least 4): they are its non-members and the shadow data")
	}
	if R.P != T.P || C.P != T.P {
		return nanNote(fmt.Sprintf("membership: release %d, control %d and original %d columns differ", R.P, C.P, T.P))
	}
	if T.N < 1 || R.N < 1 {
		return nanNote("membership: empty table")
	}
	S := a.shadows()
	if a.NoShadows {
		S = 0
	}
	if S > 0 && in.Shadow == nil {
		return nanNote("membership: no shadow releases can be made here (the method is not at hand: run it from a spec with holdout, or set mia_shadows = 0)")
	}
	rng := rand.New(rand.NewPCG(a.Seed, 0x3e3b_5ad0))
	cperm := rng.Perm(C.N)
	n := min(a.attacks(), T.N, C.N/2)
	nonmem := cperm[:n]
	pool := slices.Clone(cperm[n:])
	slices.Sort(pool)
	members := rng.Perm(T.N)[:n]
	rels := []*datasets.Dataset{R}
	for s := 0; s < S; s++ {
		d, err := in.Shadow(in.context(), pool, rng.Uint64())
		if err != nil {
			if e := in.Err(); e != nil {
				return cancelled(e)
			}
			return nanNote(fmt.Sprintf("membership: shadow release %d: %v", s+1, err))
		}
		if d.P != T.P || d.N < 1 {
			return nanNote(fmt.Sprintf("membership: shadow release %d is %d×%d, want %d columns", s+1, d.N, d.P, T.P))
		}
		rels = append(rels, d)
	}
	// The space: Gower's on mixed tables when a column is categorical (or asked for), else
	// Euclidean on the original's z-scores (Standardize).
	tabs := append([]*datasets.Dataset{T, C}, rels...)
	all := make([]int, T.P)
	for j := range all {
		all[j] = j
	}
	var x [][]float64
	dist := sqDist
	gower := useGower(in, all)
	if gower {
		var cat []bool
		x, cat = mixedConvert(T, tabs)
		dist = func(a, b []float64) float64 { return gowerDist(a, b, cat) }
	} else {
		x = make([][]float64, len(tabs))
		sc := scalingOf(T)
		for k, d := range tabs {
			x[k] = d.Data
			if in.Opt.Standardize != "none" {
				x[k] = sc.Apply(nil, d)
			}
		}
	}
	p := T.P
	// score[q] for target q: members first, then non-members.
	score := make([]float64, 2*n)
	parallel.Blocks(2*n, rowBlock, 0, func(lo, hi int) {
		nb, d1 := make([]int, 1), make([]float64, 1)
		l := make([]float64, len(rels))
		for q := lo; q < hi; q++ {
			if in.Err() != nil {
				return
			}
			var row []float64
			if q < n {
				row = x[0][members[q]*p : (members[q]+1)*p]
			} else {
				row = x[1][nonmem[q-n]*p : (nonmem[q-n]+1)*p]
			}
			for k, d := range rels {
				nearest(nb, d1, x[2+k], d.N, p, row, dist)
				v := d1[0]
				if !gower {
					v = math.Sqrt(v)
				}
				l[k] = math.Log(v + logDistFloor)
			}
			score[q] = calibrated(l[0], l[1:])
		}
	})
	if err := in.Err(); err != nil {
		return cancelled(err)
	}
	tp, fp := tprAtFPR(score[:n], score[n:], a.fpr())
	w := Wilson(tp, n, a.level())
	return Result{Value: float64(tp) / float64(n), Aux: map[string]float64{
		"ci_low": w.Low(), "ci_high": w.High(), "fpr": float64(fp) / float64(n),
		"auc": aucLower(score[:n], score[n:]), "n_members": float64(n), "n_nonmembers": float64(n),
		"shadows": float64(S)}}
}

// calibrated returns a target's score from its log distance l0 to the release and its log
// distances ls to the shadow releases (which never contain it): l0 − mean(ls), l0 without
// shadows. This is the offline likelihood-ratio test with one variance for all targets,
// which Carlini et al. (2022, §IV-C) advise with few shadow models: dividing every score by the
// same SD changes no decision. A NaN score (infinite distances) counts as +Inf. Low scores
// say "member".
func calibrated(l0 float64, ls []float64) float64 {
	v := l0
	if len(ls) > 0 {
		mean := 0.0
		for _, l := range ls {
			mean += l
		}
		v -= mean / float64(len(ls))
	}
	if v != v {
		return math.Inf(1)
	}
	return v
}

// tprAtFPR returns the attack's true and false positives when it flags as members the
// targets whose score is below the threshold that lets at most ⌊fpr·|non|⌋ non-members
// through: the (⌊fpr·|non|⌋+1)-th smallest non-member score (ties at it are not flagged; with
// every non-member allowed, every target is flagged).
func tprAtFPR(mem, non []float64, fpr float64) (tp, fp int) {
	s := slices.Clone(non)
	slices.Sort(s)
	f := int(math.Floor(fpr * float64(len(s))))
	if f >= len(s) {
		return len(mem), len(s)
	}
	thr := s[f]
	for _, v := range mem {
		if v < thr {
			tp++
		}
	}
	for _, v := range non {
		if v < thr {
			fp++
		}
	}
	return tp, fp
}

// aucLower returns the area under the attack's ROC curve: the probability that a member's
// score is below a non-member's, ties counting one half (the Mann–Whitney statistic over
// |mem|·|non|). 0.5 is no better than chance.
func aucLower(mem, non []float64) float64 {
	s := slices.Clone(non)
	slices.Sort(s)
	sum := 0.0
	for _, v := range mem {
		lo, _ := slices.BinarySearch(s, v) // non-members below v
		hi := lo
		for hi < len(s) && s[hi] == v {
			hi++
		}
		sum += float64(len(s)-hi) + 0.5*float64(hi-lo)
	}
	return sum / float64(len(mem)*len(non))
}
