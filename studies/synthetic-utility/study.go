// Package syntheticutility is the synthetic-utility study (README.md): the utility measures
// of docs/synthetic.md on the synthetic and categorical methods. It reproduces no
// publication and has no report code; the generic analysis writes REPORT.md.
package syntheticutility

import (
	"embed"

	"github.com/sdcbench/sdcbench/studies"
)

//go:embed README.md *.toml
var files embed.FS

func init() {
	studies.Register(studies.Study{
		Name:     "synthetic-utility",
		Citation: "Snoke et al. (2018), general and specific utility measures for synthetic data; NIST SDNist's k-marginal score (utility of the synthetic and categorical methods; no published table)",
		Files:    files,
	})
}
