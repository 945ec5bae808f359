package thp

import "testing"

func TestParseMode(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"always [madvise] never\n", "madvise", true},
		{"[always] madvise never\n", "always", true},
		{"always madvise [never]\n", "never", true},
		{"always madvise never\n", "", false},
		{"", "", false},
		{"] [", "", false},
		{"[", "", false},
	} {
		got, ok := ParseMode([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("ParseMode(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestParsePageSize(t *testing.T) {
	for _, c := range []struct {
		content string
		want    int
	}{
		{"2097152\n", 2 << 20},
		{"1073741824", 1 << 30},
		{"3000000\n", DefaultPageSize}, // not a power of two
		{"x", DefaultPageSize},
		{"-4096", DefaultPageSize},
		{"", DefaultPageSize},
		{"99999999999999999999999\n", DefaultPageSize},
	} {
		if got := ParsePageSize([]byte(c.content)); got != c.want {
			t.Errorf("ParsePageSize(%q) = %d, want %d", c.content, got, c.want)
		}
	}
}
