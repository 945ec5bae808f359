package scalereport

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/sdcbench/sdcbench/experiments/reports"
)

func init() { reports.Register("scaling", reporter{}) }

// MachineFile is the optional one-line note in a scaling folder that says in what state the
// machine was when the study ran (e.g. "idle" or "loaded, load average ≈ 30"); runs.csv cannot
// record it, and wall times mean little without it.
const MachineFile = "machine.txt"

// reporter writes SCALING.md for the experiments named scaling*. It reproduces no
// publication, so it records no verdicts.
type reporter struct{}

// Study names what the report measures.
func (reporter) Study() string { return "scaling study (no published table)" }

// Match claims the experiments whose name starts with "scaling".
func (reporter) Match(experiment string) bool { return strings.HasPrefix(experiment, "scaling") }

// Write writes SCALING.md and its plot, with the machine state of DIR/machine.txt.
func (reporter) Write(dir, _ string, _ *reports.Tally) error {
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
