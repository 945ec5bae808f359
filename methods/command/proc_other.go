//go:build !unix

package command

import "os/exec"

// killGroup leaves the default: the program alone is killed when the run's context ends.
func killGroup(*exec.Cmd) {}
