package datasets

import "strings"

// NA is the set of cell texts that mark a missing value in a CSV file (docs/own-data.md
// "Missing values"). The zero NA is the default set: the empty cell and "NA", as R writes
// them. Whatever the set, "NaN" is also missing in a numeric column, since WriteCSV writes
// it for a missing number. Cells are compared after trimming surrounding spaces.
//
// Both CSV readers call Contains, so a token list given once (`--na`, a spec's `na`)
// means the same everywhere.
type NA struct {
	tokens []string // nil: the default set
}

// defaultNA is the zero NA's set.
var defaultNA = []string{"NA", ""}

// NewNA returns the set of the given tokens (each trimmed). No tokens gives the default.
func NewNA(tokens ...string) NA {
	if len(tokens) == 0 {
		return NA{}
	}
	t := make([]string, len(tokens))
	for i, s := range tokens {
		t[i] = strings.TrimSpace(s)
	}
	return NA{tokens: t}
}

// ParseNA parses a comma-separated token list such as "NA,,." (the tokens NA, the empty
// cell and "."). An empty list is the empty cell alone.
func ParseNA(list string) NA { return NewNA(strings.Split(list, ",")...) }

// Tokens returns the set's tokens (a copy).
func (na NA) Tokens() []string {
	if na.tokens == nil {
		return append([]string(nil), defaultNA...)
	}
	return append([]string(nil), na.tokens...)
}

// IsDefault reports whether na is the default set.
func (na NA) IsDefault() bool { return na.tokens == nil }

// Contains reports whether the trimmed cell s is one of the set's tokens.
func (na NA) Contains(s string) bool {
	if na.tokens == nil {
		return s == "" || s == "NA"
	}
	for _, t := range na.tokens {
		if s == t {
			return true
		}
	}
	return false
}

// String renders the set as ParseNA reads it.
func (na NA) String() string { return strings.Join(na.Tokens(), ",") }

// missing reports whether the trimmed cell s is missing: a token of na, or "NaN".
func (na NA) missing(s string) bool { return s == "NaN" || na.Contains(s) }
