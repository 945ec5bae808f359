package datasets

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRecordLimit is issue 25: a CSV record longer than MaxRecordBytes (a single-line file of
// hundreds of megabytes, /dev/zero) is an error naming the file, the line and the limit, read
// without holding more than the limit; a quoted field spanning lines counts as one record.
func TestRecordLimit(t *testing.T) {
	defer func(m int64) { MaxRecordBytes = m }(MaxRecordBytes)
	MaxRecordBytes = 1 << 10
	long := "a,b\n1,2\n" + strings.Repeat("9", 2000) + ",1\n"
	_, err := ReadCSV(strings.NewReader(long), "long.csv", ReadOptions{})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "long.csv: line 3") || !strings.Contains(err.Error(), "1 KiB") {
		t.Errorf("long line: %v", err)
	}
	quoted := "a,b\n\"" + strings.Repeat("x\n", 600) + "\",1\n"
	if _, err := ReadCSV(strings.NewReader(quoted), "q.csv", ReadOptions{Mixed: true}); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "q.csv: line 2") {
		t.Errorf("long quoted field: %v", err)
	}
	// an endless input of zero bytes stops at the limit
	_, err = ReadCSV(io.LimitReader(zeros{}, 1<<40), "/dev/zero", ReadOptions{})
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("zeros: %v", err)
	}
	// many short lines are fine
	ok := "a,b\n" + strings.Repeat("1,\"2\"\"x\"\"\"\n", 500)
	if _, err := ReadCSV(strings.NewReader(ok), "ok.csv", ReadOptions{Mixed: true}); err != nil {
		t.Errorf("short lines: %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestDecompressedLimit is issue 25: a gzip stream that expands past MaxDecompressedBytes is an
// error naming the file and the limit; a stream of exactly the limit reads.
func TestDecompressedLimit(t *testing.T) {
	defer func(m int64) { MaxDecompressedBytes = m }(MaxDecompressedBytes)
	MaxDecompressedBytes = 1 << 20
	gz := func(n int) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write(make([]byte, n))
		w.Close()
		return b.Bytes()
	}
	for _, c := range []struct {
		n    int
		fail bool
	}{{1 << 20, false}, {1<<20 + 1, true}, {8 << 20, true}} {
		zr, err := gzip.NewReader(bytes.NewReader(gz(c.n)))
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(LimitDecompressed(zr, "runs.csv.gz"))
		if c.fail != (err != nil) || (c.fail && (!errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "runs.csv.gz") || !strings.Contains(err.Error(), "1 MiB"))) {
			t.Errorf("%d bytes: %d read, %v", c.n, len(data), err)
		}
	}
	for s, want := range map[string]int64{"4G": 4 << 30, "512M": 512 << 20, "100": 100, "2KB": 2048} {
		if n, err := ParseByteSize(s); err != nil || n != want {
			t.Errorf("ParseByteSize(%q) = %d, %v", s, n, err)
		}
	}
}

// byteLimiter is recordLimiter's byte-by-byte loop before it skipped runs with
// bytes.IndexByte: the reference of TestRecordLimiterScan.
func byteLimiter(l *recordLimiter, p []byte) int {
	for i, b := range p {
		if l.cur == 0 {
			l.start = l.line
		}
		l.cur++
		switch b {
		case '"':
			l.inQuote = !l.inQuote
		case '\n':
			l.line++
			if !l.inQuote {
				l.cur = 0
				continue
			}
		}
		if l.cur > l.max {
			return i
		}
	}
	return -1
}

// TestRecordLimiterScan compares the limiter's scan with the byte loop on random inputs of
// quotes, newlines and other bytes, fed in random chunks, with small limits: the same byte
// stops it, with the same record start, and between chunks the same state (after a stop the
// limiter only repeats its error).
func TestRecordLimiterScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 30))
	alphabet := []byte("\"\n\nab,xy")
	for trial := 0; trial < 3000; trial++ {
		in := make([]byte, rng.IntN(200))
		for i := range in {
			in[i] = alphabet[rng.IntN(len(alphabet))]
		}
		max := int64(1 + rng.IntN(40))
		fast := &recordLimiter{max: max, line: 1}
		slow := &recordLimiter{max: max, line: 1}
		for rest := in; len(rest) > 0; {
			k := 1 + rng.IntN(len(rest))
			got, want := fast.scan(rest[:k]), byteLimiter(slow, rest[:k])
			if got != want || got < 0 && fast.cur != slow.cur || fast.start != slow.start ||
				got < 0 && (fast.line != slow.line || fast.inQuote != slow.inQuote) {
				t.Fatalf("%q, max %d: scan %d (cur %d line %d start %d quote %v), byte loop %d (cur %d line %d start %d quote %v)",
					in, max, got, fast.cur, fast.line, fast.start, fast.inQuote, want, slow.cur, slow.line, slow.start, slow.inQuote)
			}
			if got >= 0 {
				break
			}
			rest = rest[k:]
		}
	}
}
