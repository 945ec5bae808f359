package layering

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLILinksNoNetwork fails if the sdcbench command links a package that it does not use
// but that every process would initialise (docs/datapath.md "Start-up"): the network and TLS
// stacks (net, net/http, crypto/tls; net also made a cgo build dynamically linked) and the
// progress-bar package that brought them in (experiments draws its own bar, termbar.go).
func TestCLILinksNoNetwork(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./cmd/sdcbench")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list -deps: %v\n%s", err, ee.Stderr)
		}
		t.Skipf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list -deps listed %d packages: %q", len(deps), out)
	}
	banned := map[string]bool{"net": true, "net/http": true, "crypto/tls": true, "runtime/cgo": true,
		"github.com/schollz/progressbar/v3": true, "github.com/mitchellh/colorstring": true}
	for _, d := range deps {
		if banned[d] {
			t.Errorf("cmd/sdcbench links %s", d)
		}
	}
}
