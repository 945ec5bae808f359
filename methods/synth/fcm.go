package synth

import (
	"math"
	"math/rand/v2"

	"github.com/sdcbench/sdcbench/internal/distance"
)

// FCMConfig holds the fuzzy c-means settings (docs/fcrm.md "FCM").
type FCMConfig struct {
	C       int     // clusters
	M       float64 // fuzzifier m > 1
	Lambda  float64 // stop when max |ΔU| < Lambda
	MaxIter int
}

// FCM runs fuzzy c-means on the n points of dimension k in a (row-major) and returns the
// memberships U (n×c row-major, rows sum to 1) and the iterations done. The initial
// memberships are u_ik iid U(0,1) drawn row by row and normalized per row. Each iteration
// computes centroids p_k = Σ_i U_ik^m a_i / Σ_i U_ik^m, squared distances D_ik and
//
//	U'_ik = [Σ_j (D_ik/D_ij)^{1/(m−1)}]^{-1},
//
// or equal shares among the clusters at distance 0 when a point sits on centroids; it stops
// when max |U' − U| < Lambda or after MaxIter iterations. C = 1 gives U ≡ 1 without drawing.
func FCM(a []float64, n, k int, cfg FCMConfig, rng *rand.Rand) (u []float64, iters int) {
	c := cfg.C
	u = make([]float64, n*c)
	if c == 1 {
		for i := range u {
			u[i] = 1
		}
		return u, 0
	}
	for i := range n {
		row := u[i*c : (i+1)*c]
		var s float64
		for j := range row {
			row[j] = rng.Float64()
			s += row[j]
		}
		for j := range row {
			row[j] /= s
		}
	}
	p := make([]float64, c*k)
	den := make([]float64, c)
	d := make([]float64, c)
	e := 1 / (cfg.M - 1)
	m15 := cfg.M == 1.5 // the default fuzzifier: u^m = u·√u inline
	for iters = 1; iters <= cfg.MaxIter; iters++ {
		clear(p)
		clear(den)
		for i := range n {
			ai := a[i*k : (i+1)*k]
			ui := u[i*c : (i+1)*c]
			for j, uij := range ui {
				var w float64
				if m15 {
					w = uij * math.Sqrt(uij)
				} else {
					w = powM(uij, cfg.M)
				}
				den[j] += w
				pj := p[j*k : j*k+len(ai)]
				for l, v := range ai {
					pj[l] += w * v
				}
			}
		}
		for j := range c {
			if den[j] > 0 {
				pj := p[j*k : (j+1)*k]
				for l := range pj {
					pj[l] /= den[j]
				}
			}
		}
		var delta float64
		for i := range n {
			ai := a[i*k : (i+1)*k]
			zeros := 0
			for j := range c {
				s := distance.Sq(ai, p[j*k:j*k+len(ai)])
				d[j] = s
				if s == 0 {
					zeros++
				}
			}
			row := u[i*c : (i+1)*c]
			if zeros > 0 {
				for j := range c {
					nu := 0.0
					if d[j] == 0 {
						nu = 1 / float64(zeros)
					}
					delta = max(delta, math.Abs(nu-row[j]))
					row[j] = nu
				}
				continue
			}
			delta = max(delta, membership(d, e, row))
		}
		if delta < cfg.Lambda {
			break
		}
	}
	return u, min(iters, cfg.MaxIter)
}

// membership overwrites row with U_j = [Σ_l (d_j/d_l)^e]^{-1} for positive d, computed
// stably as w_j = (d_j/d_min)^{−e} normalized, and returns max |U' − U|.
func membership(d []float64, e float64, row []float64) float64 {
	dmin := d[0]
	for _, v := range d {
		dmin = min(dmin, v)
	}
	var s float64
	if e == 2 { // m = 1.5
		for j, v := range d {
			r := dmin / v // in (0, 1]
			w := r * r
			d[j] = w
			s += w
		}
	} else {
		for j, v := range d {
			r := dmin / v
			var w float64
			if e == 1 {
				w = r
			} else {
				w = math.Pow(r, e)
			}
			d[j] = w
			s += w
		}
	}
	var delta float64
	for j, w := range d {
		nu := w / s
		delta = max(delta, math.Abs(nu-row[j]))
		row[j] = nu
	}
	return delta
}

// powM returns u^m, with the fuzzifiers in use (1.5, 2) computed without math.Pow, which
// dominated FCM's profile.
func powM(u, m float64) float64 {
	switch m {
	case 1.5:
		return u * math.Sqrt(u)
	case 2:
		return u * u
	default:
		return math.Pow(u, m)
	}
}
