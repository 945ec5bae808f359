//go:build !unix

package resultsdir

import "github.com/sdcbench/sdcbench/datasets"

// Lock takes no lock where flock is not available; it checks the folder's files as the unix
// Lock does (CheckOwnFiles) and removes stale temporary files.
func Lock(dir string) (unlock func(), err error) {
	if err := CheckOwnFiles(dir); err != nil {
		return nil, err
	}
	datasets.RemoveStaleTemps(dir)
	return func() {}, nil
}
