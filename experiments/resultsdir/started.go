package resultsdir

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// StartedFile records the runs a `run` started ("start ID") and those it finished or gave
// back on cancellation ("end ID"), one line each, appended as they happen. A run started but
// never ended was running when its process died (out of memory, SIGKILL): on resume, a run
// left unfinished twice is recorded as an error row instead of being retried for ever
// (experiments.Execute). The file is removed when the folder is complete or discarded.
const StartedFile = "started.log"

// StartLog appends to a folder's StartedFile.
type StartLog struct {
	mu sync.Mutex
	f  *os.File
}

// OpenStartLog opens dir's StartedFile for appending and returns, for each run ID, how many
// times it was started and never ended.
func OpenStartLog(dir string) (*StartLog, map[string]int, error) {
	path := filepath.Join(dir, StartedFile)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("resultsdir: %s is not a regular file", path)
	}
	unfinished := map[string]int{}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("resultsdir: %w", err)
	}
	if i := bytes.LastIndexByte(data, '\n'); i < len(data)-1 {
		data = data[:i+1] // a torn last line
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		switch op, id, _ := strings.Cut(sc.Text(), " "); op {
		case "start":
			unfinished[id]++
		case "end":
			if unfinished[id] > 0 {
				unfinished[id]--
			}
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("resultsdir: %w", err)
	}
	return &StartLog{f: f}, unfinished, nil
}

func (l *StartLog) write(op, id string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.f.WriteString(op + " " + id + "\n"); err != nil {
		return fmt.Errorf("resultsdir: %w", err)
	}
	return nil
}

// Start records that run id starts.
func (l *StartLog) Start(id string) error { return l.write("start", id) }

// End records that run id was recorded, or given back (cancelled) to be run again.
func (l *StartLog) End(id string) error { return l.write("end", id) }

// Close closes the file.
func (l *StartLog) Close() error { return l.f.Close() }

// RemoveStartLog removes dir's StartedFile (a complete or discarded folder).
func RemoveStartLog(dir string) error {
	if err := os.Remove(filepath.Join(dir, StartedFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("resultsdir: %w", err)
	}
	return nil
}
