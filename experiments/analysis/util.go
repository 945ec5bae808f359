package analysis

import "strconv"

// parseFloat parses a runs.csv number (strconv syntax: NaN, +Inf and -Inf included).
func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }
