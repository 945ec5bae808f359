package datasets

import (
	"errors"
	"os"
	"regexp"
	"strings"
)

// userFileError rewrites an error of AtomicWrite so that it names the user's file, path, not
// the temporary file beside it (".NAME.tmp123…", which the user never asked for and which is
// gone by the time the message is read). A rename onto a folder, which Go reports as
// "rename TMP PATH: file exists", says that PATH is a folder. Other errors are returned as they
// are; the result wraps err, so errors.Is still sees the cause (ENOSPC, EACCES, ...).
func userFileError(err error, path string) error {
	if err == nil {
		return nil
	}
	var le *os.LinkError
	if errors.As(err, &le) && le.Op == "rename" && le.New == path {
		if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
			return &userFileErr{msg: "datasets: " + path + " is a folder, not a file: name the file to write", err: err}
		}
		return &userFileErr{msg: "datasets: writing " + path + ": " + le.Err.Error(), err: err}
	}
	base := path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		base = path[i+1:]
	}
	tmpRE := regexp.MustCompile(`[^\s:]*` + regexp.QuoteMeta("."+base+".") + `[^\s:]*tmp[^\s:]*`)
	msg := err.Error()
	if !tmpRE.MatchString(msg) {
		return err
	}
	var pe *os.PathError
	if errors.As(err, &pe) && tmpRE.MatchString(pe.Path) {
		// "open DIR/.x.tmp123: no such file or directory" → "writing DIR/x: no such file ..."
		return &userFileErr{msg: "datasets: writing " + path + ": " + pe.Err.Error(), err: err}
	}
	return &userFileErr{msg: tmpRE.ReplaceAllLiteralString(msg, path), err: err}
}

// userFileErr is an error with a rewritten message that wraps the original.
type userFileErr struct {
	msg string
	err error
}

func (e *userFileErr) Error() string { return e.msg }
func (e *userFileErr) Unwrap() error { return e.err }
