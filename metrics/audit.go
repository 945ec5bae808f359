package metrics

// audit_eps_lb reports the empirical ε audit of the method dp_audit (methods/dpaudit), read
// from the release's Info map; NaN for other releases.
func init() {
	Register(Func(Info{ID: "audit_eps_lb", Unit: "raw", Better: None,
		Description: "lower bound on the ε a DP synthesizer satisfies, from the dp_audit method's distinguishing test (with the claim, the pair's exact ε, rates)",
		Components:  []string{"claimed", "pair", "hat", "tpr", "fpr", "trials"}},
		func(in *Input) Result {
			get := func(k string) (float64, bool) {
				v, ok := in.Info["audit_"+k].(float64)
				return v, ok
			}
			lb, ok := get("eps_lb")
			if !ok {
				return nanNote("audit_eps_lb: not a dp_audit release")
			}
			aux := map[string]float64{}
			for _, k := range []string{"claimed", "pair", "hat"} {
				aux[k], _ = get("eps_" + k)
			}
			for _, k := range []string{"tpr", "fpr", "trials"} {
				aux[k], _ = get(k)
			}
			return Result{Value: lb, Aux: aux}
		}))
}
