package main

import (
	"context"
	"fmt"
	"os"
	"time"
)

// stopReadOnCancel makes a read of f that blocks on a pipe, a FIFO or a terminal return once ctx
// is done (SIGINT, SIGTERM), by setting a read deadline in the past: Go's runtime poller
// watches these descriptors, so the blocked read wakes with os.ErrDeadlineExceeded at once.
// Regular files do not block and accept no deadline (the call then does nothing); a
// descriptor the poller cannot watch is still ended by the process's grace period
// (interruptGrace). Call the returned function when the reading is over.
func stopReadOnCancel(ctx context.Context, f *os.File) (stop func() bool) {
	return context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Now()) })
}

// readInterrupted returns err, or, when ctx is done, an error saying that reading path was
// interrupted (the read error is then the deadline set by stopReadOnCancel).
func readInterrupted(ctx context.Context, path string, err error) error {
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("interrupted while reading %s: %w", path, ctx.Err())
	}
	return err
}
