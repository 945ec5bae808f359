package experiments

import (
	"io"
	"os"

	"github.com/sdcbench/sdcbench/datasets"
)

// Caps on a spec's text, checked before decoding (the TOML decoder has no depth limit: a
// deeply nested array exhausted memory).
const (
	// MaxSpecBytes caps the size of a spec file: 1 MiB (the largest bundled spec is 6 KB).
	MaxSpecBytes = 1 << 20
	// MaxSpecDepth caps the nesting of arrays and inline tables in a spec: 32.
	MaxSpecDepth = 32
)

// ReadSpecFile reads a spec file of at most MaxSpecBytes bytes; a larger file (or an endless
// one such as /dev/zero) is an error naming the file and the limit.
func ReadSpecFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSpecBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSpecBytes {
		return nil, &SpecError{File: path, Err: datasets.TooLarge("a spec file larger than %s", datasets.FormatBytes(MaxSpecBytes))}
	}
	return data, nil
}

// checkSpecText refuses a text over MaxSpecBytes or nested deeper than MaxSpecDepth. It
// follows TOML's strings (basic, literal, multi-line) and comments, so brackets inside them do
// not count.
func checkSpecText(data []byte, file string) error {
	if len(data) > MaxSpecBytes {
		return &SpecError{File: file, Err: datasets.TooLarge("a spec larger than %s", datasets.FormatBytes(MaxSpecBytes))}
	}
	depth, line := 0, 1
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '\n':
			line++
		case '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			i--
		case '"', '\'':
			delim := []byte{c}
			if i+2 < len(data) && data[i+1] == c && data[i+2] == c {
				delim = []byte{c, c, c}
			}
			i += len(delim)
			for i < len(data) {
				if data[i] == '\n' {
					line++
				}
				if c == '"' && data[i] == '\\' {
					i += 2
					continue
				}
				if string(data[i:min(i+len(delim), len(data))]) == string(delim) {
					i += len(delim) - 1
					break
				}
				i++
			}
		case '[', '{':
			if depth++; depth > MaxSpecDepth {
				return &SpecError{File: file, Err: datasets.TooLarge("line %d: arrays or inline tables nested deeper than %d", line, MaxSpecDepth)}
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}
