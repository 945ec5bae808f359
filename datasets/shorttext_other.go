//go:build !amd64 || purego

package datasets

const useShortTextAVX512 = false

func shortTextAVX512(w *shortWords, blocks int) { panic("unreachable") }
