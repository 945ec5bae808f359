package metrics

import (
	"strconv"
	"strings"
	"sync"
)

// ColumnKind says which kind of protected column a metric measures (docs/metrics.md §0.6).
// A measure of distances, moments or ranks (NumericColumns) has no meaning on category codes:
// the distance between the codes 1 and 3 of a region is an artefact of the coding.
type ColumnKind int

// Column kinds. The zero value leaves the choice to the registry's table (Register).
const (
	// KindUnset is an Info that does not declare its kind; Register fills it from the table
	// below, else AnyColumns.
	KindUnset ColumnKind = iota
	// AnyColumns: the metric reads every column as what it is (a category as a category), or
	// it reads no protected column at all (keys, diagnostics, posterior summaries).
	AnyColumns
	// NumericColumns: the metric measures numeric columns only; categorical ones are left out,
	// and with none left the metric does not apply.
	NumericColumns
	// CategoricalColumns: the metric measures categorical columns only; with none it does not
	// apply.
	CategoricalColumns
)

func (k ColumnKind) String() string {
	return [...]string{"unset", "any", "numeric", "categorical"}[k]
}

// columnKinds declares the column kind of the registered metrics that do not measure any
// column: the numeric loss, linkage and interval measures, the objectives built on them and the
// numeric diagnostics, and the two measures of categorical changes. Every other metric is
// AnyColumns. The table lives here, beside Info, so that each metric's file stays as it is.
// Built on first use (Lookup, List), not at start-up.
var columnKinds = sync.OnceValue(func() map[string]ColumnKind {
	m := map[string]ColumnKind{}
	for _, id := range strings.Fields(`
		sse_sst il1s il1s_sum_sdc il1s_rel il1rel il1rel_sum_sdc il3 il3_code mse mae mse_cov mae_cov
		mse_cor mae_cor gini_diff eigen eigen_sdc pil pil_kde reg_coef_dev
		dld dbrl dbrl2 dbrl_attr dbrl_attr2 dbrl_sets prl id_rank sdid interval_disclosure dr
		rmd_risk1 rmd_risk2 score score_kde fobj1 fobj2 fobj3 fobj4 fobj4_cal fobj5 il1_dld_mean
		sse_sst_lb imp marg_kept neg_cols zeros_kept mean_dev_max cov_dev_max var_ratio_max
		max_ratio_max desc_col1`) {
		m[id] = NumericColumns
	}
	for _, id := range []string{"ut1", "pram_changed"} {
		m[id] = CategoricalColumns
	}
	return m
})

// releaseOnly lists the registered measures that read only the release's key, weight,
// household and sensitive columns (Info.ReleaseOnly): the categorical risk measures of
// docs/metrics.md §4, whose functions take every column from Input.keyTable and none from
// Input.Orig (TestReleaseOnlyIgnoresOriginal checks each). Built on first use.
var releaseOnly = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, id := range strings.Fields(`
		kanon_viol_2 kanon_viol_3 kanon_viol_5 ind_risk_max ind_risk_mean global_risk_er
		global_risk_pct hier_risk_er hier_risk_pct risky_obs ldiv_distinct_min
		ldiv_distinct_mean ldiv_distinct_median ldiv_distinct_max dis_suda_mean dis_suda_max
		suda_contrib_max risky_cells modrisk_gr1 modrisk_gr2`) {
		m[id] = true
	}
	return m
})

// labels are the short human names of the metrics on plot axes and in report headers; a
// metric without one is labelled by its ID. Built on first use.
var labels = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"sse_sst": "SSE/SST", "il1s": "IL1s", "il1s_sum_sdc": "IL1s (sum, sdcMicro)", "il1s_rel": "IL1s relative",
		"il1rel": "IL1 relative", "il1rel_sum_sdc": "IL1 relative (sum, sdcMicro)", "il3": "IL3", "il3_code": "IL3 (code variant)",
		"mse": "MSE of values", "mae": "MAE of values", "mse_cov": "MSE of covariances", "mae_cov": "MAE of covariances",
		"mse_cor": "MSE of correlations", "mae_cor": "MAE of correlations", "gini_diff": "Gini difference",
		"eigen": "Eigenvalue loss", "eigen_sdc": "Eigenvalue loss (sdcMicro)", "pil": "PIL", "pil_kde": "PIL (KDE)",
		"reg_coef_dev": "Regression coefficient deviation", "ut1": "UT1", "n_suppressed": "Suppressed cells",
		"pram_changed": "Records changed by PRAM", "rmd_risk1": "RMD risk 1", "rmd_risk2": "RMD risk 2",
		"score_kde": "Score (KDE)", "dbrl_sets": "DBRL per subset",
		"dld": "DLD", "dbrl": "DBRL", "dbrl2": "DBRL (1st or 2nd)", "dbrl_attr": "DBRL per attribute",
		"dbrl_attr2": "DBRL per attribute (1st or 2nd)", "prl": "PRL", "id_rank": "Rank-interval disclosure",
		"sdid": "SDID", "interval_disclosure": "Interval disclosure", "dr": "DR (combined risk)",
		"dis_suda_max": "DIS-SUDA max", "dis_suda_mean": "DIS-SUDA mean", "global_risk_er": "Expected re-identifications",
		"global_risk_pct": "Global risk", "hier_risk_er": "Expected re-identifications (households)",
		"hier_risk_pct": "Household risk", "ind_risk_max": "Individual risk max", "ind_risk_mean": "Individual risk mean",
		"kanon_viol_2": "2-anonymity violations", "kanon_viol_3": "3-anonymity violations", "kanon_viol_5": "5-anonymity violations",
		"ldiv_distinct_max": "Distinct l-diversity max", "ldiv_distinct_mean": "Distinct l-diversity mean",
		"ldiv_distinct_median": "Distinct l-diversity median", "ldiv_distinct_min": "Distinct l-diversity min",
		"risky_obs": "Risky records", "singling_out": "Singling-out risk", "linkability": "Linkability risk",
		"inference": "Inference risk", "risky_cells": "Risky cells", "suda_contrib_max": "Largest SUDA attribute contribution",
		"fobj1": "Fobj1", "fobj2": "Fobj2", "fobj3": "Fobj3", "fobj4": "Fobj4", "fobj4_cal": "Fobj4 (calibration)",
		"fobj5": "Fobj5", "il1_dld_mean": "Mean of SSE/SST and DLD", "score": "Score",
		"acc_rate": "Acceptance rate", "audit_eps_lb": "Audited ε lower bound", "bias": "Bias", "cat_bias": "Bias per category",
		"cat_coverage_et": "Equal-tailed coverage per category", "cat_coverage_hpd": "HPD coverage per category",
		"cat_hpd_width": "HPD width per category", "cat_post_mean": "Posterior mean per category",
		"cat_post_var": "Posterior variance per category", "coverage_et": "Equal-tailed coverage", "coverage_hpd": "HPD coverage",
		"ess": "Effective sample size", "et_width": "Equal-tailed width", "hpd_width": "HPD width", "mse_est": "Squared error",
		"post_mean": "Posterior mean", "post_var": "Posterior variance", "rel_bias": "Relative bias",
		"cov_dev_max": "Max covariance deviation", "desc_col1": "Mean of column 1", "dfo_cpu": "DFO CPU time",
		"dfo_evals": "DFO evaluations", "dfo_g": "DFO groups G*", "dfo_g0": "DFO start groups", "dfo_groups": "DFO released groups",
		"fcrm_iters": "FCRM iterations", "fcrm_last_delta": "FCRM last change", "fcrm_objective": "FCRM objective",
		"il_start": "SSE/SST of the start", "imp": "Improvement over the start", "marg_kept": "Marginals kept",
		"max_ratio_max": "Max ratio of maxima", "mean_dev_max": "Max mean deviation", "neg_cols": "Columns with negatives",
		"pram_expected": "Expected PRAM changes", "pram_invariance_err": "PRAM invariance error",
		"sse_sst_lb": "SSE/SST lower bound", "var_ratio_max": "Max variance ratio", "zeros_kept": "Columns with zeros kept",
	}
})

// unitText is how a unit reads on an axis; "" for the dimensionless "raw".
var unitText = map[string]string{"%": "%", "frac": "fraction", "count": "count", "pp": "percentage points", "s": "s"}

// AxisLabel returns how a plot labels the metric's axis: its label, its unit and its
// direction, e.g. "SSE/SST (%), lower is better".
func (in Info) AxisLabel() string {
	s := in.Label
	if s == "" {
		s = in.ID
	}
	if u := unitText[in.Unit]; u != "" {
		s += " (" + u + ")"
	}
	switch in.Better {
	case Lower:
		s += ", lower is better"
	case Higher:
		s += ", higher is better"
	case Target:
		s += ", closest to " + strconv.FormatFloat(in.Target, 'g', -1, 64) + " is best"
	}
	return s
}

// describe fills the registry's Label and Columns into an Info that leaves them empty, and
// ReleaseOnly from its table.
func describe(in Info) Info {
	in.ReleaseOnly = in.ReleaseOnly || releaseOnly()[in.ID]
	if in.Label == "" {
		in.Label = labels()[in.ID]
	}
	if in.Columns == KindUnset {
		in.Columns = columnKinds()[in.ID]
		if in.Columns == KindUnset {
			in.Columns = AnyColumns
		}
	}
	return in
}

// kindParts caches, per Input, the inputs restricted to the columns of one kind.
type kindParts struct {
	once [4]sync.Once
	in   [4]*Input
	err  [4]error
}

// joinNames lists column names for a note.
func joinNames(names []string) string { return strings.Join(names, ", ") }
