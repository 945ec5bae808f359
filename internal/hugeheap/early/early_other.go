//go:build !linux

package early

// Back does nothing off Linux (see the package comment).
func Back() Result {
	return Result{Reason: "transparent huge pages are a Linux feature"}
}
