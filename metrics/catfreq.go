package metrics

import "github.com/sdcbench/sdcbench/datasets"

// KeyFrequencies returns, for every record of d, the sample frequency f of its key
// combination on the columns keys, with missing values (NaN) as wildcards, and the
// individual risk r = 1/f (metrics.md §4.1 and §4.3, unweighted; sdcMicro freqCalc). It is the
// risk that threshold local suppression (methods/categorical) recomputes after each step.
func KeyFrequencies(d *datasets.Dataset, keys []string) (f, r []float64, err error) {
	in := &Input{Orig: d, Masked: d, Opt: Options{Keys: keys}}
	c := frequencies(in)
	if c.note != "" {
		return nil, nil, errorString("metrics: " + c.note)
	}
	return c.f, c.r, nil
}

type errorString string

func (e errorString) Error() string { return string(e) }
