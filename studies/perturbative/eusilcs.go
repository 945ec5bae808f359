// EUSILCS.md is the report of perturbative-eusilcs, the EusilcS walkthrough of the study
// (Morais 2022, MSc dissertation, Universidade do Minho, section 6.3): the risk of simPop's public
// eusilcS before protection. It sets the study's printed numbers (eusilcs.expected.csv), sdcMicro
// 5.8.1's (eusilcs.reference.csv, written by eusilcs.R) and ours side by side with a computed
// verdict per item, and computes the checks behind the stated causes of the differences: the key
// set the numbers come from and sdcMicro's class rule for l-diversity (eusilcs.md).

package perturbative

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sdcbench/sdcbench/datasets"
	"github.com/sdcbench/sdcbench/experiments/resultsdir"
	"github.com/sdcbench/sdcbench/metrics"
	"github.com/sdcbench/sdcbench/studies"
)

// eusilcsExperiment is the experiment of the EusilcS walkthrough; its report is EusilcsFile.
const (
	eusilcsExperiment = "perturbative-eusilcs"
	EusilcsFile       = "EUSILCS.md"
)

// EusilcsItem is one number the study prints in its walkthrough (eusilcs.expected.csv).
type EusilcsItem struct {
	Code, Measure, Run, Metric string
	Value                      float64
	Decimals                   int
}

// EusilcsRef is one of sdcMicro 5.8.1's values (eusilcs.reference.csv): Keys is "printed" (the
// call the study prints, with db040) or "study" (pl030 in place of db040); Metric a runs.csv
// column, with ":netIncome" or ":rb090" for the sensitive variable of an l-diversity measure.
type EusilcsRef struct {
	Keys, Metric string
	Value        float64
}

// EusilcsItems and EusilcsRefs are the two embedded tables.
// The embedded file is read on first use, not at start-up (docs/datapath.md, "Start-up").
var (
	EusilcsItems = sync.OnceValue(mustEusilcsItems)
	EusilcsRefs  = sync.OnceValue(mustEusilcsRefs)
)

func mustEusilcsItems() []EusilcsItem {
	rows := studies.MustReadTable(files, "eusilcs.expected.csv", 6)
	out := make([]EusilcsItem, len(rows))
	for i, r := range rows {
		v, err := strconv.ParseFloat(r[4], 64)
		d, err2 := strconv.Atoi(r[5])
		if err != nil || err2 != nil {
			panic(fmt.Sprintf("perturbative: eusilcs.expected.csv row %d: %v %v", i+1, err, err2))
		}
		out[i] = EusilcsItem{Code: r[0], Measure: r[1], Run: r[2], Metric: r[3], Value: v, Decimals: d}
	}
	return out
}

func mustEusilcsRefs() []EusilcsRef {
	rows := studies.MustReadTable(files, "eusilcs.reference.csv", 3)
	out := make([]EusilcsRef, len(rows))
	for i, r := range rows {
		v, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			panic(fmt.Sprintf("perturbative: eusilcs.reference.csv row %d: %v", i+1, err))
		}
		out[i] = EusilcsRef{Keys: r[0], Metric: r[1], Value: v}
	}
	return out
}

// eusilcsRef returns sdcMicro's value for a key set and metric (NaN if absent).
func eusilcsRef(keys, metric string) float64 {
	for _, r := range EusilcsRefs() {
		if r.Keys == keys && r.Metric == metric {
			return r.Value
		}
	}
	return math.NaN()
}

// Table names of the verdicts.
const (
	eusilcsStudyTable = "Morais (2022) EusilcS walkthrough, Codes 26 and 29"
	eusilcsRefTable   = "sdcMicro 5.8.1 on eusilcS"
)

// printedOK reports whether got equals a value printed with dec decimals: within half a unit of
// the last printed digit (exact for counts, dec = 0).
func printedOK(got, want float64, dec int) bool {
	return math.Abs(got-want) <= 0.5*math.Pow(10, -float64(dec))+1e-12*math.Abs(want)
}

// exactOK reports whether got equals sdcMicro's value up to summation order (1e-9 relative).
func exactOK(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

// WriteEusilcsVerdicts reads dir/runs.csv, writes dir/EUSILCS.md and returns every verdict it
// printed (for the study's Reporter; see register.go).
func WriteEusilcsVerdicts(dir string) ([]Verdict, error) {
	t, err := resultsdir.ReadRuns(dir)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	vs, err := EusilcsReport(&b, t)
	if err != nil {
		return nil, err
	}
	return vs, datasets.AtomicWrite(filepath.Join(dir, EusilcsFile), func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// eusilcsRun maps a key set ("printed" or "study") and a sensitive variable to a dataset label.
func eusilcsRun(keys, sens string) string { return keys + "_" + sens }

// EusilcsReport writes the report of perturbative-eusilcs from its runs and returns its verdicts.
func EusilcsReport(w io.Writer, rt *resultsdir.Table) ([]Verdict, error) {
	t := table{t: rt, col: map[string]int{}}
	for i, h := range rt.Header {
		t.col[h] = i
	}
	ours := func(run, metric string) float64 {
		rs := t.rows(run, "local_supp", nil)
		if len(rs) == 0 {
			return math.NaN()
		}
		return t.value(rs[0], metric)
	}
	var vs []Verdict
	add := func(ref bool, table, item, verdict string) {
		vs = append(vs, Verdict{table, item, verdict, ref})
	}
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	f := func(v float64) string {
		if math.IsNaN(v) {
			return "missing"
		}
		return strconv.FormatFloat(v, 'g', 10, 64)
	}

	kc := eusilcsKeyCheck(ours)
	p("# perturbative-eusilcs: the EusilcS walkthrough of Morais (2022)\n\n")
	p("Generated by `sdcbench report DIR` from runs.csv; every verdict below is computed.\n")
	p("%s, section 6.3, measures the risk of simPop's public `eusilcS` (11725 persons in 4641\n", citation)
	p("households; embedded as `eusilcs`) with sdcMicro before applying PRAM and noise. The study prints the call\n")
	p("`createSdcObj(eusilcS, keyVars = c(\"db040\", \"pb220a\", \"hsize\", \"age\"), …, weightVar = \"rb050\", hhId = \"db030\")`,\n")
	if kc.established() {
		p("but its numbers are those of the keys **pl030, pb220a, hsize, age** (section 3, computed). ")
	} else {
		p("and section 3 checks whether its numbers are those of the keys pl030, pb220a, hsize, age: **they are not**. ")
	}
	p("Each run below\nmeasures the original file (local_supp with threshold 1 suppresses nothing), with the weight rb050 and the\nhouseholds db030.\n\n")

	// Section 1: the study's numbers.
	p("## 1. The study's numbers beside ours (criterion: equal to the printed digits)\n\n")
	p("Ours are computed with the keys the numbers come from (pl030, pb220a, hsize, age); the column \"ours, printed\n")
	p("keys\" shows the same measure with the call as printed (db040 in place of pl030).\n\n")
	p("| code | measure | study | ours | verdict | ours, printed keys |\n|---|---|---|---|---|---|\n")
	nOK, nStudy := 0, 0
	var studyMiss []string
	for _, it := range EusilcsItems() {
		if strings.HasPrefix(it.Metric, "suda_contribution:") {
			continue // section 3: no run computes it
		}
		nStudy++
		got := ours(it.Run, it.Metric)
		printedRun := strings.Replace(it.Run, "study_", "printed_", 1)
		v := NotReproduced
		word := "**differs**"
		if printedOK(got, it.Value, it.Decimals) {
			v, word = Exact, "equal to the printed digits"
			nOK++
		} else {
			studyMiss = append(studyMiss, it.Measure)
		}
		add(false, eusilcsStudyTable, "Code "+it.Code+": "+it.Measure, v)
		p("| %s | %s | %s | %s | %s | %s |\n", it.Code, it.Measure, strconv.FormatFloat(it.Value, 'f', it.Decimals, 64),
			f(got), word, f(ours(printedRun, it.Metric)))
	}
	p("\n**%d of %d of the study's numbers equal ours to the printed digits.**", nOK, nStudy)
	if len(studyMiss) > 0 {
		p(" Not equal: %s (section 4 computes why for l-diversity).", strings.Join(studyMiss, "; "))
	}
	p("\n\n")
	// sdcMicro 5.8.1's l-diversity rule (equal keys, each missing sensitive value new), to tell
	// which of its l-diversity values that rule explains.
	d, err := datasets.Load("eusilcs")
	if err != nil {
		return vs, err
	}
	sdcRule := map[string][6]float64{}
	for keys, ks := range map[string][]string{"printed": {"db040", "pb220a", "hsize", "age"}, "study": {"pl030", "pb220a", "hsize", "age"}} {
		for _, sens := range []string{"netIncome", "rb090"} {
			l, err := LdivUnder(d, ks, sens, LdivRule{MissingSensDistinct: true})
			if err != nil {
				return vs, err
			}
			sdcRule[keys+":"+sens] = ldivSummary(l)
		}
	}

	// Section 2: sdcMicro 5.8.1.
	p("## 2. sdcMicro 5.8.1 beside ours (criterion: exact, 1e-9 relative)\n\n")
	p("sdcMicro's values come from `studies/perturbative/eusilcs.R` (the study's call, run with both key sets; stored\n")
	p("in eusilcs.reference.csv). They are not printed in the study, so these verdicts are reference checks.\n\n")
	p("| keys | measure | sdcMicro 5.8.1 | ours | verdict |\n|---|---|---|---|---|\n")
	nRef, nRefOK := 0, 0
	var refMiss, explained, sudaExplained []string
	sudaIgnore := map[string]float64{} // dis_suda_* with sdcMicro's rule for missing items
	for keys, ks := range map[string][]string{"printed": {"db040", "pb220a", "hsize", "age"}, "study": {"pl030", "pb220a", "hsize", "age"}} {
		for _, id := range []string{"dis_suda_mean", "dis_suda_max"} {
			m, err := metrics.Lookup(id)
			if err != nil {
				return vs, err
			}
			in := &metrics.Input{Orig: d, Masked: d, Opt: metrics.Options{Keys: ks, SUDAMissing: "ignore"}}
			sudaIgnore[keys+" "+id] = m.Eval(in).Value
		}
	}
	for _, r := range EusilcsRefs() {
		if strings.HasPrefix(r.Metric, "suda_contribution:") {
			continue
		}
		metric, sens, _ := strings.Cut(r.Metric, ":")
		if sens == "" {
			sens = "netIncome"
		}
		got := ours(eusilcsRun(r.Keys, sens), metric)
		nRef++
		v, word := NotReproduced, "**differs**"
		if exactOK(got, r.Value) {
			v, word = Exact, "exact"
			nRefOK++
		} else if k := slices.Index(ldivMetrics[:], metric); k >= 0 && exactOK(sdcRule[r.Keys+":"+sens][k], r.Value) {
			explained = append(explained, r.Keys+" "+r.Metric)
		} else if v, ok := sudaIgnore[r.Keys+" "+metric]; ok && math.Abs(v-r.Value) <= 1e-6*math.Abs(r.Value) {
			sudaExplained = append(sudaExplained, fmt.Sprintf("%s %s (%s with that rule)", r.Keys, r.Metric, f(v)))
		} else {
			refMiss = append(refMiss, r.Keys+" "+r.Metric)
		}
		keys := "db040 (printed)"
		if r.Keys == "study" {
			keys = "pl030 (study's numbers)"
		}
		add(true, eusilcsRefTable, keys+": "+r.Metric, v)
		p("| %s | %s | %s | %s | %s |\n", keys, r.Metric, f(r.Value), f(got), word)
	}
	p("\n**%d of %d exact.**", nRefOK, nRef)
	if len(explained) > 0 {
		p(" Explained differences (%d): %s — sdcMicro's value is the l-diversity of the same classes with every\n", len(explained), strings.Join(explained, "; "))
		p("missing sensitive value counted as a new value, recomputed here (section 4).")
	}
	if len(sudaExplained) > 0 {
		p(" Explained differences (%d): %s — both skip a missing key value as sdcMicro's Suda2 does (no set of\n", len(sudaExplained), strings.Join(sudaExplained, "; "))
		p("keys containing it is an MSU; sdcbench's default, `SUDAMissing = \"ignore\"`, metrics.md §4.6) and agree to 1e-6\n")
		p("relative. The rest is single precision: sdcMicro evaluates U/Dis − U in float with its own count U (records\n")
		p("alone in their hash bucket of src/Suda2.h), ours with the number of full-key sample uniques.")
	}
	if len(refMiss) > 0 {
		p(" Differences whose cause is not established (%d): %s.", len(refMiss), strings.Join(refMiss, "; "))
	}
	p("\n\n")

	// Section 3: which keys.
	if err := eusilcsKeysSection(p, ours); err != nil {
		return vs, err
	}
	// Section 4: l-diversity.
	if err := eusilcsLdivSection(p, ours); err != nil {
		return vs, err
	}
	p("## 5. Not compared here\n\n")
	p("The rest of the walkthrough perturbs the file once: PRAM of pl030 (pd 0.2, α 0.8: 3407 changes, 29.06%%), the four\n")
	p("addNoise methods with noise 160 (risk intervals, IL1 and eigenvalue differences), and the risk after them (global\n")
	p("2.64%%, hierarchical 5.13%%). Each is a single draw of R's generator; this experiment does not rerun them and\n")
	p("prints no verdict for them.\n\n")
	return vs, nil
}

// eusilcsKeysSection computes the evidence that the study's numbers come from the keys pl030,
// pb220a, hsize, age: the data equal the study's str() print, and the study's numbers match
// ours with pl030 and not with db040; the SUDA contributions it prints name pl030.
func eusilcsKeysSection(p func(string, ...any), ours func(run, metric string) float64) error {
	p("## 3. Cause of the different counts: the keys (computed)\n\n")
	d, err := datasets.Load("eusilcs")
	if err != nil {
		return err
	}
	first := map[string][]float64{
		"db030": {1, 1, 2, 3, 4, 4, 4, 5, 5, 5},
		"hsize": {2, 2, 1, 1, 3, 3, 3, 5, 5, 5},
		"age":   {72, 66, 56, 67, 70, 46, 37, 41, 35, 9},
	}
	same := d.N == 11725 && d.P == 18
	for c, want := range first {
		j := d.ColIndex(c)
		for i := 0; same && i < len(want); i++ {
			same = j >= 0 && d.At(i, j) == want[i]
		}
	}
	word := "equal"
	if !same {
		word = "**differ**"
	}
	p("- **Data.** The embedded file has %d rows and %d columns, and its first ten db030, hsize and age values are %s\n", d.N, d.P, word)
	p("  to the study's `str(eusilcS)` (Code 25: 11725 obs. of 18 variables). The file is simPop's `eusilcS`, the one the\n")
	p("  study names.\n")
	kc := eusilcsKeyCheck(ours)
	p("- **Keys.** Of the study's %d risk numbers (k-anonymity, risky records, global and hierarchical risk, DIS-SUDA\n", kc.n)
	p("  bins), ours with the printed keys db040, pb220a, hsize, age equal %d; with pl030 in place of db040 they equal %d.\n", kc.printedOK, kc.studyOK)
	p("  The study's own SUDA table (Code 29) lists the attribute contributions of the key variables it ran with:\n")
	p("  %s (pl030 printed as \"p1030\") — no db040. sdcMicro 5.8.1's contributions with these keys equal the\n", strings.Join(kc.names, ", "))
	p("  study's %d of %d to the 5 printed decimals.", kc.contribOK, kc.contrib)
	if kc.established() {
		p(" So the object the study measured had pl030 where its printed call has db040.\n")
	} else {
		p(" The keys do not explain the study's numbers.\n")
	}
	var naPl, naPb, naBoth, naInc int
	pl, pb, inc := d.ColIndex("pl030"), d.ColIndex("pb220a"), d.ColIndex("netIncome")
	for i := 0; i < d.N; i++ {
		a, b := math.IsNaN(d.At(i, pl)), math.IsNaN(d.At(i, pb))
		if a {
			naPl++
		}
		if b {
			naPb++
		}
		if a && b {
			naBoth++
			if math.IsNaN(d.At(i, inc)) {
				naInc++
			}
		}
	}
	p("- **sdcMicro version, key types, missing values.** sdcMicro 5.8.1 with the pl030 keys gives %d of the %d\n", kc.refOK, kc.n)
	p("  printed risk numbers (section 2 and eusilcs.reference.csv), so no version difference is needed for them.\n")
	p("  `freqCalc` turns every key into numbers (`as.numeric`) before counting, so a factor and an integer key give\n")
	p("  the same classes. pl030 is missing for %d records, pb220a for %d, both for %d (of which %d also miss\n", naPl, naPb, naBoth, naInc)
	p("  netIncome); sdcMicro and sdcbench both let a missing key match any value (metrics.md §4.1).\n\n")
	p("To check with R and sdcMicro 5.8.1: `Rscript studies/perturbative/eusilcs.R` prints both key sets (e.g.\n")
	p("`printed,kanon_viol_2,1254` and `study,kanon_viol_2,939`).\n\n")
	return nil
}

// eusilcsKeys is the computed evidence on the key set of the study's numbers.
type eusilcsKeys struct {
	n, printedOK, studyOK, refOK int // risk numbers; equal to ours with the printed / pl030 keys; to sdcMicro's (pl030)
	contrib, contribOK           int // SUDA contributions printed; equal to sdcMicro's with the pl030 keys
	names                        []string
}

// established reports whether every risk number and contribution matches with pl030 and none of
// the risk numbers with the printed keys.
func (k eusilcsKeys) established() bool {
	return k.n > 0 && k.studyOK == k.n && k.refOK == k.n && k.printedOK == 0 && k.contribOK == k.contrib && k.contrib > 0
}

func eusilcsKeyCheck(ours func(run, metric string) float64) eusilcsKeys {
	var k eusilcsKeys
	for _, it := range EusilcsItems() {
		if v, ok := strings.CutPrefix(it.Metric, "suda_contribution:"); ok {
			k.contrib++
			k.names = append(k.names, v)
			if printedOK(eusilcsRef("study", it.Metric), it.Value, it.Decimals) {
				k.contribOK++
			}
			continue
		}
		if strings.HasPrefix(it.Metric, "ldiv_") {
			continue
		}
		k.n++
		if printedOK(ours(it.Run, it.Metric), it.Value, it.Decimals) {
			k.studyOK++
		}
		if printedOK(ours(strings.Replace(it.Run, "study_", "printed_", 1), it.Metric), it.Value, it.Decimals) {
			k.printedOK++
		}
		ref := eusilcsRef("study", it.Metric)
		if strings.HasSuffix(it.Metric, "_pct") && strings.HasPrefix(it.Metric, "kanon_viol_") {
			ref = 100 * eusilcsRef("study", strings.TrimSuffix(it.Metric, "_pct")) / 11725
		}
		if printedOK(ref, it.Value, it.Decimals) {
			k.refOK++
		}
	}
	return k
}

// LdivRule is a class rule for distinct l-diversity when values are missing.
type LdivRule struct {
	// MissingKeyAlone puts each record with a missing key in a class of its own (sdcMicro
	// before its 5.8.2 rewrite: its C++ compared keys with ==, and NA never equals NA).
	MissingKeyAlone bool
	// MissingSensDistinct counts every missing sensitive value as a new value (sdcMicro 5.8.1's
	// archive: its category lookup compares values with ==).
	MissingSensDistinct bool
}

// LdivUnder returns l_j for every record of d under the rule: the number of distinct values of
// sens among the records whose keys equal record j's (a missing key equal to a missing key,
// unless MissingKeyAlone).
func LdivUnder(d *datasets.Dataset, keys []string, sens string, rule LdivRule) ([]float64, error) {
	cols := make([]int, len(keys))
	for i, k := range keys {
		if cols[i] = d.ColIndex(k); cols[i] < 0 {
			return nil, fmt.Errorf("perturbative: no column %q", k)
		}
	}
	sc := d.ColIndex(sens)
	if sc < 0 {
		return nil, fmt.Errorf("perturbative: no column %q", sens)
	}
	type class struct {
		vals map[float64]bool
		nan  int
	}
	classes := map[string]*class{}
	keyOf := make([]string, d.N)
	for i := 0; i < d.N; i++ {
		var sb strings.Builder
		alone := false
		for _, j := range cols {
			v := d.At(i, j)
			if math.IsNaN(v) {
				alone = alone || rule.MissingKeyAlone
				sb.WriteString("NA|")
				continue
			}
			sb.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + "|")
		}
		k := sb.String()
		if alone {
			k = "alone" + strconv.Itoa(i)
		}
		keyOf[i] = k
		c := classes[k]
		if c == nil {
			c = &class{vals: map[float64]bool{}}
			classes[k] = c
		}
		if v := d.At(i, sc); math.IsNaN(v) {
			c.nan++
		} else {
			c.vals[v] = true
		}
	}
	l := make([]float64, d.N)
	for i, k := range keyOf {
		c := classes[k]
		n := len(c.vals)
		switch {
		case c.nan > 0 && rule.MissingSensDistinct:
			n += c.nan
		case c.nan > 0:
			n++
		}
		l[i] = float64(n)
	}
	return l, nil
}

// ldivSummary returns R's summary(): min, 1st quartile, median, mean, 3rd quartile, max.
func ldivSummary(l []float64) [6]float64 {
	s := slices.Clone(l)
	slices.Sort(s)
	var sum float64
	for _, v := range s {
		sum += v
	}
	return [6]float64{s[0], metrics.Quantile7(s, 0.25), metrics.Quantile7(s, 0.5), sum / float64(len(s)),
		metrics.Quantile7(s, 0.75), s[len(s)-1]}
}

var ldivMetrics = [6]string{"ldiv_distinct_min", "ldiv_distinct_median_q1", "ldiv_distinct_median",
	"ldiv_distinct_mean", "ldiv_distinct_median_q3", "ldiv_distinct_max"}

// eusilcsLdivSection recomputes distinct l-diversity of eusilcs under three class rules and
// compares each with the study's summaries and sdcMicro 5.8.1's.
func eusilcsLdivSection(p func(string, ...any), ours func(run, metric string) float64) error {
	p("## 4. Cause of the l-diversity differences: missing values (computed)\n\n")
	d, err := datasets.Load("eusilcs")
	if err != nil {
		return err
	}
	keys := []string{"pl030", "pb220a", "hsize", "age"}
	var matchStudy, matchRef [3]bool
	rules := []struct {
		name string
		rule LdivRule
	}{
		{"sdcbench: records with equal keys (missing equals missing), missing values one value", LdivRule{}},
		{"each record with a missing key alone (sdcMicro before its 5.8.2 rewrite)", LdivRule{MissingKeyAlone: true}},
		{"equal keys, every missing sensitive value a new value (sdcMicro 5.8.1 archive)", LdivRule{MissingSensDistinct: true}},
	}
	p("Distinct l-diversity of netIncome and rb090 with the keys pl030, pb220a, hsize, age, recomputed here from the\n")
	p("embedded file under three rules for records with missing values (the children have pl030, pb220a and\n")
	p("netIncome missing; section 3). Summaries as R's `summary()`: min / 1st quartile / median / mean / 3rd quartile / max.\n\n")
	p("| rule | netIncome | rb090 | equals the study's (12 values, printed digits) | equals sdcMicro 5.8.1's (12 values) |\n|---|---|---|---|---|\n")
	fmtS := func(s [6]float64) string {
		out := make([]string, 6)
		for i, v := range s {
			out[i] = strconv.FormatFloat(v, 'g', 6, 64)
		}
		return strings.Join(out, " / ")
	}
	for ri, r := range rules {
		var cells [2]string
		studyEq, refEq := 0, 0
		for si, sens := range []string{"netIncome", "rb090"} {
			l, err := LdivUnder(d, keys, sens, r.rule)
			if err != nil {
				return err
			}
			s := ldivSummary(l)
			cells[si] = fmtS(s)
			for k, m := range ldivMetrics {
				for _, it := range EusilcsItems() {
					if it.Run == eusilcsRun("study", sens) && it.Metric == m && printedOK(s[k], it.Value, it.Decimals) {
						studyEq++
					}
				}
				if exactOK(s[k], eusilcsRef("study", m+":"+sens)) {
					refEq++
				}
				if ri == 0 && !exactOK(s[k], ours(eusilcsRun("study", sens), m)) {
					return fmt.Errorf("perturbative: %s of %s recomputed %v, runs.csv %v", m, sens, s[k], ours(eusilcsRun("study", sens), m))
				}
			}
		}
		p("| %s | %s | %s | %d of 12 | %d of 12 |\n", r.name, cells[0], cells[1], studyEq, refEq)
		matchStudy[ri], matchRef[ri] = studyEq == 12, refEq == 12
	}
	p("\nThe first rule is ours (it equals runs.csv; metrics.md §4.5).")
	if matchStudy[1] && !matchStudy[0] {
		p(" The study's summaries are those of the second rule and of no other:\n")
		p("sdcMicro's C++ l-diversity grouped consecutive sorted records whose keys compared equal with `==`, and a missing\n")
		p("value (NaN) never equals another, so every child was a class of one (rb090 l-diversity 1 where a class of\n")
		p("children holds both sexes). `SDCMICRO_SRC=<sdcMicro 5.8.1 source> Rscript studies/perturbative/eusilcs.R`\n")
		p("compiles sdcMicro's own measure_risk_cpp with that comparison restored (one line) and prints the study's summaries.")
	} else {
		p(" No rule other than ours gives all of the study's summaries; their cause is not established here.")
	}
	if matchRef[2] {
		p("\nsdcMicro 5.8.1's summaries are those of the third rule: the archive groups missing keys together (the rewrite\n")
		p("its NEWS lists under 5.8.2) but still counts each missing netIncome as a new value.")
	}
	p("\n\n")
	return nil
}
