package scaling

import (
	"embed"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/sdcbench/sdcbench/studies"
)

//go:embed README.md *.toml
var files embed.FS

func init() {
	studies.Register(studies.Study{
		Name:     "scaling",
		Citation: "scaling study (no published table)",
		Files:    files,
		Report:   reporter{},
	})
}

// MachineFile is the optional one-line note in a scaling folder that says in what state the
// machine was when the study ran (e.g. "idle" or "loaded, load average ≈ 30"); runs.csv cannot
// record it, and wall times mean little without it.
const MachineFile = "machine.txt"

// reporter writes SCALING.md. It reproduces no publication, so it records no verdicts.
type reporter struct{}

// Write writes SCALING.md and its plot, with the machine state of DIR/machine.txt.
func (reporter) Write(dir, _ string, t *studies.Tally) error {
	t.Wrote(File)
	label := "not recorded"
	data, err := os.ReadFile(filepath.Join(dir, MachineFile))
	switch {
	case err == nil:
		label = strings.TrimSpace(string(data))
	case !errors.Is(err, os.ErrNotExist):
		return err
	}
	return Write(dir, label)
}
