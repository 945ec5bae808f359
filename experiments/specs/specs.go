// Package specs embeds the bundled experiment specs (one TOML file per experiment), the
// seeds' published numbers that their reports compare against (<name>.seed.csv) and the
// hand-written notes their reports include (<name>.notes.md), so that `sdcbench run quickstart`
// works from any folder.
package specs

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.toml *.seed.csv *.notes.md
var files embed.FS

// Names returns the bundled spec names (file names without ".toml"), sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".toml") {
			out = append(out, strings.TrimSuffix(e.Name(), ".toml"))
		}
	}
	sort.Strings(out)
	return out
}

// Read returns the text of the bundled spec name.
func Read(name string) ([]byte, error) { return files.ReadFile(name + ".toml") }

// ReadSeed returns the bundled seed comparison file of experiment name (<name>.seed.csv).
func ReadSeed(name string) ([]byte, error) { return files.ReadFile(name + ".seed.csv") }

// ReadNotes returns the bundled report notes of experiment name (<name>.notes.md).
func ReadNotes(name string) ([]byte, error) { return files.ReadFile(name + ".notes.md") }
