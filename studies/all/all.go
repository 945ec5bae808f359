// Package all registers every study report: import it for its side effects, as the CLI does.
// A new reproduction with its own tables adds its report package here (docs/reproducing.md).
package all

import (
	_ "github.com/sdcbench/sdcbench/experiments/attackreport"  // the attack metrics against the classic measures
	_ "github.com/sdcbench/sdcbench/experiments/auditreport"   // the empirical ε audit
	_ "github.com/sdcbench/sdcbench/experiments/catreport"     // Morais (2022), categorical stage
	_ "github.com/sdcbench/sdcbench/experiments/dforeport"     // Araújo & Aloise, DFO over the number of groups
	_ "github.com/sdcbench/sdcbench/experiments/dpreport"      // Charest, ε-DP synthetic data
	_ "github.com/sdcbench/sdcbench/experiments/fcrmreport"    // the 2009 FCRM project
	_ "github.com/sdcbench/sdcbench/experiments/maggareport"   // the MAGGA dissertation
	_ "github.com/sdcbench/sdcbench/experiments/perturbreport" // Morais (2022), numeric stage
	_ "github.com/sdcbench/sdcbench/experiments/scalereport"   // the scaling study
)
