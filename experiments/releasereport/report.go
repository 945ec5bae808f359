// Package releasereport builds the release report of `sdcbench protect --report FILE`: the
// page (and the JSON file with the same numbers) a statistical office keeps with a release, as
// sdcMicro's report() documents an sdcMicroObj and ARX its certificate
// (docs/release-report.md). It says what went in (the input file and its SHA-256, the columns
// and their roles), what was done (method, parameters, seed, sdcbench version, the command)
// and what came out: the disclosure risk before and after on the key columns (frequencies,
// individual and global risk, SUDA), record linkage on the numeric protected columns, the
// information loss, the changed and suppressed cells and the PRAM matrices.
//
// The external variant (Options.External) leaves out every per-combination count, as sdcMicro's
// report(internal = FALSE) leaves out its tables: the highest-risk key combinations with their
// frequencies and the per-category frequency tables of the keys.
package releasereport

import (
	"encoding/json"
	"io"
	"math"
	"strconv"
)

// Report is the release report. Its JSON form (WriteJSON) and its HTML form (WriteHTML) hold
// the same numbers.
type Report struct {
	Title   string `json:"title"`
	Variant string `json:"variant"` // "internal" or "external"
	Created string `json:"created"` // RFC 3339, UTC
	Tool    Tool   `json:"tool"`
	// Command is the command line that made the release.
	Command string `json:"command"`
	Input   File   `json:"input"`
	Output  File   `json:"output"`
	// Columns are the input's columns in file order with their roles.
	Columns []Column `json:"columns"`
	Method  Method   `json:"method"`
	Seed    uint64   `json:"seed"`
	// Risk is the disclosure risk on the key columns; nil without keys.
	Risk *Risk `json:"risk,omitempty"`
	// Linkage is record linkage on the numeric protected columns, before (the original
	// against itself) and after; nil without numeric protected columns.
	Linkage []Measure `json:"linkage,omitempty"`
	// Loss is the information loss of the release on the protected columns.
	Loss []Measure `json:"loss"`
	// Changes counts the changed and suppressed cells of each protected column.
	Changes []Change `json:"changes"`
	// PRAM holds the transition matrices of a PRAM release; nil for other methods.
	PRAM *PRAM `json:"pram,omitempty"`
	// Frequencies are the category counts of each key column, original and release (internal
	// report only: per-category counts).
	Frequencies []Frequency `json:"frequencies,omitempty"`
	// Notes say why a number is missing (NA) or what a reader should know.
	Notes []string `json:"notes,omitempty"`
}

// Tool is the program that made the release.
type Tool struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	Commit    string `json:"commit,omitempty"`   // the VCS revision the binary was built from
	Modified  bool   `json:"modified,omitempty"` // built from a working tree with changes
	GoVersion string `json:"go_version"`
}

// File is the input or the output.
type File struct {
	Path    string `json:"path,omitempty"`
	Dataset string `json:"dataset,omitempty"` // an embedded dataset's name
	// SHA256 is the SHA-256 of the file's bytes in hex ("" when it could not be read again:
	// a pipe, a device); for an embedded dataset the content hash HashOf names.
	SHA256  string `json:"sha256"`
	HashOf  string `json:"hash_of"`
	Records int    `json:"records"`
	Columns int    `json:"columns"`
}

// Column is one input column.
type Column struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // "numeric" or "categorical", as protect read it
	// Roles are among: protected, passed through, dropped, strata, key, weight, household,
	// sensitive.
	Roles []string `json:"roles"`
	// Categories is the number of categories of a categorical column (0 for a numeric one).
	Categories int `json:"categories"`
	// MissingBefore and MissingAfter count the column's missing cells in the input and in the
	// release (MissingAfter is 0 for a dropped column).
	MissingBefore int `json:"missing_before"`
	MissingAfter  int `json:"missing_after"`
}

// Method is the protection method and its parameters.
type Method struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Params      []Param `json:"params"`
}

// Param is one parameter: its value in the run and its default.
type Param struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Default string `json:"default"`
}

// Measure is one registered measure (its ID as in `sdcbench list metrics`) before and after
// the protection. Before is NaN (null) for a loss, which is 0 by definition before.
type Measure struct {
	ID     string `json:"id"`
	Label  string `json:"label"`
	Unit   string `json:"unit"`
	Before Num    `json:"before"`
	After  Num    `json:"after"`
}

// Risk is the disclosure risk on the key columns.
type Risk struct {
	Keys      []string  `json:"keys"`
	Weight    string    `json:"weight,omitempty"`
	Household string    `json:"household,omitempty"`
	Sensitive string    `json:"sensitive,omitempty"`
	Measures  []Measure `json:"measures"`
	// Highest are the key combinations of the release with the highest individual risk, at
	// most ten, with their frequencies (internal report only: per-combination counts).
	Highest []Combination `json:"highest,omitempty"`
}

// Combination is one key combination of the release.
type Combination struct {
	Values []string `json:"values"` // in the order of Risk.Keys
	Fk     Num      `json:"fk"`     // sample frequency
	FkW    Num      `json:"Fk"`     // weighted frequency (= fk without weights)
	Risk   Num      `json:"risk"`   // individual risk
}

// Change counts the changed and suppressed cells of one protected column.
type Change struct {
	Column string `json:"column"`
	// Changed counts the cells whose value (a category's label) differs from the original's,
	// suppressed ones included; Suppressed those present in the original and missing in the
	// release.
	Changed       int `json:"changed"`
	Suppressed    int `json:"suppressed"`
	ChangedPct    Num `json:"changed_pct"`
	SuppressedPct Num `json:"suppressed_pct"`
}

// PRAM is what the post-randomization method reports.
type PRAM struct {
	// ExpectedChanged is Σ n_i·(1 − P_ii) given the matrices; InvarianceErr is max |πᵀP − πᵀ|
	// of the invariant matrices (0 for an explicit matrix).
	ExpectedChanged Num      `json:"expected_changed"`
	InvarianceErr   Num      `json:"invariance_err"`
	Matrices        []Matrix `json:"matrices"`
}

// Matrix is one PRAM transition matrix: P[i][j] is the probability that a record of category
// Levels[i] is released as Levels[j].
type Matrix struct {
	Column  string   `json:"column"`
	Stratum string   `json:"stratum,omitempty"`
	Levels  []string `json:"levels"`
	P       [][]Num  `json:"p"`
}

// Frequency is the category counts of one key column.
type Frequency struct {
	Column     string          `json:"column"`
	Categories []CategoryCount `json:"categories"`
}

// CategoryCount is one category's count in the original and in the release ("NA": missing).
type CategoryCount struct {
	Category string `json:"category"`
	Before   int    `json:"before"`
	After    int    `json:"after"`
}

// Num is a measured value: NaN or ±Inf (undefined) is null in JSON and "NA" on the page.
type Num float64

// MarshalJSON writes the shortest decimal that reads back as the same float64 (exact), or
// null.
func (v Num) MarshalJSON() ([]byte, error) {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return []byte(exact(f)), nil
}

// exact returns the shortest decimal that reads back as f, as encoding/json writes a float64:
// plain from 1e-6 to 1e21, with an exponent outside.
func exact(f float64) string {
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		if n := len(s); n >= 4 && s[n-4] == 'e' && s[n-3] == '-' && s[n-2] == '0' {
			s = s[:n-2] + s[n-1:] // e-07 → e-7, as encoding/json
		}
		return s
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// UnmarshalJSON reads a number or null (NaN).
func (v *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*v = Num(math.NaN())
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return err
	}
	*v = Num(f)
	return nil
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}
