package registry

import "fmt"

// DidYouMean returns ` (did you mean "x"?)` for the known name closest to name when it is a
// plausible misspelling — edit distance at most max(1, len(name)/3), or name is a prefix of
// exactly one known name — and "" otherwise. Ties go to the first in names order.
func DidYouMean(name string, names []string) string {
	best, bestD := "", -1
	limit := max(1, len([]rune(name))/3)
	prefix, nPrefix := "", 0
	for _, n := range names {
		if len(name) >= 2 && len(n) > len(name) && n[:len(name)] == name {
			prefix = n
			nPrefix++
		}
		if d := editDistance(name, n); d <= limit && (bestD < 0 || d < bestD) {
			best, bestD = n, d
		}
	}
	switch {
	case best != "":
		return fmt.Sprintf(" (did you mean %q?)", best)
	case nPrefix == 1:
		return fmt.Sprintf(" (did you mean %q?)", prefix)
	}
	return ""
}

// editDistance is the Levenshtein distance over runes, with a transposition of two adjacent
// runes counting 1 (optimal string alignment).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}
