//go:build !unix

package resultsdir

// Lock is a no-op where flock is not available.
func Lock(dir string) (unlock func(), err error) { return func() {}, nil }
