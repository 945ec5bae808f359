package metrics

// audit_eps_lb reports the empirical ε audit of the method dp_audit (methods/dpaudit), read
// from the release's Diag.Audit; NaN for other releases.
func init() {
	Register(Func(Info{ID: "audit_eps_lb", Unit: "raw", Better: None, Diag: true,
		Description: "lower bound on the ε a DP synthesizer satisfies, from the dp_audit method's distinguishing test (with the claim, the pair's exact ε, rates)",
		Components:  []string{"claimed", "pair", "hat", "tpr", "fpr", "trials"}},
		func(in *Input) Result {
			a := in.Diag.Audit
			if a == nil {
				return nanNote("audit_eps_lb: not a dp_audit release")
			}
			return Result{Value: a.EpsLB, Aux: map[string]float64{"claimed": a.EpsClaimed, "pair": a.EpsPair,
				"hat": a.EpsHat, "tpr": a.TPR, "fpr": a.FPR, "trials": a.Trials}}
		}))
}
