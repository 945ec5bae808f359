package synth

import (
	"fmt"
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestSplitOfS3 checks that every census_s3_d<d>_n<n> dataset is listed and that SplitOf
// gives it SplitS3(d, n), computed from the name (it is no longer stored at start-up), and
// that names outside the grid or written differently have no split.
func TestSplitOfS3(t *testing.T) {
	listed := map[string]bool{}
	for _, in := range datasets.List() {
		listed[in.Name] = true
	}
	for d := 1; d <= S3MaxD; d++ {
		for n := 1; n <= S3MaxN; n++ {
			name := fmt.Sprintf("census_s3_d%d_n%d", d, n)
			if !listed[name] {
				t.Errorf("%s is not listed", name)
			}
			s, ok := SplitOf(name)
			want := SplitS3(d, n)
			if !ok || !slices.Equal(s.Y, want.Y) || !slices.Equal(s.X, want.X) || !s.Census || len(s.X) != n {
				t.Errorf("SplitOf(%s) = %+v, %v, want %+v", name, s, ok, want)
			}
		}
	}
	for _, name := range []string{"census_s3_d0_n1", "census_s3_d14_n1", "census_s3_d1_n20", "census_s3_d01_n1",
		"census_s3_d1_n01", "census_s3_d1_n+1", "census_s3_d1", "census_s3_d1_n", "census_s3_d_n1", "census_s3_d1_n1x"} {
		if s, ok := SplitOf(name); ok {
			t.Errorf("SplitOf(%s) = %+v, want none", name, s)
		}
	}
	if s, ok := SplitOf("census_s1"); !ok || !slices.Equal(s.X, SplitS1.X) {
		t.Errorf("SplitOf(census_s1) = %+v, %v", s, ok)
	}
}
