package command

import (
	"errors"
	"fmt"
	"strings"
)

// Split splits a command line into words as a POSIX shell would, without running a shell:
// words are separated by unquoted blanks; single quotes keep everything literally; double
// quotes keep everything but \" \\ \$ \` (their backslash is dropped); an unquoted backslash
// keeps the next character. Nothing is expanded: no variables, globs, pipes or redirections
// (the characters stay literal), so a spec can never run more than the one program it names.
func Split(line string) ([]string, error) {
	var words []string
	var b strings.Builder
	inWord := false
	const (
		none = iota
		single
		double
	)
	quote := none
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch quote {
		case single:
			if r == '\'' {
				quote = none
			} else {
				b.WriteRune(r)
			}
		case double:
			switch {
			case r == '"':
				quote = none
			case r == '\\' && i+1 < len(rs) && strings.ContainsRune("\"\\$`", rs[i+1]):
				i++
				b.WriteRune(rs[i])
			default:
				b.WriteRune(r)
			}
		default:
			switch {
			case r == ' ' || r == '\t' || r == '\n':
				if inWord {
					words = append(words, b.String())
					b.Reset()
					inWord = false
				}
				continue
			case r == '\'':
				quote = single
			case r == '"':
				quote = double
			case r == '\\':
				if i+1 == len(rs) {
					return nil, errors.New("command line ends with a backslash")
				}
				i++
				b.WriteRune(rs[i])
			default:
				b.WriteRune(r)
			}
			inWord = true
		}
	}
	if quote != none {
		q := "'"
		if quote == double {
			q = `"`
		}
		return nil, fmt.Errorf("command line has an unclosed %s quote", q)
	}
	if inWord {
		words = append(words, b.String())
	}
	if len(words) == 0 {
		return nil, errors.New("command line is empty")
	}
	return words, nil
}
