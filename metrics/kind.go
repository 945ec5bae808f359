package metrics

import "sync"

// Kind groups metrics for `sdcbench list metrics`.
type Kind struct {
	Key     string // loss, risk, combined, dp, diagnostic
	Title   string
	UseWhen string
}

// Kinds in listing order.
var Kinds = []Kind{
	{"loss", "Information loss", "you need to know how much the release distorts the data (means, variances, correlations, distances)"},
	{"risk", "Disclosure risk", "you need to know how easily records can be re-identified, linked or their values learned"},
	{"combined", "Combined loss and risk", "one number must trade loss against risk, e.g. to pick a method or a k"},
	{"dp", "Differential privacy", "the release comes from an ε-DP method: quality of the inference, or the audited ε"},
	{"diagnostic", "Diagnostics", "you want to understand a run (search sizes, start values); not for ranking methods"},
}

// kindOf maps metric IDs to their kind; built on first use (KindOf), not at start-up.
var kindOf = sync.OnceValue(func() map[string]string {
	kindOf := map[string]string{}
	for k, ids := range map[string][]string{
		"risk": {"dbrl", "dbrl2", "dbrl_attr", "dbrl_attr2", "dis_suda_max", "dis_suda_mean", "dld", "dr",
			"global_risk_er", "global_risk_pct", "hier_risk_er", "hier_risk_pct", "id_rank", "ind_risk_max",
			"ind_risk_mean", "interval_disclosure", "kanon_viol_2", "kanon_viol_3", "kanon_viol_5",
			"ldiv_distinct_max", "ldiv_distinct_mean", "ldiv_distinct_median", "ldiv_distinct_min", "prl", "risky_cells", "risky_obs", "sdid", "singling_out", "linkability", "inference",
			"disco", "tcap", "membership", "dcr_median", "nndr_median", "modrisk_gr1", "modrisk_gr2"},
		"combined": {"il1_dld_mean", "score", "fobj1", "fobj2", "fobj3", "fobj4", "fobj4_cal", "fobj5"},
		"dp": {"acc_rate", "bias", "cat_bias", "cat_coverage_et", "cat_coverage_hpd", "cat_hpd_width", "cat_post_mean",
			"cat_post_var", "coverage_et", "coverage_hpd", "ess", "et_width", "hpd_width", "mse_est", "post_mean",
			"post_var", "rel_bias", "audit_eps_lb"},
		"diagnostic": {"dfo_evals", "dfo_g", "dfo_g0", "dfo_groups", "il_start", "imp", "sse_sst_lb"},
	} {
		for _, id := range ids {
			kindOf[id] = k
		}
	}
	return kindOf
})

// KindOf returns the kind of a metric: from the table above, else "diagnostic" for metrics
// that are not compared (Better None), else "loss".
func KindOf(in Info) string {
	if k, ok := kindOf()[in.ID]; ok {
		return k
	}
	if in.Better == None {
		return "diagnostic"
	}
	return "loss"
}
