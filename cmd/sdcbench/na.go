package main

import (
	"flag"

	"github.com/sdcbench/sdcbench/datasets"
)

// naFlag is the --na flag of the commands that read user CSV files (protect, eval): the
// comma-separated cell texts that mark a missing value, e.g. --na "NA,,." (docs/own-data.md
// "Missing values"). Unset, the reader's default set applies ("NA" and the empty cell).
type naFlag struct{ na datasets.NA }

func (f *naFlag) String() string {
	if f == nil {
		return ""
	}
	return f.na.String()
}

func (f *naFlag) Set(s string) error {
	f.na = datasets.ParseNA(s)
	return nil
}

// addNAFlag defines --na on fs.
func addNAFlag(fs *flag.FlagSet) *naFlag {
	f := &naFlag{}
	fs.Var(f, "na", "comma-separated `tokens` that mark a missing cell, e.g. \"NA,,.\" (default NA and the empty cell)")
	return f
}
