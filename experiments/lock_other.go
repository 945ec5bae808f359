//go:build !unix

package experiments

// lockDir is a no-op where flock is not available.
func lockDir(dir string) (unlock func(), err error) { return func() {}, nil }
