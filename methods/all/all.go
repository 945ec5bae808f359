// Package all links every method family into a binary: import it for its side effects.
// A new family adds one line here; the runner and the CLI never change.
package all

import (
	_ "github.com/sdcbench/sdcbench/methods/categorical" // PRAM, local suppression, recoding (categorical keys)
	_ "github.com/sdcbench/sdcbench/methods/command"     // a method in any language: an executable per run
	_ "github.com/sdcbench/sdcbench/methods/dfo"         // DFO: pattern search over the number of groups (DFO paper)
	_ "github.com/sdcbench/sdcbench/methods/dp"          // ε-DP synthesis and Charest-style inference (DP study)
	_ "github.com/sdcbench/sdcbench/methods/dpaudit"     // empirical ε audit of the DP synthesizers
	_ "github.com/sdcbench/sdcbench/methods/external"    // releases made by other tools, read from files
	_ "github.com/sdcbench/sdcbench/methods/magga"       // MAGGA genetic microaggregation (MAGGA study)
	_ "github.com/sdcbench/sdcbench/methods/microagg"    // microaggregation methods
	_ "github.com/sdcbench/sdcbench/methods/perturb"     // noise and other perturbative methods
	_ "github.com/sdcbench/sdcbench/methods/recordswap"  // targeted record swapping of households (sdcMicro recordSwap)
	_ "github.com/sdcbench/sdcbench/methods/synth"       // IPSO and FCRM synthetic data (2009 FCRM project)
)
