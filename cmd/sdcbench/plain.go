package main

import "strings"

// plain drops from a one-line description the section references that belong in the docs, not
// in a listing — parts of a parenthesis that cite a section ("metrics.md §2.7") — keeping the
// rest, such as the study a measure comes from ("(Abowd & Vilhuber 2008; DP study Alg. 2)").
// Parentheses may nest; parts are separated by ";" at the top level of the parenthesis.
func plain(desc string) string {
	var b strings.Builder
	for i := 0; i < len(desc); {
		if desc[i] != '(' {
			b.WriteByte(desc[i])
			i++
			continue
		}
		depth, j := 0, i
		for ; j < len(desc); j++ {
			if desc[j] == '(' {
				depth++
			} else if desc[j] == ')' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		if j == len(desc) { // unbalanced: keep as is
			b.WriteString(desc[i:])
			break
		}
		var keep []string
		for _, p := range splitTop(desc[i+1 : j]) {
			p = strings.TrimSpace(p)
			if p == "" || strings.Contains(p, "§") || strings.Contains(p, ".md") {
				continue
			}
			keep = append(keep, p)
		}
		if len(keep) > 0 {
			b.WriteString("(" + strings.Join(keep, "; ") + ")")
		} else {
			s := strings.TrimRight(b.String(), " ")
			b.Reset()
			b.WriteString(s)
		}
		i = j + 1
	}
	return b.String()
}

// splitTop splits s at the semicolons outside nested parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ';':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
