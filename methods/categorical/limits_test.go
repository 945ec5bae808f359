package categorical

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestPRAMManyCategories is issue 25: pram's invariant matrix on a column with more than
// MaxPRAMLevels categories is refused (L² memory, L³ time) with an error naming the column, its
// number of categories and a way forward; an explicit matrix is not capped.
func TestPRAMManyCategories(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	d := randomCat(rng, 3000, 2, MaxPRAMLevels+1)
	p, err := PRAM{}.Info().Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []func() error{
		func() error { return PRAM{}.Validate(d, p) },
		func() error { _, err := PRAM{}.Protect(context.Background(), d, p, rng); return err },
	} {
		err := f()
		if err == nil || !strings.Contains(err.Error(), `column "a"`) || !strings.Contains(err.Error(), "1001 categories") || !strings.Contains(err.Error(), "global_recode") {
			t.Errorf("1001 categories: %v", err)
		}
	}
	ok := randomCat(rng, 3000, 2, MaxPRAMLevels)
	if err := (PRAM{}).Validate(ok, p); err != nil {
		t.Errorf("%d categories: %v", MaxPRAMLevels, err)
	}
}

// TestInvariantMatrixCancel is issue 25: the O(L³) product of the invariant matrix stops, with
// the context's error, once the context is done (a signal or a time_limit).
func TestInvariantMatrixCancel(t *testing.T) {
	L := MaxPRAMLevels
	pi, pd := make([]float64, L), make([]float64, L)
	for i := range pi {
		pi[i], pd[i] = float64(i+1), 0.8
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	m, err := invariantMatrix(ctx, pi, pd, 0.5)
	if !errors.Is(err, context.Canceled) || m != nil {
		t.Errorf("cancelled: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("cancelled matrix took %v", d)
	}
	if m, err := invariantMatrix(context.Background(), pi[:3], pd[:3], 0.5); err != nil || len(m) != 3 {
		t.Errorf("3 levels: %v", err)
	}
}
