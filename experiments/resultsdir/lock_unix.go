//go:build unix

package resultsdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/sdcbench/sdcbench/datasets"
)

// Lock takes an exclusive advisory lock on dir for one run or merge: a second sdcbench run on
// the same folder (which would record runs twice) fails at once instead. The lock goes with
// the process, so a killed run never leaves the folder locked.
//
// The lock file and the other files a run or merge writes must not be symbolic links
// (CheckOwnFiles); the temporary files a killed writer left in dir are removed
// (datasets.RemoveStaleTemps).
func Lock(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, lockFile)
	if err := checkOwnFile(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|noFollow, 0o644)
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
	if err := CheckOwnFiles(dir); err != nil {
		f.Close()
		return nil, err
	}
	datasets.RemoveStaleTemps(dir)
	return func() { f.Close() }, nil
}
