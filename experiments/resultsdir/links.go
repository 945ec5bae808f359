package resultsdir

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sdcbench/sdcbench/datasets"
)

// ownedFiles are the files of a results folder that a run or a merge opens, appends to or
// replaces.
var ownedFiles = []string{lockFile, RunsFile, RunsFileGz, TracesFile, TracesFile + ".gz", ManifestFile, VerdictsFile, ReportFile}

// checkOwnFile returns an error naming path when it exists and is a symbolic link or anything
// else than a regular file: sdcbench never opens, appends to or writes through a link inside a
// results folder (a link to a file outside would receive its rows or be replaced by them).
func checkOwnFile(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil // missing (or unreadable: the open reports it)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("resultsdir: %s is a symbolic link: sdcbench does not open or write through links inside a results folder; replace the link with the file itself or use another folder", path)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("resultsdir: %s is %s, not a regular file: use another folder", path, datasets.FileKind(fi.Mode()))
	}
	return nil
}

// CheckOwnFiles checks the files of dir that a run or a merge writes (lock, runs.csv,
// traces.csv, their .gz, manifest.json, verdicts.csv, REPORT.md): an error names the first that
// is a symbolic link or not a regular file.
func CheckOwnFiles(dir string) error {
	for _, f := range ownedFiles {
		if err := checkOwnFile(filepath.Join(dir, f)); err != nil {
			return err
		}
	}
	return nil
}
