package mdavindex

import "testing"

// TestFarthestFromAfterStaleWalk checks that FarthestFrom skips a record deleted after a
// Farthest walk marked the pivot list stale (the list is rebuilt only by the next Farthest):
// on 200 records at +1 and −1, the walk from 0 examines every row, record 0 (+1) is deleted,
// and the farthest from −1 is then record 2, the lowest live +1.
func TestFarthestFromAfterStaleWalk(t *testing.T) {
	const n = 200
	z := make([]float64, n)
	for i := range z {
		z[i] = 1
		if i%2 == 1 {
			z[i] = -1
		}
	}
	ix := New(z, n, 1, Options{})
	if r := ix.Farthest([]float64{0}); r != 0 {
		t.Fatalf("Farthest = %d, want 0", r)
	}
	if !ix.stale {
		t.Fatal("the walk did not mark the list stale: the test no longer covers the case")
	}
	ix.Delete(0)
	if s := ix.FarthestFrom([]float64{-1}); s != 2 {
		t.Fatalf("FarthestFrom = %d, want 2 (record 0 is deleted)", s)
	}
}
