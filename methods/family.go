package methods

import (
	"path"
	"reflect"
)

// Family groups methods for `sdcbench list methods`: a title and a plain "use when" line.
type Family struct {
	Key     string // the package name, e.g. "microagg"
	Title   string
	UseWhen string
}

// families maps a method's package name to its family. A package not listed here is shown
// under its own name.
var families = map[string]Family{
	"microagg":   {"microagg", "Microaggregation", "every record must be published, each value replaced by the mean of a group of at least k similar records (k-anonymity for continuous data)"},
	"dfo":        {"dfo", "Optimised microaggregation (DFO)", "you accept a longer run for lower information loss than mdav at the same k"},
	"magga":      {"magga", "Optimised microaggregation (genetic)", "you accept a much longer run for the lowest information loss at a given k"},
	"perturb":    {"perturb", "Perturbation", "records must stay individual but their values may be changed by noise"},
	"recordswap": {"recordswap", "Record swapping (households)", "a census or household file keeps every record and value, and households rare in their small area are moved to another area (sdcMicro recordSwap)"},
	"dp":         {"dp", "ε-differential privacy (synthesis and inference)", "the release must carry a formal privacy budget ε (counts and proportions of binary or categorical data)"},
	"dpaudit":    {"dpaudit", "Audit (diagnostic)", "you want to check empirically that an ε-DP synthesizer keeps its claimed ε; releases nothing"},
	"external":   {"external", "External releases", "a release was made by another tool (sdcMicro, ARX) and should be measured and ranked beside sdcbench's"},
}

// FamilyOf returns the family of m, from the package that defines its type.
func FamilyOf(m Method) Family {
	t := reflect.TypeOf(m)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	key := path.Base(t.PkgPath())
	if f, ok := families[key]; ok {
		return f
	}
	return Family{Key: key, Title: key, UseWhen: "see the method's description"}
}

// Families returns every registered method grouped by family, families in the order of
// FamilyOrder and then by name, methods by name.
func Families() (fams []Family, byFamily map[string][]Info) {
	byFamily = map[string][]Info{}
	seen := map[string]bool{}
	var extra []Family
	for _, m := range methodTable.Values() {
		f := FamilyOf(m)
		byFamily[f.Key] = append(byFamily[f.Key], m.Info())
		if !seen[f.Key] {
			seen[f.Key] = true
			if _, known := families[f.Key]; !known {
				extra = append(extra, f)
			}
		}
	}
	for _, k := range FamilyOrder {
		if seen[k] {
			fams = append(fams, families[k])
		}
	}
	return append(fams, extra...), byFamily
}

// FamilyOrder is the order of the known families in listings.
var FamilyOrder = []string{"microagg", "dfo", "magga", "perturb", "recordswap", "dp", "dpaudit", "external"}
