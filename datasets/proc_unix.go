//go:build unix

package datasets

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with this ID runs on this machine (known is true:
// signal 0 tells).
func processAlive(pid int) (alive, known bool) {
	if pid <= 0 {
		return false, true
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM), true
}
