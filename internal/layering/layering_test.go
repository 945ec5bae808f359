// Package layering holds the tests of the import picture of docs/architecture.md: no package
// imports one of a higher layer (cmd → studies → experiments → methods, metrics → datasets →
// internal), and no package under methods/ depends on one under metrics/ or the other way
// round, so that shared numerics live in packages both import (internal/keyfreq, …).
package layering

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

type pkg struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// modGraph is the module's import graph among its own packages, keyed by import path relative
// to the module (e.g. "methods/dp"): imports of the packages, and the extra imports of their
// tests.
type modGraph struct {
	imports, tests map[string][]string
}

// graph returns the imports of every package of the module among the module's packages.
func graph(t *testing.T) modGraph {
	t.Helper()
	root := filepath.Join("..", "..")
	out, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		t.Skipf("go list -m: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	touchSources(t, root)
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
	g := modGraph{imports: map[string][]string{}, tests: map[string][]string{}}
	rel := func(imps []string) []string {
		var out []string
		for _, imp := range imps {
			if r, ok := strings.CutPrefix(imp, mod+"/"); ok {
				out = append(out, r)
			}
		}
		return out
	}
	dec := json.NewDecoder(strings.NewReader(string(js)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decoding go list output: %v", err)
		}
		name, ok := strings.CutPrefix(p.ImportPath, mod+"/")
		if !ok {
			continue
		}
		g.imports[name] = rel(p.Imports)
		g.tests[name] = rel(append(p.TestImports, p.XTestImports...))
	}
	if len(g.imports) == 0 {
		t.Fatal("go list found no package of the module")
	}
	return g
}

// under reports whether package path p is tree or below it.
func under(p, tree string) bool { return p == tree || strings.HasPrefix(p, tree+"/") }

// TestMethodsAndMetricsApart fails if a package under one of methods/ and metrics/ depends,
// directly or through other packages, on a package under the other.
func TestMethodsAndMetricsApart(t *testing.T) {
	g := graph(t).imports
	for _, pair := range [][2]string{{"methods", "metrics"}, {"metrics", "methods"}} {
		from, to := pair[0], pair[1]
		for start := range g {
			if !under(start, from) {
				continue
			}
			// breadth-first search keeping the path
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
					if _, seen := prev[q]; seen {
						continue
					}
					prev[q] = p
					queue = append(queue, q)
				}
			}
		}
	}
}

// layer is the rank of a package in the import picture of docs/architecture.md: a package may
// import packages of its own layer or below, never above.
//
//	cmd, bench → studies → experiments → methods, metrics → diag, datasets → internal
func layer(p string) (int, bool) {
	for _, l := range []struct {
		tree string
		rank int
	}{
		{"internal", 0},
		{"datasets", 1},
		{"diag", 1},
		{"methods", 2},
		{"metrics", 2},
		{"experiments", 3},
		{"studies", 4},
		{"bench", 5},
		{"cmd", 5},
	} {
		if under(p, l.tree) {
			return l.rank, true
		}
	}
	return 0, false
}

// TestNoImportUpward fails if a package imports one of a higher layer (layer), or if a
// package of the module belongs to no layer, so that a new top-level folder is placed in the
// picture on purpose.
func TestNoImportUpward(t *testing.T) {
	g := graph(t).imports
	for p, imps := range g {
		rp, ok := layer(p)
		if !ok {
			t.Errorf("package %s is in no layer of docs/architecture.md; add it to layer()", p)
			continue
		}
		for _, q := range imps {
			if rq, ok := layer(q); ok && rq > rp {
				t.Errorf("%s (layer %d) imports %s (layer %d): an arrow back up", p, rp, q, rq)
			}
		}
	}
}

// touchSources stats every Go file under root, so that go test's cache, which knows the files
// a test opens or stats but not what `go list` reads, reruns the test when one changes.
func touchSources(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "results" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHarnessImportsNoStudy fails if a package under experiments/ or its tests depends,
// directly or through other packages, on anything under studies/: the harness reads the
// bundled specs through an fs.FS, and the CLI links the studies in.
func TestHarnessImportsNoStudy(t *testing.T) {
	g := graph(t)
	seen := map[string]bool{}
	var queue []string
	for p := range g.imports {
		if under(p, "experiments") {
			queue = append(queue, p)
			queue = append(queue, g.tests[p]...)
		}
	}
	if len(queue) == 0 {
		t.Fatal("no package under experiments/")
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		if under(p, "studies") {
			t.Errorf("the harness (experiments/ and its tests) depends on %s", p)
		}
		queue = append(queue, g.imports[p]...)
	}
}
