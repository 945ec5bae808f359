// Package quickstart is the quickstart study (README.md): MDAV against additive noise, the
// README's example, and the tiny grid of the tests. It has no report code; the analysis
// compares the quickstart's runs with quickstart.expected.csv.
package quickstart

import (
	"embed"

	"github.com/sdcbench/sdcbench/studies"
)

//go:embed README.md *.toml *.expected.csv
var files embed.FS

func init() {
	studies.Register(studies.Study{
		Name:     "quickstart",
		Citation: "the quickstart: MDAV against additive noise (MDAV oracle of sdcMicro 5.8.1)",
		Files:    files,
	})
}
