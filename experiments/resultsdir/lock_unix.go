//go:build unix

package resultsdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Lock takes an exclusive advisory lock on dir for one run or merge: a second sdcbench run on
// the same folder (which would record runs twice) fails at once instead. The lock goes with
// the process, so a killed run never leaves the folder locked.
func Lock(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, lockFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("resultsdir: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("resultsdir: %s is in use by another sdcbench run; wait for it or use another --out", dir)
		}
		return nil, fmt.Errorf("resultsdir: locking %s: %w", dir, err)
	}
	return func() { f.Close() }, nil
}
