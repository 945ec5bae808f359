package datasets

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
)

// ErrCompressed is the error of a CSV input that is a compressed file: its bytes would
// otherwise be read as a header of binary garbage ("column \x1f\x8b…", or `bare "`).
var ErrCompressed = errors.New("compressed")

// compressedMagic are the leading bytes of the compressed formats recognised, with their names
// and the command that decompresses them.
var compressedMagic = []struct {
	magic      string
	name, tool string
}{
	{"\x1f\x8b", "gzip", "gunzip"},
	{"\xfd7zXZ\x00", "xz", "unxz"},
	{"\x28\xb5\x2f\xfd", "zstd", "unzstd"},
	{"PK\x03\x04", "zip", "unzip"},
}

// checkCompressed peeks at the first bytes of br and refuses a compressed file, naming it and
// the format: "gzip-compressed: decompress it first (gunzip)".
func checkCompressed(br *bufio.Reader, name string) error {
	head, _ := br.Peek(6)
	for _, m := range compressedMagic {
		if bytes.HasPrefix(head, []byte(m.magic)) {
			return &ParseError{File: name, Err: fmt.Errorf("%s-%w: decompress it first (%s)", m.name, ErrCompressed, m.tool)}
		}
	}
	return nil
}
