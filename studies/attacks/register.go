package attacks

import (
	"embed"

	"github.com/sdcbench/sdcbench/studies"
)

//go:embed README.md *.toml
var files embed.FS

func init() {
	studies.Register(studies.Study{
		Name: "attacks",
		// The framework the attacks follow.
		Citation: "Giomi et al. (2022), a unified framework for quantifying privacy risk in synthetic data (attacks against the classic measures; no published table)",
		Files:    files,
		Report:   reporter{},
	})
}

// reporter writes ATTACKS.md: the attack metrics against the classic risk measures. It
// reproduces no publication, so it records no verdicts.
type reporter struct{}

// Write writes ATTACKS.md.
func (reporter) Write(dir, _ string, t *studies.Tally) error {
	t.Wrote("ATTACKS.md")
	return Write(dir)
}
