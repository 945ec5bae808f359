package synth

import (
	"fmt"
	"reflect"
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

// TestS3Registered checks the S3 set against the registration it replaced (each name with
// RegisterGenerator, its Info built with fmt): the same names, Infos and data, each listed
// once, none of them also registered by name, and other names not members.
func TestS3Registered(t *testing.T) {
	count := map[string]int{}
	infos := map[string]datasets.Info{}
	for _, in := range datasets.List() {
		count[in.Name]++
		infos[in.Name] = in
	}
	for name, c := range count {
		if c != 1 {
			t.Errorf("%s listed %d times", name, c)
		}
	}
	names := s3Names()
	if len(names) != S3MaxD*S3MaxN {
		t.Fatalf("%d S3 names, want %d", len(names), S3MaxD*S3MaxN)
	}
	for d := 1; d <= S3MaxD; d++ {
		for n := 1; n <= S3MaxN; n++ {
			name := fmt.Sprintf("census_s3_d%d_n%d", d, n)
			want := datasets.Info{Name: name, Source: "original",
				Description: fmt.Sprintf("Census with the FCRM study's S3 split: v%d synthesized from the next %d attributes (cyclic)", d, n)}
			if got := infos[name]; !reflect.DeepEqual(got, want) {
				t.Errorf("listed %+v, want %+v", got, want)
			}
			if !slices.Contains(names, name) {
				t.Errorf("s3Names lacks %s", name)
			}
		}
	}
	for _, name := range []string{"census_s1", "census_s3_d0_n1", "census_s3_d1_n01", "census"} {
		if _, _, ok := s3Dataset(name); ok {
			t.Errorf("s3Dataset(%s) is a member", name)
		}
	}
	census, err := datasets.Load("census")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"census_s3_d1_n1", "census_s3_d13_n19"} {
		d, err := datasets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := datasets.Load(name)
		if d != again {
			t.Errorf("%s: a second Load returned another table", name)
		}
		if d.Name != name || !slices.Equal(d.Data, census.Data) || !slices.Equal(d.Names, census.Names) {
			t.Errorf("%s is not a copy of census named %s", d.Name, name)
		}
	}
}
