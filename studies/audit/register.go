package audit

import (
	"embed"

	"github.com/sdcbench/sdcbench/studies"
)

//go:embed README.md *.toml
var files embed.FS

func init() {
	studies.Register(studies.Study{
		Name:     "audit",
		Citation: "empirical ε audit of the ε-DP synthesizers (no published table)",
		Files:    files,
		Report:   reporter{},
	})
}

// reporter writes AUDIT.md: the empirical ε lower bounds against the claimed ε. It reproduces
// no publication, so it records no verdicts.
type reporter struct{}

// Write writes AUDIT.md.
func (reporter) Write(dir, _ string, t *studies.Tally) error {
	t.Wrote("AUDIT.md")
	return Write(dir)
}
