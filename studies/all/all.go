// Package all registers every study: import it for its side effects, as the CLI does. A new
// study adds its package here (docs/reproducing.md).
package all

import (
	_ "github.com/sdcbench/sdcbench/studies/attacks"           // the attack metrics against the classic measures
	_ "github.com/sdcbench/sdcbench/studies/audit"             // the empirical ε audit
	_ "github.com/sdcbench/sdcbench/studies/dfo"               // Araújo & Aloise, DFO over the number of groups
	_ "github.com/sdcbench/sdcbench/studies/dp"                // ε-DP synthetic data after Charest (2011)
	_ "github.com/sdcbench/sdcbench/studies/fcrm"              // the 2009 FCRM project
	_ "github.com/sdcbench/sdcbench/studies/magga"             // the MAGGA dissertation
	_ "github.com/sdcbench/sdcbench/studies/microagg-classics" // the classic microaggregation methods
	_ "github.com/sdcbench/sdcbench/studies/perturbative"      // Morais (2022), numeric and categorical stages
	_ "github.com/sdcbench/sdcbench/studies/quickstart"        // the quickstart and the tests' tiny grid
	_ "github.com/sdcbench/sdcbench/studies/scaling"           // the scaling study
	_ "github.com/sdcbench/sdcbench/studies/synthetic-utility" // the utility measures of docs/synthetic.md
)
