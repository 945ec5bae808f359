package experiments_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdcbench/sdcbench/experiments"
)

// TestSpecSizeLimits is issue 25: a spec nested deeper than MaxSpecDepth or larger than
// MaxSpecBytes (or endless, such as /dev/zero) is refused before decoding, naming the file and
// the limit; brackets inside strings and comments do not count.
func TestSpecSizeLimits(t *testing.T) {
	deep := "a = " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n"
	if _, err := experiments.Decode([]byte(deep), "deep.toml"); err == nil || !strings.Contains(err.Error(), "deep.toml") || !strings.Contains(err.Error(), "deeper than 32") {
		t.Errorf("deep: %v", err)
	}
	inline := "a = " + strings.Repeat("{b = ", 40) + "1" + strings.Repeat("}", 40) + "\n"
	if _, err := experiments.Decode([]byte(inline), "inline.toml"); err == nil || !strings.Contains(err.Error(), "deeper than") {
		t.Errorf("inline tables: %v", err)
	}
	quoted := "name = \"" + strings.Repeat("[", 100) + "\"\nb = '" + strings.Repeat("{", 50) + "'\n# " + strings.Repeat("[", 50) +
		"\nc = \"\"\"\n" + strings.Repeat("[", 50) + "\\\"\"\"\n\"\"\"\n[[d]]\ne = [[1, 2], [3]]\n"
	if _, err := experiments.Decode([]byte(quoted), "quoted.toml"); err != nil {
		t.Errorf("brackets in strings and comments: %v", err)
	}
	big := filepath.Join(t.TempDir(), "big.toml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", experiments.MaxSpecBytes)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{big, "/dev/zero"} {
		if _, err := os.Stat(f); err != nil {
			continue
		}
		if _, err := experiments.Load(f, nil); err == nil || !strings.Contains(err.Error(), f) || !strings.Contains(err.Error(), "larger than 1 MiB") {
			t.Errorf("%s: %v", f, err)
		}
	}
}
