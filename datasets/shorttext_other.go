//go:build !amd64 || purego

package datasets

const useShortTextAVX512 = false

func shortTextAVX512(w *shortWords, blocks int) { panic("unreachable") }

const useShortDigitsBMI2 = false

func shortDigitsBMI2(w *shortWords, xs *float64, n int) int { panic("unreachable") }
