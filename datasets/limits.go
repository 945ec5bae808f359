package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Size caps on inputs, so that a hostile or mistaken input (/dev/zero, a single-line file of
// hundreds of megabytes, a gzip bomb) ends in an error naming the file and the limit instead of
// "fatal error: out of memory".
var (
	// MaxRecordBytes caps one CSV record (a line, or several lines inside a quoted field):
	// 16 MiB, far above any real row.
	MaxRecordBytes int64 = 16 << 20
	// MaxDecompressedBytes caps the decompressed size of a .gz input (runs.csv.gz and the
	// analysis tables): 1 GiB by default, or the environment variable
	// SDCBENCH_MAX_DECOMPRESSED (bytes, or with a suffix K, M or G: "4G").
	MaxDecompressedBytes int64 = 1 << 30
)

// ErrTooLarge is matched (errors.Is) by the errors of the size caps.
var ErrTooLarge = errors.New("input too large")

// TooLarge returns an error with the given message that matches ErrTooLarge.
func TooLarge(format string, args ...any) error {
	return &tooLarge{fmt.Sprintf(format, args...)}
}

type tooLarge struct{ msg string }

func (e *tooLarge) Error() string        { return e.msg }
func (e *tooLarge) Is(target error) bool { return target == ErrTooLarge }

func init() {
	if v := os.Getenv("SDCBENCH_MAX_DECOMPRESSED"); v != "" {
		if n, err := ParseByteSize(v); err == nil && n > 0 {
			MaxDecompressedBytes = n
		}
	}
}

// ParseByteSize reads a size in bytes with an optional suffix K, M or G (powers of 1024).
func ParseByteSize(s string) (int64, error) {
	s = strings.TrimSpace(strings.ToUpper(s))
	mult := int64(1)
	for suf, m := range map[string]int64{"K": 1 << 10, "M": 1 << 20, "G": 1 << 30} {
		if t, ok := strings.CutSuffix(strings.TrimSuffix(s, "B"), suf); ok {
			s, mult = t, m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("not a size: %q", s)
	}
	return n * mult, nil
}

// FormatBytes writes a size the way the caps are documented: "16 MiB", "1 GiB", "512 B".
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// LimitRecords returns a reader of r that fails, with an error naming name, the line and
// MaxRecordBytes, once a CSV record grows past MaxRecordBytes. Quotes are followed so that a
// quoted field spanning lines counts as one record.
func LimitRecords(r io.Reader, name string) io.Reader {
	return &recordLimiter{r: r, name: name, max: MaxRecordBytes, line: 1}
}

type recordLimiter struct {
	r       io.Reader
	name    string
	max     int64
	cur     int64 // bytes of the current record
	line    int   // current line (1-based)
	start   int   // line where the current record started
	inQuote bool
	err     error
}

func (l *recordLimiter) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	if i := l.scan(p[:n]); i >= 0 {
		l.err = TooLarge("%s: line %d: a CSV record longer than %s (the limit of one row)",
			l.name, l.start, FormatBytes(l.max))
		return i, l.err
	}
	return n, err
}

// scan follows b byte by byte as a CSV record counter — a quote toggles quoting, a newline
// outside quotes ends the record — and returns the index of the byte that makes the current
// record longer than max, or −1. Runs of ordinary bytes are skipped with bytes.IndexByte, so
// the cost is a few nanoseconds per line rather than per byte.
func (l *recordLimiter) scan(b []byte) int {
	quote := bytes.IndexByte(b, '"') // the next quote at or after i (−1: none left)
	for i := 0; i < len(b); {
		if l.cur == 0 {
			l.start = l.line
		}
		if quote >= 0 && quote < i {
			if quote = bytes.IndexByte(b[i:], '"'); quote >= 0 {
				quote += i
			}
		}
		j := len(b) // the next quote or newline
		if nl := bytes.IndexByte(b[i:], '\n'); nl >= 0 {
			j = i + nl
		}
		if quote >= 0 && quote < j {
			j = quote
		}
		if room := l.max - l.cur; int64(j-i) > room { // an ordinary byte passes the limit
			return i + int(room)
		}
		l.cur += int64(j - i)
		if j == len(b) {
			return -1
		}
		l.cur++
		if b[j] == '"' {
			l.inQuote = !l.inQuote
		} else {
			l.line++
			if !l.inQuote {
				l.cur = 0
				i = j + 1
				continue
			}
		}
		if l.cur > l.max {
			return j
		}
		i = j + 1
	}
	return -1
}

// LimitDecompressed returns a reader of the decompressed stream r that fails, with an error
// naming name and MaxDecompressedBytes, past MaxDecompressedBytes bytes.
func LimitDecompressed(r io.Reader, name string) io.Reader {
	return &sizeLimiter{r: r, name: name, left: MaxDecompressedBytes, max: MaxDecompressedBytes}
}

type sizeLimiter struct {
	r         io.Reader
	name      string
	left, max int64
}

func (l *sizeLimiter) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// one more byte tells a stream of exactly max bytes from a longer one
		var b [1]byte
		if n, err := l.r.Read(b[:]); n == 0 {
			return 0, err
		}
		return 0, TooLarge("%s: decompresses to more than %s (set SDCBENCH_MAX_DECOMPRESSED to raise the limit)",
			l.name, FormatBytes(l.max))
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}
