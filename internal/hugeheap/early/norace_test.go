//go:build !race

package early

const raceEnabled = false
