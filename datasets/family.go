package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"sync"
)

// Generated dataset families for scaling studies (docs/scaling.md): a name such as
// normal_d10_n1000000 is a dataset of n records and d columns drawn on first use from a fixed
// stream, so any size can appear in a spec without shipping a file. Values are drawn record by
// record and, within a record, column by column, from rand.New(rand.NewPCG(seed, family)),
// where family is the family's number below and Load uses seed 1. math/rand/v2 does not
// promise identical normal variates across Go releases; the draw order is the contract.

// Family describes a generated dataset family.
type Family struct {
	Prefix      string // name is <Prefix>_d<d>_n<n>
	Description string
	num         uint64
	gen         func(r *rand.Rand, d int, row, cent []float64)
	centres     int // cluster centres drawn before the records (clustered)
}

// Families lists the generated families.
var Families = []Family{
	{Prefix: "normal", num: 1, Description: "i.i.d. N(0,1) columns",
		gen: func(r *rand.Rand, _ int, row, _ []float64) {
			for j := range row {
				row[j] = r.NormFloat64()
			}
		}},
	{Prefix: "clustered", num: 2, centres: 10,
		Description: "10 spherical N(c, 1) clusters; centres U(−10, 10)^d drawn first, then per record its cluster (IntN(10)) and d normals",
		gen: func(r *rand.Rand, d int, row, cent []float64) {
			c := r.IntN(len(cent) / d)
			for j := range row {
				row[j] = cent[c*d+j] + r.NormFloat64()
			}
		}},
	{Prefix: "lognormal", num: 3, Description: "i.i.d. exp(N(0,1)) columns (skewed, like amounts)",
		gen: func(r *rand.Rand, _ int, row, _ []float64) {
			for j := range row {
				row[j] = math.Exp(r.NormFloat64())
			}
		}},
	{Prefix: "grid", num: 4, Description: "i.i.d. integers 0..9 (many exact distance ties)",
		gen: func(r *rand.Rand, _ int, row, _ []float64) {
			for j := range row {
				row[j] = float64(r.IntN(10))
			}
		}},
}

var familyName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-z]+)_d([0-9]+)_n([0-9]+)$`) })

// maxFamilyCells bounds n·d of a generated dataset (1 GB of float64).
const maxFamilyCells = 1 << 27

// ParseFamily returns the family, n and d of a generated dataset name, or ok = false.
func ParseFamily(name string) (f Family, n, d int, ok bool) {
	m := familyName().FindStringSubmatch(name)
	if m == nil {
		return Family{}, 0, 0, false
	}
	for _, fam := range Families {
		if fam.Prefix == m[1] {
			d, err1 := strconv.Atoi(m[2])
			n, err2 := strconv.Atoi(m[3])
			if err1 != nil || err2 != nil {
				return Family{}, 0, 0, false
			}
			return fam, n, d, true
		}
	}
	return Family{}, 0, 0, false
}

// Generate draws the n×d dataset of family f from rand.NewPCG(seed, f's number).
func (f Family) Generate(n, d int, seed uint64) (*Dataset, error) {
	if n < 1 || d < 1 || n*d > maxFamilyCells {
		return nil, fmt.Errorf("datasets: %s_d%d_n%d: need n ≥ 1, d ≥ 1 and n·d ≤ %d", f.Prefix, d, n, maxFamilyCells)
	}
	r := rand.New(rand.NewPCG(seed, f.num))
	cent := make([]float64, f.centres*d)
	for i := range cent {
		cent[i] = -10 + 20*r.Float64()
	}
	data := make([]float64, n*d)
	for i := 0; i < n; i++ {
		f.gen(r, d, data[i*d:(i+1)*d], cent)
	}
	names := make([]string, d)
	for j := range names {
		names[j] = "x" + strconv.Itoa(j+1)
	}
	return New(fmt.Sprintf("%s_d%d_n%d", f.Prefix, d, n), names, n, d, data), nil
}

// familyCache holds the generated datasets loaded so far, like the registry's entries.
var familyCache sync.Map // name → *entry

// loadFamily returns the entry of a generated dataset name, or nil if name is not one.
func loadFamily(name string) *entry {
	f, n, d, ok := ParseFamily(name)
	if !ok {
		return nil
	}
	e, _ := familyCache.LoadOrStore(name, &entry{
		info: Info{Name: name, Source: "generated", Description: fmt.Sprintf("%s, %d×%d", f.Description, n, d)},
		gen:  func(seed uint64) (*Dataset, error) { return f.Generate(n, d, seed) },
	})
	return e.(*entry)
}
