package experiments

import (
	"slices"
	"testing"

	"github.com/sdcbench/sdcbench/datasets"
)

// TestHoldoutSplit: round(h·n) control rows, the two parts together are the dataset (each row
// once, original order kept), the same seed gives the same split and another seed another.
func TestSplitRows(t *testing.T) {
	n := 50
	data := make([]float64, n)
	for i := range data {
		data[i] = float64(i)
	}
	d := datasets.New("d", []string{"x"}, n, 1, data)
	tr, ct := splitRows(d, 0.2, 7)
	if tr.N != 40 || ct.N != 10 {
		t.Fatalf("sizes %d + %d, want 40 + 10", tr.N, ct.N)
	}
	all := append(slices.Clone(tr.Data), ct.Data...)
	slices.Sort(all)
	if !slices.Equal(all, data) || !slices.IsSorted(tr.Data) || !slices.IsSorted(ct.Data) {
		t.Errorf("parts %v + %v are not a split of the rows in order", tr.Data, ct.Data)
	}
	tr2, ct2 := splitRows(d, 0.2, 7)
	_, ct3 := splitRows(d, 0.2, 8)
	if !slices.Equal(ct.Data, ct2.Data) || !slices.Equal(tr.Data, tr2.Data) || slices.Equal(ct.Data, ct3.Data) {
		t.Errorf("seed 7 twice: %v, %v; seed 8: %v", ct.Data, ct2.Data, ct3.Data)
	}
	if tr, ct := splitRows(d, 0, 7); tr != d || ct != nil {
		t.Error("no holdout: the dataset was split")
	}
}
