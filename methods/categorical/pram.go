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
	"github.com/sdcbench/sdcbench/diag"
	"github.com/sdcbench/sdcbench/methods"
)

func init() { methods.Register(PRAM{}) }

// PRAM is `pram`, the post-randomization method of sdcMicro's pram (docs/categorical.md):
// every non-missing category is replaced by a draw from its row of a transition matrix.
// The matrix is either given (parameter matrix) or the invariant matrix built from (pd,
// alpha) by InvariantMatrix, so that the expected category frequencies are unchanged.
//
// Draw order: column by column in column order; for each column (and, with strata
// per_stratum, each stratum in code order) first the L diagonal draws pd_i ~ U(pd, 1) in
// level order, then one Float64 per non-missing record in row order (inverse CDF on the
// record's row of the matrix).
type PRAM struct{}

// Info implements methods.Method.
func (PRAM) Info() methods.Info {
	return methods.Info{
		Name:        "pram",
		Description: "post-randomization of categories: invariant matrix from (pd, alpha) or an explicit matrix (sdcMicro pram)",
		Params: []methods.ParamSpec{
			{Name: "pd", Kind: methods.Float, Default: "0.8", Min: 0, Max: 1,
				Doc: "lower bound of the diagonal draws pd_i ~ U(pd, 1)"},
			{Name: "alpha", Kind: methods.Float, Default: "0.5", Min: 0, Max: 1,
				Doc: "weight of the invariant matrix R against the identity: Rs = alpha·R + (1−alpha)·I"},
			{Name: "matrix", Kind: methods.String, Default: "",
				Doc: "explicit L×L transition matrix, rows in level order separated by ';', entries by ','; overrides pd and alpha"},
			{Name: "strata", Kind: methods.String, Default: "",
				Doc: "a given column used as strata (not pramed): sampling within each stratum"},
			{Name: "strata_matrix", Kind: methods.String, Default: "global", Choices: []string{"global", "per_stratum"},
				Doc: "global: one matrix from the whole column (sdcMicro ≤ 5.7.1); per_stratum: one per stratum (5.8.1)"},
		},
		Randomized: true,
		Columns:    methods.CategoricalColumns,
		Missing:    "kept missing and left out of the transition draws, as sdcMicro pram (only non-NA values are pram'd)",
	}
}

// ParseMatrix parses "a,b;c,d" into rows and checks that it is square, has entries in
// [0, 1] and rows summing to 1 within 1e-12.
func ParseMatrix(s string) ([][]float64, error) {
	var m [][]float64
	for r, row := range strings.Split(s, ";") {
		var vals []float64
		for _, f := range strings.FieldsFunc(row, func(c rune) bool { return c == ',' || c == ' ' }) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || v < 0 || v > 1 || math.IsNaN(v) {
				return nil, fmt.Errorf("matrix row %d: entry %q is not a probability in [0, 1]", r+1, f)
			}
			vals = append(vals, v)
		}
		m = append(m, vals)
	}
	for r, row := range m {
		if len(row) != len(m) {
			return nil, fmt.Errorf("matrix row %d has %d entries, want %d (a square matrix)", r+1, len(row), len(m))
		}
		var sum float64
		for _, v := range row {
			sum += v
		}
		if math.Abs(sum-1) > 1e-12 {
			return nil, fmt.Errorf("matrix row %d sums to %.15g, not 1", r+1, sum)
		}
	}
	return m, nil
}

// Validate implements methods.Validator.
func (PRAM) Validate(d *datasets.Dataset, p methods.Params) error {
	_, _, err := pramSetup(d, p)
	return err
}

// MaxPRAMLevels caps the number of categories of a column pramed with the invariant matrix:
// the matrix needs L² memory and L³ time (2,000 categories took about two minutes, 100,000
// exhausted 23 GB). A column with more is refused; merge categories first (global_recode) or
// give an explicit matrix.
const MaxPRAMLevels = 1000

// pramSetup returns the explicit matrix (or nil) and the strata column (or −1).
func pramSetup(d *datasets.Dataset, p methods.Params) ([][]float64, int, error) {
	if err := requireCategorical("pram", d); err != nil {
		return nil, -1, err
	}
	sc := -1
	if s := p.String("strata"); s != "" {
		if sc = d.ColIndex(s); sc < 0 {
			return nil, -1, fmt.Errorf("pram: strata column %q is not among the given columns %v", s, d.Names)
		}
	}
	var m [][]float64
	if s := p.String("matrix"); s != "" {
		var err error
		if m, err = ParseMatrix(s); err != nil {
			return nil, -1, fmt.Errorf("pram: %w", err)
		}
		for j := 0; j < d.P; j++ {
			if j != sc && len(d.Levels[j]) != len(m) {
				return nil, -1, fmt.Errorf("pram: column %q has %d levels %v, the matrix is %d×%d", d.Names[j], len(d.Levels[j]), d.Levels[j], len(m), len(m))
			}
		}
		return m, sc, nil
	}
	for j := 0; j < d.P; j++ {
		if L := len(d.Levels[j]); j != sc && L > MaxPRAMLevels {
			return nil, -1, fmt.Errorf("pram: column %q has %d categories, more than %d (the invariant matrix needs L² memory and L³ time): merge categories first, e.g. with global_recode, or leave the column out", d.Names[j], L, MaxPRAMLevels)
		}
	}
	return m, sc, nil
}

// InvariantMatrix returns sdcMicro's invariant PRAM matrix for level counts (or
// proportions) pi, diagonal draws pd and weight alpha (docs/categorical.md):
//
//	P_ii = pd_i, P_ij = (1 − pd_i)/(L − 1);  s_k = Σ_j π_j P_jk;  Q_kj = P_jk π_j / s_k;
//	R = P·Q;  Rs = α·R + (1 − α)·I,
//
// with the sums in sdcMicro's order, so that πᵀRs = πᵀ. With L = 1 the matrix is [1].
func InvariantMatrix(pi, pd []float64, alpha float64) [][]float64 {
	m, _ := invariantMatrix(context.Background(), pi, pd, alpha)
	return m
}

// invariantMatrix is InvariantMatrix, which takes O(L³) time: it returns ctx's error once ctx
// is done (checked once per row of the matrix).
func invariantMatrix(ctx context.Context, pi, pd []float64, alpha float64) ([][]float64, error) {
	L := len(pi)
	var tot float64
	for _, v := range pi {
		tot += v
	}
	p := make([]float64, L)
	for i, v := range pi {
		p[i] = v / tot
	}
	P := make([][]float64, L)
	for i := range P {
		P[i] = make([]float64, L)
		for j := range P[i] {
			if i == j {
				P[i][j] = pd[i]
			} else {
				P[i][j] = (1 - pd[i]) / float64(L-1)
			}
		}
	}
	Q := make([][]float64, L)
	for k := range Q {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		Q[k] = make([]float64, L)
		var s float64
		for j := 0; j < L; j++ {
			s += p[j] * P[j][k]
		}
		for j := 0; j < L; j++ {
			Q[k][j] = P[j][k] * p[j] / s
		}
	}
	Rs := make([][]float64, L)
	for i := range Rs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		Rs[i] = make([]float64, L)
		for j := range Rs[i] {
			var r float64
			for k := 0; k < L; k++ {
				r += P[i][k] * Q[k][j]
			}
			Rs[i][j] = alpha * r
			if i == j {
				Rs[i][j] += 1 - alpha
			}
		}
	}
	if L == 1 {
		Rs[0][0] = 1
	}
	return Rs, nil
}

// Protect implements methods.Method. Info: "pram_matrices" ([][][]float64, one per column
// and stratum in draw order) and "pram_changed" (records changed); Diag.PRAM: the expected
// changes Σ over levels of n_i·(1 − Rs_ii) given the matrices, max |πᵀRs − πᵀ| of the
// invariant matrices (0 for explicit ones) and the matrices with their column, stratum and
// categories.
func (PRAM) Protect(ctx context.Context, d *datasets.Dataset, p methods.Params, rng *rand.Rand) (*methods.Release, error) {
	if rng == nil {
		return nil, fmt.Errorf("pram: nil random generator")
	}
	explicit, sc, err := pramSetup(d, p)
	if err != nil {
		return nil, err
	}
	pd, alpha := p.Float("pd"), p.Float("alpha")
	perStratum := p.String("strata_matrix") == "per_stratum"
	strata := [][]int{nil} // nil: every row
	if sc >= 0 {
		strata = stratumRows(d, sc)
	}
	out := d.Clone()
	var mats [][][]float64
	var changed, expected, invErr float64
	var typed []diag.PRAMMatrix
	record := func(j int, rows []int, m [][]float64) {
		if m == nil {
			return
		}
		pm := diag.PRAMMatrix{Column: d.Names[j], Levels: slices.Clone(d.Levels[j]), P: m}
		if len(rows) > 0 {
			pm.Stratum = d.Label(rows[0], sc)
		}
		typed = append(typed, pm)
	}
	matrixFor := func(j int, rows []int) ([][]float64, error) {
		if explicit != nil {
			return explicit, nil
		}
		cnt := levelCounts(d, j, rows)
		L := len(cnt)
		draws := make([]float64, L)
		for i := range draws {
			draws[i] = pd + (1-pd)*rng.Float64()
		}
		if L == 0 {
			return nil, nil
		}
		m, err := invariantMatrix(ctx, cnt, draws, alpha)
		if err != nil {
			return nil, err
		}
		invErr = max(invErr, invarianceErr(cnt, m))
		return m, nil
	}
	for j := 0; j < d.P; j++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if j == sc {
			continue
		}
		var global [][]float64
		if !perStratum {
			if global, err = matrixFor(j, nil); err != nil {
				return nil, err
			}
			mats = append(mats, global)
			record(j, nil, global)
		}
		for _, rows := range strata {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			m := global
			if perStratum {
				if m, err = matrixFor(j, rows); err != nil {
					return nil, err
				}
				mats = append(mats, m)
				record(j, rows, m)
			}
			if m == nil {
				continue
			}
			cum := make([][]float64, len(m))
			for i, row := range m {
				if i%64 == 0 && ctx.Err() != nil {
					return nil, ctx.Err()
				}
				cum[i] = make([]float64, len(row))
				var c float64
				for k, v := range row {
					c += v
					cum[i][k] = c
				}
			}
			cnt := levelCounts(d, j, rows)
			for i, n := range cnt {
				expected += n * (1 - m[i][i])
			}
			each(d.N, rows, func(i int) {
				v := d.Data[i*d.P+j]
				if math.IsNaN(v) {
					return
				}
				c := cum[int(v)]
				u := rng.Float64() * c[len(c)-1]
				k := 0
				for k < len(c)-1 && u >= c[k] {
					k++
				}
				for k > 0 && m[int(v)][k] == 0 { // never land on a zero-probability category
					k--
				}
				if k != int(v) {
					changed++
				}
				out.Data[i*d.P+j] = float64(k)
			})
		}
	}
	info := map[string]any{"pram_matrices": mats, "pram_changed": changed}
	return &methods.Release{Masked: out, Info: info,
		Diag: diag.Diagnostics{PRAM: &diag.PRAM{ExpectedChanged: expected, InvarianceErr: invErr, Matrices: typed}}}, nil
}

// invarianceErr returns max_k |Σ_i π_i Rs_ik − π_k| for proportions π ∝ cnt.
func invarianceErr(cnt []float64, m [][]float64) float64 {
	var tot float64
	for _, v := range cnt {
		tot += v
	}
	var e float64
	for k := range m {
		var s float64
		for i := range m {
			s += cnt[i] / tot * m[i][k]
		}
		e = max(e, math.Abs(s-cnt[k]/tot))
	}
	return e
}

// each calls f for every row in rows, or for 0..n−1 if rows is nil.
func each(n int, rows []int, f func(i int)) {
	if rows == nil {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	for _, i := range rows {
		f(i)
	}
}

// stratumRows groups the rows by the value of column sc, strata in value order (codes of a
// categorical column), missing values last; rows keep their order within a stratum.
func stratumRows(d *datasets.Dataset, sc int) [][]int {
	idx := map[float64]int{}
	var keys []float64
	var groups [][]int
	nan := -1
	for i := 0; i < d.N; i++ {
		v := d.Data[i*d.P+sc]
		var g int
		if math.IsNaN(v) {
			if nan < 0 {
				nan = len(groups)
				groups = append(groups, nil)
				keys = append(keys, math.Inf(1))
			}
			g = nan
		} else if k, ok := idx[v]; ok {
			g = k
		} else {
			g = len(groups)
			idx[v] = g
			groups = append(groups, nil)
			keys = append(keys, v)
		}
		groups[g] = append(groups[g], i)
	}
	order := make([]int, len(groups))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case keys[a] < keys[b]:
			return -1
		case keys[a] > keys[b]:
			return 1
		}
		return 0
	})
	out := make([][]int, len(groups))
	for i, g := range order {
		out[i] = groups[g]
	}
	return out
}
