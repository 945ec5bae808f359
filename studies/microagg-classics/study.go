// Package microaggclassics is the microagg-classics study (README.md): the classic
// microaggregation methods against sdcMicro 5.8.1 and the literature. It has no report code;
// the analysis compares its runs with microagg-classics.expected.csv.
package microaggclassics

import (
	"embed"

	"github.com/sdcbench/sdcbench/studies"
)

//go:embed README.md *.toml *.expected.csv *.notes.md
var files embed.FS

func init() {
	studies.Register(studies.Study{
		Name:     "microagg-classics",
		Citation: "the classic microaggregation methods against sdcMicro 5.8.1 and the microaggregation literature",
		Files:    files,
	})
}
