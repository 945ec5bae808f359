// Package resultsdir is the one owner of a results folder: it reads and writes runs.csv (or
// runs.csv.gz), traces.csv, manifest.json and verdicts.csv, holds the one vocabulary of
// verdicts, records the companion reports a study writes, and writes REPORT.md.
//
// Every sdcbench step that touches a folder goes through it: the runner appends runs with an
// [Appender] under the folder's [Lock] and finishes with [Normalize] and [WriteManifest]; a
// study report runs through [WriteStudyReport], which stores its verdicts and records the
// Markdown files it wrote in the manifest; the analysis (or, without it, the runner's summary)
// writes REPORT.md with [WriteReport], once per run, merge or analysis, and links the
// recorded [CompanionReports].
package resultsdir
