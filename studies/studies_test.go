package studies

import (
	"io/fs"
	"slices"
	"testing"
	"testing/fstest"
)

func TestFor(t *testing.T) {
	st, ok := For("fake-one")
	if !ok || st.Name != "fake" || st.Cite("fake-one") != fakeCitation {
		t.Errorf("For(fake-one) = %+v, %v", st, ok)
	}
	for _, e := range []string{"fake-two", "fake", "README", "../fake-one", ""} {
		if st, ok := For(e); ok {
			t.Errorf("For(%q) = study %s, want none", e, st.Name)
		}
	}
	if got := st.Experiments(); !slices.Equal(got, []string{"fake-one"}) {
		t.Errorf("Experiments() = %v", got)
	}
	p := Study{Citation: "whole", Parts: map[string]string{"a": "part a"}}
	if p.Cite("a") != "part a" || p.Cite("b") != "whole" {
		t.Errorf("Cite: %q, %q", p.Cite("a"), p.Cite("b"))
	}
}

func TestRegisterRefusesAClaimedExperiment(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a second study owning fake-one registered")
		}
	}()
	Register(Study{Name: "fake2", Files: fstest.MapFS{"fake-one.toml": {}}})
}

// TestRegisterRefusesAClaimedFolder checks the same for a script-written folder named like a
// registered study's experiment, and that a refused study is not registered.
func TestRegisterRefusesAClaimedFolder(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a study with a folder named like fake-one registered")
		}
		if _, ok := Get("fake3"); ok {
			t.Error("the refused study fake3 is registered")
		}
	}()
	Register(Study{Name: "fake3", Files: fstest.MapFS{}, Folders: []string{"fake-one"}})
}

func TestBundled(t *testing.T) {
	b := Bundled()
	if err := fstest.TestFS(b, "fake-one.toml"); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadFile(b, "README.md"); err == nil {
		t.Error("Bundled serves a study's README.md")
	}
}

func TestReadCSV(t *testing.T) {
	fsys := fstest.MapFS{
		"t.expected.csv":   {Data: []byte("# a comment\na,b\n1,2.5\n3,4\n")},
		"bad.expected.csv": {Data: []byte("a,b\n1\n")},
		"none.csv":         {Data: []byte("# only a comment\na,b\n")},
	}
	h, rows, err := ReadCSV(fsys, "t.expected.csv")
	if err != nil || !slices.Equal(h, []string{"a", "b"}) || len(rows) != 2 {
		t.Fatalf("ReadCSV = %v, %v, %v", h, rows, err)
	}
	if v, err := ParseFloats(rows[0]); err != nil || v[1] != 2.5 {
		t.Errorf("ParseFloats = %v, %v", v, err)
	}
	if _, err := ParseFloats([]string{"1", "x"}); err == nil {
		t.Error("ParseFloats(x): no error")
	}
	for _, name := range []string{"bad.expected.csv", "none.csv", "missing.csv"} {
		if _, _, err := ReadCSV(fsys, name); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
