//go:build unix

package command

import (
	"os/exec"
	"syscall"
)

// killGroup makes the program the leader of a new process group and, when the run's context
// ends, kills the whole group: an R or Python program's own children stop with it.
func killGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
}
