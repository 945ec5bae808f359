package command

import (
	"bytes"
	"strings"
)

// tail keeps the last max bytes written to it: the end of a command's standard error, for
// the run's error message.
type tail struct {
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// lines returns at most the last n non-empty lines, joined by " | " (runs.csv keeps one line
// per error).
func (t *tail) lines(n int) string {
	all := strings.Split(string(bytes.ToValidUTF8(t.buf, []byte("?"))), "\n")
	var keep []string
	for i := len(all) - 1; i >= 0 && len(keep) < n; i-- {
		if s := strings.TrimSpace(all[i]); s != "" {
			keep = append(keep, s)
		}
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		keep[i], keep[j] = keep[j], keep[i]
	}
	return strings.Join(keep, " | ")
}
