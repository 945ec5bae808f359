// Package layering holds a test that keeps the protection methods and the measures apart:
// no package under methods/ depends on one under metrics/, or the other way round, so that
// shared numerics live in packages both import (internal/keyfreq, internal/binomial, …).
package layering

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// exempt lists the import edges (importer → imported) still allowed while they are being
// removed.
//
// TODO(issue 31): metrics/rmdrisk.go calls microagg.FastMCD; remove this exemption once FastMCD
// has moved to its robust-estimation package.
var exempt = map[[2]string]bool{
	{"metrics", "methods/microagg"}: true,
}

type pkg struct {
	ImportPath string
	Imports    []string
}

// graph returns the imports of every package of the module among the module's packages,
// keyed by import path relative to the module (e.g. "methods/dp").
func graph(t *testing.T) map[string][]string {
	t.Helper()
	root := filepath.Join("..", "..")
	out, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		t.Skipf("go list -m: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = root
	js, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list -json ./...: %v\n%s", err, ee.Stderr)
		}
		t.Skipf("go list: %v", err)
	}
	g := map[string][]string{}
	dec := json.NewDecoder(strings.NewReader(string(js)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decoding go list output: %v", err)
		}
		rel, ok := strings.CutPrefix(p.ImportPath, mod+"/")
		if !ok {
			continue
		}
		g[rel] = nil
		for _, imp := range p.Imports {
			if r, ok := strings.CutPrefix(imp, mod+"/"); ok {
				g[rel] = append(g[rel], r)
			}
		}
	}
	if len(g) == 0 {
		t.Fatal("go list found no package of the module")
	}
	return g
}

// under reports whether package path p is tree or below it.
func under(p, tree string) bool { return p == tree || strings.HasPrefix(p, tree+"/") }

// TestMethodsAndMetricsApart fails if a package under one of methods/ and metrics/ depends,
// directly or through other packages, on a package under the other.
func TestMethodsAndMetricsApart(t *testing.T) {
	g := graph(t)
	for _, pair := range [][2]string{{"methods", "metrics"}, {"metrics", "methods"}} {
		from, to := pair[0], pair[1]
		for start := range g {
			if !under(start, from) {
				continue
			}
			// breadth-first search keeping the path, skipping the exempt edges
			prev := map[string]string{start: ""}
			queue := []string{start}
			for len(queue) > 0 {
				p := queue[0]
				queue = queue[1:]
				if under(p, to) {
					path := []string{p}
					for q := prev[p]; q != ""; q = prev[q] {
						path = append([]string{q}, path...)
					}
					t.Errorf("%s depends on %s: %s", start, p, strings.Join(path, " → "))
					break
				}
				for _, q := range g[p] {
					if _, seen := prev[q]; seen || exempt[[2]string{p, q}] {
						continue
					}
					prev[q] = p
					queue = append(queue, q)
				}
			}
		}
	}
}
