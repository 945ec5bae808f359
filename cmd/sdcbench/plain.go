package main

import "strings"

// plain drops from a one-line description the references a user cannot follow — parts of a
// parenthesis that cite a section of the internal specs ("metrics.md §2.7") or a source by its
// internal key ("seed 002 Alg. 2") — keeping the rest ("(Abowd & Vilhuber 2008)").
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
			if p == "" || strings.Contains(p, "§") || strings.Contains(p, ".md") || strings.Contains(p, "seed 0") {
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
