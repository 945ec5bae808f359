package datasets

import (
	"strconv"
	"strings"
	"testing"
)

// testSet is a set of three generated datasets, gset_1..gset_3, registered like the sets of
// other packages (from init). Its generator counts its calls.
var testSetCalls [4]int

func init() {
	RegisterGenerators(GeneratorSet{
		Names: func() []string { return []string{"gset_3", "gset_1", "gset_2"} },
		Get: func(name string) (Info, Generator, bool) {
			k, err := strconv.Atoi(strings.TrimPrefix(name, "gset_"))
			if !strings.HasPrefix(name, "gset_") || err != nil || k < 1 || k > 3 || name != "gset_"+strconv.Itoa(k) {
				return Info{}, nil, false
			}
			return Info{Name: name, Source: "substitute", Description: "test set member " + strconv.Itoa(k)},
				func(seed uint64) (*Dataset, error) {
					testSetCalls[k]++
					return New("x", []string{"a"}, 1, 1, []float64{float64(k) + float64(seed)}), nil
				}, true
		},
	})
}

// TestRegisterGenerators checks that the members of a set are listed in name order among the
// other datasets, loaded once with seed 1 under their name, named in the error of an unknown
// name, and that other names are not members.
func TestRegisterGenerators(t *testing.T) {
	var got []Info
	prev := ""
	for _, in := range List() {
		if in.Name <= prev {
			t.Errorf("List not sorted: %q after %q", in.Name, prev)
		}
		prev = in.Name
		if strings.HasPrefix(in.Name, "gset_") {
			got = append(got, in)
		}
	}
	if len(got) != 3 || got[0].Name != "gset_1" || got[2].Name != "gset_3" || got[1].Description != "test set member 2" {
		t.Errorf("listed members %+v", got)
	}
	for range 2 {
		d, err := Load("gset_2")
		if err != nil {
			t.Fatal(err)
		}
		if d.Name != "gset_2" || d.Data[0] != 3 {
			t.Errorf("gset_2 = %s %v, want gset_2 [3]", d.Name, d.Data)
		}
	}
	if testSetCalls[2] != 1 {
		t.Errorf("gset_2 generated %d times, want once", testSetCalls[2])
	}
	_, err := Load("gset_4")
	if err == nil || !strings.Contains(err.Error(), "gset_1 gset_2 gset_3") || !strings.Contains(err.Error(), "census") {
		t.Errorf("Load(gset_4) error %v, want the registered names listed", err)
	}
	if _, err := Load("gset_02"); err == nil {
		t.Error("Load(gset_02) succeeded")
	}
}
