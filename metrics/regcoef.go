package metrics

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Regression-coefficient deviation of metrics.md §2.10 (Morais 2022, Eq. 5.13).
func init() {
	Register(Func(Info{ID: "reg_coef_dev", Unit: "frac", Better: Lower,
		Description: "Σ|(β^x−β^y)/β^x| of the OLS of the first column on the others with intercept (Morais 2022, Eq. 5.13; docs/perturbative.md)"},
		RegCoefDev))
}

// RegCoefDev returns Σ_l |(β_l^x − β_l^y)/β_l^x| over the coefficients (intercept first) of the
// OLS regression of the first column on the remaining columns, fitted once on X and once on
// X'. Terms with β^x = 0 are excluded. The model is fixed so that the metric needs no
// configuration: order the dataset's columns to choose the response. NaN when p < 2, n ≤ p,
// or a design that is rank-deficient in X or X'. With a missing cell both models are fitted
// on the complete cases (metrics.md §0.4).
func RegCoefDev(in *Input) Result {
	if cc := in.complete(); cc != nil { // complete cases (metrics.md §0.4)
		return cc.eval(func(in *Input) Result { return RegCoefDev(in) })
	}
	n, p := in.Orig.N, in.Orig.P
	if p < 2 || n <= p || hasNaN(in.Orig.Data, in.Masked.Data) {
		return nan()
	}
	bx, ok1 := olsFirstOnRest(in.Orig.Data, n, p)
	by, ok2 := olsFirstOnRest(in.Masked.Data, n, p)
	if !ok1 || !ok2 {
		return nanNote("rank-deficient regression design")
	}
	var s float64
	for l := range bx {
		if bx[l] != 0 {
			s += math.Abs((bx[l] - by[l]) / bx[l])
		}
	}
	return Result{Value: s}
}

// olsFirstOnRest returns the OLS coefficients (intercept, β_2..β_p) of column 0 on columns
// 1..p−1 of the row-major n×p data, solved by QR.
func olsFirstOnRest(data []float64, n, p int) ([]float64, bool) {
	a := mat.NewDense(n, p, nil)
	b := mat.NewVecDense(n, nil)
	for i := 0; i < n; i++ {
		a.Set(i, 0, 1)
		for j := 1; j < p; j++ {
			a.Set(i, j, data[i*p+j])
		}
		b.SetVec(i, data[i*p])
	}
	var qr mat.QR
	qr.Factorize(a)
	var x mat.VecDense
	if err := qr.SolveVecTo(&x, false, b); err != nil {
		return nil, false
	}
	return x.RawVector().Data, true
}
