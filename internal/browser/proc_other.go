//go:build !unix

package browser

import "os/exec"

// setProcessGroup leaves the command as it is: cancellation kills the main process only.
func setProcessGroup(cmd *exec.Cmd) {}
