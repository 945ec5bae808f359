package methods

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckPartition(t *testing.T) {
	in := Info{Name: "m", Description: "d", Partitions: true, BoundedGroups: true,
		Params: []ParamSpec{{Name: "k", Kind: Int, Default: "3"}}}
	p, err := in.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	free := in
	free.BoundedGroups = false
	for i, tc := range []struct {
		in     Info
		n      int
		labels []int32
		want   string
	}{
		{in, 6, []int32{0, 0, 0, 1, 1, 1}, ""},
		{in, 8, []int32{0, 0, 0, 1, 1, 1, 1, 1}, ""},
		{in, 6, []int32{0, 0, 1, 1, 1, 1}, "group 0 has 2 records, fewer than k = 3"},
		{in, 6, []int32{0, 0, 0, 0, 0, 0}, "more than 2k−1 = 5"},
		{free, 6, []int32{0, 0, 0, 0, 0, 0}, ""},
		{in, 6, []int32{0, 0, 0}, "3 labels for 6 records"},
		{Info{Name: "noise"}, 6, nil, ""},
	} {
		err := CheckPartition(tc.in, p, tc.n, tc.labels)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrPartition)) {
			t.Errorf("case %d: %v, want %q", i, err, tc.want)
		}
	}
}
