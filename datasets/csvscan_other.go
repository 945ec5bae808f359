//go:build !amd64 || purego

package datasets

// useAVX512 is false: there is no vector kernel here (csvscan_amd64.go).
const useAVX512 = false

// numericGroups is numericLine's vector kernel where there is one (csvscan_amd64.go); here
// it takes nothing and numericLineFrom reads the whole line.
func numericGroups(b []byte, end int, row []float64, short int) (taken, pos int) {
	return 0, 0
}
