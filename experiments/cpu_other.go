//go:build !unix

package experiments

import "math"

// cpuSeconds is not available here; cpu_seconds columns hold NaN.
func cpuSeconds() float64 { return math.NaN() }
