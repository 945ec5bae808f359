//go:build unix

package resultsdir

import "syscall"

// noFollow makes an open fail on a symbolic link (the final path element).
const noFollow = syscall.O_NOFOLLOW
