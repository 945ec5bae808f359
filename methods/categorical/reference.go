package categorical

import (
	"embed"
	"encoding/csv"
	"fmt"
	"strconv"
)

// sdcMicro 5.8.1's outputs on testdata, made by sdcmicro/sdcmicro.R; the tests and the
// perturbative-categorical report compare against them.
//
//go:embed sdcmicro/*.csv
var reference embed.FS

func readReference(name string) ([][]string, error) {
	f, err := reference.Open("sdcmicro/" + name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) < 2 {
		return nil, fmt.Errorf("categorical: reference %s: %v", name, err)
	}
	return recs[1:], nil
}

// SdcMicroLocalSupp returns the 0-based rows sdcMicro 5.8.1's localSupp suppressed on
// testdata (keys urbrur, roof, walls, water, electcon, relat, sex; no weights) for the steps
// "water:0.4" and then "relat:0.7".
func SdcMicroLocalSupp() (map[string][]int, error) {
	recs, err := readReference("localsupp.csv")
	if err != nil {
		return nil, err
	}
	out := map[string][]int{}
	for _, r := range recs {
		i, err := strconv.Atoi(r[1])
		if err != nil {
			return nil, fmt.Errorf("categorical: reference localsupp.csv: %v", err)
		}
		out[r[0]] = append(out[r[0]], i-1)
	}
	return out, nil
}

// SdcMicroPRAMRoof returns sdcMicro 5.8.1's invariant PRAM matrix for testdata's roof (pd
// 0.75, alpha 0.5), the diagonal draws it used and the level labels.
func SdcMicroPRAMRoof() (levels []string, pd []float64, rs [][]float64, err error) {
	recs, err := readReference("pram_roof.csv")
	if err != nil {
		return nil, nil, nil, err
	}
	for _, r := range recs {
		levels = append(levels, r[0])
		v, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("categorical: reference pram_roof.csv: %v", err)
		}
		pd = append(pd, v)
		var row []float64
		for _, s := range r[2:] {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("categorical: reference pram_roof.csv: %v", err)
			}
			row = append(row, x)
		}
		rs = append(rs, row)
	}
	return levels, pd, rs, nil
}

// SdcMicroPRAMChanges returns the records changed by 100 independent calls of sdcMicro
// 5.8.1's pram on testdata: roof with pd 0.75, alpha 0.5 and no strata, and sex with the
// explicit matrix rows (1, 0), (0.05, 0.95).
func SdcMicroPRAMChanges() (roof, sex []float64, err error) {
	recs, err := readReference("pram_changes.csv")
	if err != nil {
		return nil, nil, err
	}
	for _, r := range recs {
		a, err1 := strconv.ParseFloat(r[1], 64)
		b, err2 := strconv.ParseFloat(r[2], 64)
		if err1 != nil || err2 != nil {
			return nil, nil, fmt.Errorf("categorical: reference pram_changes.csv: bad row %v", r)
		}
		roof, sex = append(roof, a), append(sex, b)
	}
	return roof, sex, nil
}
