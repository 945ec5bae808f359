package resultsdir

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestOneWriterOfReport: no package names REPORT.md but this one, and resultsdir.WriteReport
// is called by two packages only — the analysis (its report) and the runner's package (the
// summary of a folder that gets no analysis) — so REPORT.md is written once per run, merge or
// analysis, never written by one step and overwritten by the next.
func TestOneWriterOfReport(t *testing.T) {
	root := filepath.Join("..", "..")
	callers := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "results" || d.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		if f.Name.Name == "resultsdir" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil && s == ReportFile {
					t.Errorf("%s: names %s itself; write it with resultsdir.WriteReport", fset.Position(n.Pos()), ReportFile)
				}
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && id.Name == "resultsdir" && n.Sel.Name == "WriteReport" {
					callers[f.Name.Name] = true
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for p := range callers {
		got = append(got, p)
	}
	slices.Sort(got)
	if want := []string{"analysis", "experiments"}; !slices.Equal(got, want) {
		t.Errorf("packages calling resultsdir.WriteReport: %v, want %v", got, want)
	}
}
