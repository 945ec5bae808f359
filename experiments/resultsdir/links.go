package resultsdir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sdcbench/sdcbench/datasets"
)

// ownedFiles are the files of a results folder that a run or a merge opens, appends to or
// replaces.
var ownedFiles = []string{lockFile, RunsFile, RunsFileGz, TracesFile, TracesFile + ".gz", ManifestFile, VerdictsFile, ReportFile}

// ErrNotRegularFile is matched (errors.Is) by the error of a results-folder file that is a
// symbolic link or not a regular file (checkOwnFile), so that readers which skip unreadable
// optional files (status) still stop on it.
var ErrNotRegularFile = errors.New("not a regular file")

// ownFileError is checkOwnFile's error: its text, matching ErrNotRegularFile.
type ownFileError struct{ msg string }

func (e *ownFileError) Error() string        { return e.msg }
func (e *ownFileError) Is(target error) bool { return target == ErrNotRegularFile }

// checkOwnFile returns an error naming path when it exists and is a symbolic link or anything
// else than a regular file: sdcbench never opens, appends to or writes through a link inside a
// results folder (a link to a file outside would receive its rows or be replaced by them).
func checkOwnFile(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil // missing (or unreadable: the open reports it)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return &ownFileError{fmt.Sprintf("resultsdir: %s is a symbolic link: sdcbench does not open or write through links inside a results folder; replace the link with the file itself or use another folder", path)}
	}
	if !fi.Mode().IsRegular() {
		return &ownFileError{fmt.Sprintf("resultsdir: %s is %s, not a regular file: use another folder", path, datasets.FileKind(fi.Mode()))}
	}
	return nil
}

// readOwnFile returns the content of path, a file of a results folder, refusing a symbolic
// link or a non-regular file as a run does (checkOwnFile); on unix the open also fails on a link
// that appears after the check (O_NOFOLLOW). A missing file is an error wrapping
// os.ErrNotExist. analyze, status and the study reports read runs.csv, traces.csv,
// manifest.json, verdicts.csv and seed_comparison.csv through it.
func readOwnFile(path string) ([]byte, error) {
	if err := checkOwnFile(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return nil, fmt.Errorf("resultsdir: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("resultsdir: %w", err)
	}
	return data, nil
}

// CheckAnalysisOutputs checks the files of dir that an analysis writes (REPORT.md,
// verdicts.csv, AnalysisFiles and their .gz, the pivot tables, the files in plots/): an error
// names the first that is a symbolic link or not a regular file. The analysis refuses such a
// folder before it writes anything, as a run does (CheckOwnFiles), rather than replacing a link
// whose target the user may have meant to update.
func CheckAnalysisOutputs(dir string) error {
	files := []string{ReportFile, VerdictsFile}
	for _, f := range AnalysisFiles {
		files = append(files, f, f+".gz")
	}
	for _, g := range []string{"table_*.csv", "table_*.csv.gz", filepath.Join("plots", "*")} {
		m, _ := filepath.Glob(filepath.Join(dir, g))
		for _, p := range m {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, rel)
		}
	}
	for _, f := range files {
		if err := checkOwnFile(filepath.Join(dir, f)); err != nil {
			return err
		}
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
