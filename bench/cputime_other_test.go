//go:build !unix

package bench

func cpuSeconds() float64 { return 0 }
