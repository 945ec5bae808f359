package main

import (
	"bufio"
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A mention is one place where a document names an sdcbench command: `sdcbench CMD ...` as
// inline code, or bin/sdcbench CMD anywhere (prose, inline code, fenced code blocks).
type mention struct {
	line  int
	cmd   string
	flags []string // the --flags that follow cmd in a code span or code line (checked when known)
	text  string   // the snippet, for the error message
}

var (
	// codeSpan is a single-backtick inline code span.
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	// binCmd is bin/sdcbench followed by the word in the command's place.
	binCmd = regexp.MustCompile(`bin/sdcbench[ \t]+(\S+)`)
	// cmdName is what a command word looks like; anything else in that place (<command>,
	// COMMAND, ./cmd/sdcbench, -h) is a placeholder, a path or a flag and is not checked.
	cmdName = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)
	// flagTok is a flag token: -name, --name or --name=value.
	flagTok = regexp.MustCompile(`^--?([A-Za-z][A-Za-z0-9_-]*)(=.*)?$`)
	// helpFlag is a flag line of a FlagSet's PrintDefaults; usageFlag a --flag in a usage line.
	helpFlag  = regexp.MustCompile(`(?m)^\s+-([A-Za-z][A-Za-z0-9_-]*)`)
	usageFlag = regexp.MustCompile(`--([A-Za-z][A-Za-z0-9_-]*)`)
)

// extractMentions returns the commands that text (a Markdown page or a TOML spec, whose
// comments are read as prose) names.
func extractMentions(text string) []mention {
	var out []mention
	fenced := false
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line, n := lines[i], i+1
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced {
			// a shell line continued with a backslash is one command
			for strings.HasSuffix(strings.TrimSpace(line), `\`) && i+1 < len(lines) {
				line = strings.TrimSuffix(strings.TrimSpace(line), `\`) + " " + lines[i+1]
				i++
			}
			fields := strings.Fields(line)
			for j, f := range fields {
				if f == "sdcbench" && (j == 0 || j == 1 && fields[0] == "$") || strings.HasSuffix(f, "bin/sdcbench") {
					if m, ok := mentionAt(fields[j+1:]); ok {
						m.line, m.text = n, strings.TrimSpace(line)
						out = append(out, m)
					}
				}
			}
			continue
		}
		// prose: inline code starting with sdcbench (or bin/sdcbench), with its flags ...
		for _, sm := range codeSpan.FindAllStringSubmatch(line, -1) {
			fields := strings.Fields(sm[1])
			if len(fields) > 0 && (fields[0] == "sdcbench" || strings.HasSuffix(fields[0], "bin/sdcbench")) {
				if m, ok := mentionAt(fields[1:]); ok {
					m.line, m.text = n, sm[0]
					out = append(out, m)
				}
			}
		}
		// ... and bin/sdcbench CMD outside code spans (the command only)
		rest := codeSpan.ReplaceAllString(line, " ")
		for _, bm := range binCmd.FindAllStringSubmatch(rest, -1) {
			if m, ok := mentionAt([]string{bm[1]}); ok {
				m.line, m.text = n, bm[0]
				out = append(out, m)
			}
		}
	}
	return out
}

// mentionAt reads the command word and the flags that follow it from the words after
// "sdcbench"; ok is false when the command's place holds no command name.
func mentionAt(words []string) (m mention, ok bool) {
	if len(words) == 0 {
		return m, false
	}
	name := strings.TrimRight(words[0], ".,;:)'\"")
	if !cmdName.MatchString(name) {
		return m, false
	}
	m.cmd = name
	for _, w := range words[1:] {
		if w == "#" || strings.HasPrefix(w, "#") || strings.ContainsAny(w, "|;&><") {
			break // a comment, a pipe, a redirection or the next command
		}
		w = strings.TrimLeft(w, "[(")
		w = strings.TrimRight(w, "]),.…")
		if f := flagTok.FindStringSubmatch(w); f != nil {
			m.flags = append(m.flags, f[1])
		}
	}
	return m, true
}

// commandFlags returns the flags command name defines: those its -h lists and those its usage
// line names (stats' subcommands list theirs only there).
func commandFlags(t *testing.T, name string) map[string]bool {
	t.Helper()
	c := commands[name]
	flags := map[string]bool{"h": true, "help": true}
	var help bytes.Buffer
	_ = c.run(context.Background(), []string{"-h"}, io.Discard, &help) // -h parses flags and stops
	for _, f := range helpFlag.FindAllStringSubmatch(help.String(), -1) {
		flags[f[1]] = true
	}
	for _, f := range usageFlag.FindAllStringSubmatch(c.usage, -1) {
		flags[f[1]] = true
	}
	return flags
}

// repoRoot is the module root, two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found from %s: %v", root, err)
	}
	return root
}

// docFiles returns the pages readers read (README.md, docs/, studies/, examples/, and any other
// Markdown page) and the TOML specs whose comments explain them, relative to root. Generated
// results folders, test data and build output are not documentation.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	skip := map[string]bool{"results": true, "testdata": true, "bin": true, "out": true}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (skip[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext == ".md" || ext == ".toml" {
			rel, _ := filepath.Rel(root, path)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestDocsNameOnlyCommands: every `sdcbench CMD` and bin/sdcbench CMD in the documentation
// names a registered command, and every --flag right after it is one the command defines.
func TestDocsNameOnlyCommands(t *testing.T) {
	root := repoRoot(t)
	files := docFiles(t, root)
	for _, must := range []string{"README.md", filepath.Join("docs", "harness.md")} {
		if !slices.Contains(files, must) {
			t.Fatalf("%s not among the documentation files %v", must, files)
		}
	}
	known := map[string]map[string]bool{}
	seen := 0
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range extractMentions(string(data)) {
			seen++
			if m.cmd == "help" {
				continue
			}
			if _, ok := commands[m.cmd]; !ok {
				t.Errorf("%s:%d: %s: no command %q (have %s)", rel, m.line, m.text, m.cmd, strings.Join(commandNames(), ", "))
				continue
			}
			if known[m.cmd] == nil {
				known[m.cmd] = commandFlags(t, m.cmd)
			}
			for _, f := range m.flags {
				if !known[m.cmd][f] {
					t.Errorf("%s:%d: %s: %s has no flag --%s", rel, m.line, m.text, m.cmd, f)
				}
			}
		}
	}
	if seen < 50 {
		t.Errorf("only %d command mentions found in %d files: is the extractor broken?", seen, len(files))
	}
}

// TestExtractMentions: the extractor finds commands in inline code, prose and fenced blocks,
// skips placeholders, and a bogus command or flag fails the check.
func TestExtractMentions(t *testing.T) {
	doc := strings.Join([]string{ // one line per element, numbered from 1
		"Run `sdcbench dp-report results/dp-e1` and then `sdcbench report --out x DIR`.",
		"The binary bin/sdcbench bogus-cmd is built by make; `sdcbench <command> -h` helps.",
		"`sdcbench` alone, `go build -o bin/sdcbench ./cmd/sdcbench`, `sdcbench COMMAND`.",
		"```sh",
		"bin/sdcbench run --workers 2 --bogus-flag x spec.toml | tee log # --nope",
		"for e in 1 2; do bin/sdcbench magga-report \\",
		"    --out y final; done",
		"$ sdcbench list datasets",
		"```",
		"# a TOML comment: then `bin/sdcbench scale-report results/x`.",
	}, "\n")
	got := extractMentions(doc)
	type short struct {
		line  int
		cmd   string
		flags string
	}
	var have []short
	for _, m := range got {
		have = append(have, short{m.line, m.cmd, strings.Join(m.flags, ",")})
	}
	want := []short{
		{1, "dp-report", ""}, {1, "report", "out"},
		{2, "bogus-cmd", ""},
		{5, "run", "workers,bogus-flag"},
		{6, "magga-report", "out"},
		{8, "list", ""},
		{10, "scale-report", ""},
	}
	if !slices.Equal(have, want) {
		t.Fatalf("extractMentions:\n got %v\nwant %v", have, want)
	}
	// the check itself: the bogus names are reported, the real ones are not
	var bad []string
	for _, m := range got {
		if _, ok := commands[m.cmd]; !ok {
			bad = append(bad, m.cmd)
			continue
		}
		fl := commandFlags(t, m.cmd)
		for _, f := range m.flags {
			if !fl[f] {
				bad = append(bad, m.cmd+" --"+f)
			}
		}
	}
	wantBad := []string{"dp-report", "report --out", "bogus-cmd", "run --bogus-flag", "magga-report", "scale-report"}
	if !slices.Equal(bad, wantBad) {
		t.Fatalf("bad mentions %q, want %q", bad, wantBad)
	}
}

// TestPackageDocListsEveryCommand: the package doc (what go doc shows) gives every command's
// usage line as the command prints it, so a new or changed command without doc fails.
func TestPackageDocListsEveryCommand(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if af.Doc != nil {
			if doc != "" {
				t.Fatalf("%s: a second package doc; keep it in one file", f)
			}
			doc = af.Doc.Text()
		}
	}
	if doc == "" {
		t.Fatal("package main has no doc comment")
	}
	// Long usage lines may wrap in the doc: compare with runs of white space collapsed.
	flat := " " + strings.Join(strings.Fields(doc), " ") + " "
	for _, name := range commandNames() {
		usage := "sdcbench " + strings.Join(strings.Fields(commands[name].usage), " ")
		if !strings.Contains(flat, " "+usage+" ") {
			t.Errorf("the package doc lacks the usage of %s: %q", name, usage)
		}
	}
	// and it names no command that does not exist
	sc := bufio.NewScanner(strings.NewReader(doc))
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) > 1 && fields[0] == "sdcbench" && cmdName.MatchString(fields[1]) {
			if _, ok := commands[fields[1]]; !ok && fields[1] != "help" {
				t.Errorf("package doc line %s: no command %q", strconv.Itoa(n), fields[1])
			}
		}
	}
}

// makeTargets returns the targets the Makefile at root defines.
func makeTargets(t *testing.T, root string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([a-z][a-z0-9_-]*):`).FindAllStringSubmatch(string(data), -1) {
		targets[m[1]] = true
	}
	return targets
}

var (
	// makeCode is `make TARGET` as inline code; makeLine a code line that runs make TARGET.
	makeCode = regexp.MustCompile("`make ([a-z][a-z0-9_-]*)")
	makeLine = regexp.MustCompile(`^\s*make ([a-z][a-z0-9_-]*)`)
)

// makeMentions returns the make targets a Markdown page names, by line number (from 1).
func makeMentions(text string) map[int][]string {
	out := map[int][]string{}
	fenced := false
	for i, line := range strings.Split(text, "\n") {
		if trim := strings.TrimSpace(line); strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			fenced = !fenced
			continue
		}
		re := makeCode
		if fenced {
			re = makeLine
		}
		for _, m := range re.FindAllStringSubmatch(line, -1) {
			out[i+1] = append(out[i+1], m[1])
		}
	}
	return out
}

// TestDocsNameOnlyMakeTargets: every `make TARGET` in the documentation is a Makefile target.
func TestDocsNameOnlyMakeTargets(t *testing.T) {
	root := repoRoot(t)
	targets := makeTargets(t, root)
	if !targets["run"] || !targets["test"] {
		t.Fatalf("Makefile targets %v lack run or test", targets)
	}
	seen := 0
	for _, rel := range docFiles(t, root) {
		if filepath.Ext(rel) != ".md" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for n, names := range makeMentions(string(data)) {
			seen += len(names)
			for _, name := range names {
				if !targets[name] {
					t.Errorf("%s:%d: make %s: the Makefile has no target %s", rel, n, name, name)
				}
			}
		}
	}
	if seen < 5 {
		t.Errorf("only %d make mentions found: is the extractor broken?", seen)
	}
	got := makeMentions("Run `make bogus` first, to\nmake sure.\n```sh\nmake run   # and\n```\n")
	if want := map[int][]string{1: {"bogus"}, 4: {"run"}}; !reflect.DeepEqual(got, want) || targets["bogus"] {
		t.Errorf("makeMentions = %v, want %v", got, want)
	}
}
