package main

// The CLI links every study in: its specs are the bundled ones (studies.Bundled), its report
// is what `run` and `report` write.
import _ "github.com/sdcbench/sdcbench/studies/all"
