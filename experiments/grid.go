package experiments

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sdcbench/sdcbench/methods"
)

// Run is one cell of the grid: a method with one parameter set on one dataset, one replicate.
type Run struct {
	ID        string // 16 hex digits, a stable hash of (dataset, method, parameters, replicate)
	Index     int    // position in grid order
	Dataset   string
	Method    string
	Params    methods.Params
	Replicate int    // 1-based
	Seed      uint64 // derived from the master seed and ID only
	// Sel holds the column-selection options of the run's [[methods]] entry (strata,
	// columns, keep) as runs.csv cells by option name; nil when the entry sets none.
	Sel map[string]string

	method methods.Method
	prep   string // key of the run's resolved selection in Spec.prepared
}

// key is the canonical text hashed into the run ID. The selection options enter it only when
// the entry sets some, so the runs of entries without them keep their IDs.
func (r *Run) key() string {
	return "dataset=" + r.Dataset + ";method=" + r.Method + ";params=" + paramKey(r.Params) +
		selKey(r.Sel) + ";replicate=" + strconv.Itoa(r.Replicate)
}

// RunID returns the ID of (dataset, method, resolved parameters, replicate): the first 8
// bytes of the SHA-256 of their canonical text, in hex.
func RunID(dataset, method string, p methods.Params, replicate int) string {
	return runID(Run{Dataset: dataset, Method: method, Params: p, Replicate: replicate})
}

// runID returns the ID of r (RunID, with r's selection options).
func runID(r Run) string {
	sum := sha256.Sum256([]byte(r.key()))
	return hex.EncodeToString(sum[:8])
}

// RunSeed derives a run's seed from the master seed and the run ID only.
func RunSeed(master uint64, id string) uint64 {
	sum := sha256.Sum256([]byte("sdcbench-seed/" + strconv.FormatUint(master, 10) + "/" + id))
	return binary.LittleEndian.Uint64(sum[:8])
}

// Expand lists every run of the spec in grid order: datasets in spec order, then methods in
// spec order, parameter sets in grid order, replicates 1..R. The list is computed once, by
// Parse; each call returns a new copy of it.
func (s *Spec) Expand() []Run { return slices.Clone(s.runs) }

// NumRuns returns the number of runs of the grid, len(Expand()).
func (s *Spec) NumRuns() int { return len(s.runs) }

// expand computes the list Expand returns, and for each run the index of its [[methods]] entry.
func (s *Spec) expand() ([]Run, []int) {
	var runs []Run
	var entry []int
	sets := make([][]methods.Params, len(s.Methods))
	for i := range s.Methods {
		sets[i], _ = s.Methods[i].paramSets(s.methods[i].Info()) // validated by Parse
	}
	for _, ds := range s.labels {
		for i, ms := range s.Methods {
			if !contains(s.methodDatasets(i), ds) {
				continue
			}
			reps := s.Replicates
			if ms.Replicates > 0 {
				reps = ms.Replicates
			}
			cells := ms.selCells()
			prep := ""
			if i < len(s.prepKeys) {
				prep = s.prepKeys[i][ds]
			}
			for _, p := range sets[i] {
				for rep := 1; rep <= reps; rep++ {
					r := Run{Index: len(runs), Dataset: ds, Method: ms.Name, Params: p, Replicate: rep,
						Sel: cells, method: s.methods[i], prep: prep}
					r.ID = runID(r)
					r.Seed = RunSeed(uint64(s.Seed), r.ID)
					runs = append(runs, r)
					entry = append(entry, i)
				}
			}
		}
	}
	return runs, entry
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Shard is the part i of n (1 ≤ i ≤ n) of a grid; the zero value is the whole grid.
type Shard struct{ I, N int }

// ParseShard parses "i/n".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("experiments: --shard must be i/n with 1 ≤ i ≤ n (got %q)", s)
	}
	return Shard{i, n}, nil
}

// Contains reports whether the run with the given ID belongs to the shard: the ID, read as a
// number, modulo n equals i−1.
func (sh Shard) Contains(id string) bool {
	if sh.N <= 1 {
		return true
	}
	v, _ := strconv.ParseUint(id, 16, 64)
	return int(v%uint64(sh.N)) == sh.I-1
}

func (sh Shard) String() string {
	if sh.N <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", sh.I, sh.N)
}
