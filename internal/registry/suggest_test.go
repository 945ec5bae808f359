package registry

import "testing"

func TestDidYouMean(t *testing.T) {
	names := []string{"mdav", "vmdav", "noise_additive", "sse_sst", "singling_out", "census"}
	for _, c := range []struct{ in, want string }{
		{"mdva", ` (did you mean "mdav"?)`},
		{"noise_aditive", ` (did you mean "noise_additive"?)`},
		{"noise", ` (did you mean "noise_additive"?)`},
		{"sse-sst", ` (did you mean "sse_sst"?)`},
		{"cenus", ` (did you mean "census"?)`},
		{"xyz", ""},
		{"m", ""},
	} {
		if got := DidYouMean(c.in, names); got != c.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if d := editDistance("kitten", "sitting"); d != 3 {
		t.Errorf("editDistance = %d, want 3", d)
	}
}
