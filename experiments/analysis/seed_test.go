package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareSeedSource checks that every row of a seed file says what it checks (source study
// or reference) and names its item: a verdict without either is refused (issue 24).
func TestCompareSeedSource(t *testing.T) {
	for _, c := range []struct{ name, csv, want string }{
		{"no source column", "table,item,stat,metric,published,criterion\nT,a,median,x,1,exact\n", `no "source" column`},
		{"no item column", "table,source,stat,metric,published,criterion\nT,study,median,x,1,exact\n", `no "item" column`},
		{"empty source", "table,item,source,stat,metric,published,criterion\nT,a,,median,x,1,exact\n", `source must be study or reference, have ""`},
		{"unknown source", "table,item,source,stat,metric,published,criterion\nT,a,sdcMicro,median,x,1,exact\n", `have "sdcMicro"`},
		{"empty item", "table,item,source,stat,metric,published,criterion\nT,,study,median,x,1,exact\n", "empty item"},
	} {
		path := filepath.Join(t.TempDir(), "seed.csv")
		if err := os.WriteFile(path, []byte(c.csv), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := CompareSeed(&Result{}, path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
