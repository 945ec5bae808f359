//go:build !unix

package resultsdir

// noFollow is not available here: the Lstat checks of checkOwnFile stand alone.
const noFollow = 0
