// Package categorical holds the protection methods for categorical key variables of
// Morais (2022, MSc dissertation, Universidade do Minho) in their sdcMicro form: PRAM
// (`pram`), threshold local suppression (`local_supp`), k-anonymity by local suppression
// (`kanon`, sdcMicro kAnon), global recoding (`global_recode`),
// top/bottom coding (`topbot_code`) and the greedy semantic recoding (`semantic_recode`).
// docs/categorical.md explains each method, its parameters and where it departs from sdcMicro.
//
// A method protects the columns it is given (the harness selects them with --columns /
// `columns`, passes the others through and runs strata separately). Categorical columns are
// datasets codes: Data holds the index of the label in Levels, NaN when missing.
package categorical

import (
	"fmt"
	"math"

	"github.com/sdcbench/sdcbench/datasets"
)

// requireCategorical returns an error naming the first column of d that is not categorical.
func requireCategorical(method string, d *datasets.Dataset) error {
	for j := 0; j < d.P; j++ {
		if !d.IsCategorical(j) {
			return fmt.Errorf("%s: column %q of %s is numeric; give categorical columns (or name them in keys / --keys)", method, d.Names[j], d.Name)
		}
	}
	return nil
}

// levelCounts returns the number of records of each level of column j among rows (all rows
// if rows is nil); missing values are not counted.
func levelCounts(d *datasets.Dataset, j int, rows []int) []float64 {
	cnt := make([]float64, len(d.Levels[j]))
	add := func(i int) {
		if v := d.Data[i*d.P+j]; !math.IsNaN(v) {
			cnt[int(v)]++
		}
	}
	if rows == nil {
		for i := 0; i < d.N; i++ {
			add(i)
		}
		return cnt
	}
	for _, i := range rows {
		add(i)
	}
	return cnt
}
