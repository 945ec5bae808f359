package methods

import (
	"errors"
	"maps"
	"math/rand/v2"
	"slices"
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
		{in, 6, []int32{7, 7, 7, -1, -1, 7}, "group -1 has 2 records, fewer than k = 3"},
		{in, 6, []int32{9, 9, 9, 4, 4, 4}, ""},
		{in, 7, []int32{9, 9, 9, 4, 4, 4, 4}, ""},
		{in, 7, []int32{1 << 30, 1 << 30, 1 << 30, 4, 4, 4, 4}, ""},
		{in, 7, []int32{1 << 30, 1 << 30, 4, 4, 4, 4, 4}, "group 1073741824 has 2 records"},
		{Info{Name: "noise"}, 6, nil, ""},
	} {
		err := CheckPartition(tc.in, p, tc.n, tc.labels)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrPartition)) {
			t.Errorf("case %d: %v, want %q", i, err, tc.want)
		}
	}
}

// TestGroupSizesMatchesMap compares groupSizes (a slice for labels in [0, n)) with the map it
// replaces, on random labels: canonical, sparse, negative and larger than n.
func TestGroupSizesMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 5))
	for trial := 0; trial < 300; trial++ {
		n := r.IntN(200)
		labels := make([]int32, n)
		span := int32(1 + r.IntN(2*n+2))
		for i := range labels {
			labels[i] = r.Int32N(span)
			switch r.IntN(30) {
			case 0:
				labels[i] = -1 - r.Int32N(3)
			case 1:
				labels[i] = 1<<31 - 1 - r.Int32N(3)
			}
		}
		size := map[int32]int{}
		for _, l := range labels {
			size[l]++
		}
		wantG := slices.Sorted(maps.Keys(size))
		var wantS []int
		for _, g := range wantG {
			wantS = append(wantS, size[g])
		}
		g, s := groupSizes(labels)
		if !slices.Equal(g, wantG) || !slices.Equal(s, wantS) {
			t.Fatalf("trial %d: groupSizes(%v) = %v, %v; want %v, %v", trial, labels, g, s, wantG, wantS)
		}
	}
}
