//go:build unix

package browser

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the browser in a process group of its own and makes cancellation kill
// the whole group: Chromium forks renderer and utility processes that would outlive the main one.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
