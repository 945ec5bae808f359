package datasets

import (
	"bytes"
	"embed"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"sync"

	suggest "github.com/sdcbench/sdcbench/internal/registry"
)

//go:embed data/*.csv
var files embed.FS

// Info describes a registered dataset.
type Info struct {
	Name        string
	File        string   // embedded file under data/
	Columns     []string // selected columns; nil means all
	Description string
	Source      string // "original" for shipped data, "substitute" for generated stand-ins
	// Mixed reads the file as a mixed-type table (ReadOptions.Mixed): text columns become
	// categorical and NA cells missing.
	Mixed bool
}

var eiaRevenueSales = []string{"RESREVENUE", "RESSALES", "COMREVENUE", "COMSALES", "INDREVENUE",
	"INDSALES", "OTHREVENUE", "OTHRSALES", "TOTREVENUE", "TOTSALES"}

// builtin lists the embedded benchmark sets (docs/datasets.md).
var builtin = []Info{
	{Name: "census", File: "CASCrefmicrodata.csv", Source: "original",
		Description: "CASC Census reference file, 1080×13 income and tax amounts"},
	{Name: "tarragona", File: "Tarragona.csv", Source: "original",
		Description: "CASC Tarragona firms, 834×13 balance-sheet figures"},
	{Name: "eia", File: "EIA.csv", Source: "original",
		Columns:     append([]string{"UTILITYID"}, eiaRevenueSales...),
		Description: "CASC EIA utilities, 4092×11 (UTILITYID + 10 REVENUE/SALES; the literature's EIA)"},
	{Name: "eia10", File: "EIA.csv", Source: "original", Columns: eiaRevenueSales,
		Description: "CASC EIA utilities, 4092×10 REVENUE/SALES columns (MAGGA study's EIA)"},
	{Name: "testdata", File: "testdata.csv", Source: "original",
		Description: "IHSN household survey (sdcMicro testdata), 4580×15 numeric columns"},
	{Name: "francdat", File: "francdat.csv", Source: "original",
		Description: "sdcMicro's francdat, 8×8: keys Key1-Key4, numeric Num1-Num3, weight w (categorical risk tests)"},
	{Name: "eusilcs", File: "eusilcS.csv", Source: "original", Mixed: true,
		Description: "simPop's eusilcS, 11725×18: synthetic Austrian EU-SILC persons in 4641 households (text labels, missing values for children)"},
	{Name: "ruspini", File: "ruspini.csv", Source: "original",
		Description: "Ruspini's clustering example, 75×2"},
	{Name: "iris", File: "iris.csv", Source: "original",
		Description: "Fisher's iris measurements, 150×4 (Species dropped)"},
	{Name: "wine", File: "wine.csv", Source: "original",
		Description: "UCI wine recognition data, 178×13 (Class dropped)"},
}

// Generator builds a dataset from a seed; used for documented synthetic substitutes.
type Generator func(seed uint64) (*Dataset, error)

type entry struct {
	info Info
	gen  Generator
	once sync.Once
	d    *Dataset
	err  error
}

var registry = func() map[string]*entry {
	m := map[string]*entry{}
	for _, in := range builtin {
		m[in.Name] = &entry{info: in}
	}
	return m
}()

// RegisterGenerator adds a synthetic dataset under info.Name, built by gen with seed 1 on
// first use. It panics on a duplicate name; call it from an init function.
func RegisterGenerator(info Info, gen Generator) {
	if _, dup := registry[info.Name]; dup {
		panic("datasets: duplicate dataset " + info.Name)
	}
	registry[info.Name] = &entry{info: info, gen: gen}
}

// A GeneratorSet is a family of synthetic datasets registered at once (RegisterGenerators):
// Names lists its members, and Get returns the Info and Generator of a member, ok false for
// any other name. Both must agree, and be safe to call concurrently.
type GeneratorSet struct {
	Names func() []string
	Get   func(name string) (info Info, gen Generator, ok bool)
}

// generatorSets are the sets registered by RegisterGenerators; their members' entries are
// made on first use (setEntries), like those of the generated families.
var (
	generatorSets []GeneratorSet
	setEntries    sync.Map // name → *entry
)

// RegisterGenerators adds every member of set as if by RegisterGenerator, but builds a
// member's Info and Generator only when the member is listed or loaded: registering hundreds
// of names one by one is work, allocations and page faults at the start of every process
// (docs/datapath.md "Start-up"). Call it from an init function. A member that is also
// registered by name, or by another set, is found under the first registration (the tests
// of the registering package should check that there is none).
func RegisterGenerators(set GeneratorSet) {
	generatorSets = append(generatorSets, set)
}

// lookup returns the entry of a registered dataset name, or nil.
func lookup(name string) *entry {
	if e, ok := registry[name]; ok {
		return e
	}
	if e, ok := setEntries.Load(name); ok {
		return e.(*entry)
	}
	for _, set := range generatorSets {
		if info, gen, ok := set.Get(name); ok {
			e, _ := setEntries.LoadOrStore(name, &entry{info: info, gen: gen})
			return e.(*entry)
		}
	}
	return nil
}

// registeredNames returns the names of every registered dataset, sorted (the generated
// families excluded).
func registeredNames() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	for _, set := range generatorSets {
		names = append(names, set.Names()...)
	}
	slices.Sort(names)
	return names
}

// List returns the registered datasets sorted by name.
func List() []Info {
	out := make([]Info, 0, len(registry))
	for _, e := range registry {
		out = append(out, e.info)
	}
	for _, set := range generatorSets {
		for _, n := range set.Names() {
			if _, dup := registry[n]; dup {
				continue
			}
			if info, _, ok := set.Get(n); ok {
				out = append(out, info)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Load returns the registered dataset name. The table is parsed once and shared: callers
// must not modify it (Clone it first).
func Load(name string) (*Dataset, error) {
	e := lookup(name)
	ok := e != nil
	if !ok {
		e = loadFamily(name) // normal_d10_n1000000 etc. (family.go)
		ok = e != nil
	}
	if !ok {
		names := registeredNames()
		return nil, fmt.Errorf("datasets: unknown dataset %q%s (have %v, or a generated <family>_d<d>_n<n>: normal, clustered, lognormal, grid)", name, suggest.DidYouMean(name, names), names)
	}
	e.once.Do(func() {
		if e.gen != nil {
			e.d, e.err = e.gen(1)
		} else {
			var b []byte
			b, e.err = files.ReadFile("data/" + e.info.File)
			if e.err == nil {
				e.d, e.err = ReadCSV(bytes.NewReader(b), e.info.File, ReadOptions{Columns: e.info.Columns, Mixed: e.info.Mixed})
			}
		}
		if e.d != nil {
			e.d.Name = name
		}
	})
	return e.d, e.err
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
