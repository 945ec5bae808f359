//go:build !linux

package hugeheap

func reserve(int) (Result, error) {
	return Result{Reason: "transparent huge pages are a Linux feature"}, nil
}
