package synth

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The optimized FCM gives bit-identical memberships to the straightforward version it
// replaced (kept here as the reference), so results recorded before the change stay valid.
func TestFCMMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for trial := range 30 {
		n, k, c := 5+rng.IntN(200), 1+rng.IntN(12), 1+rng.IntN(20)
		a := make([]float64, n*k)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		cfg := FCMConfig{C: c, M: []float64{1.5, 2, 1.7}[trial%3], Lambda: 1e-5, MaxIter: 1 + rng.IntN(200)}
		seed := rng.Uint64()
		u1, it1 := FCM(a, n, k, cfg, rand.New(rand.NewPCG(seed, 1)))
		u2, it2 := fcmReference(a, n, k, cfg, rand.New(rand.NewPCG(seed, 1)))
		if it1 != it2 {
			t.Fatalf("trial %d: iterations %d vs %d", trial, it1, it2)
		}
		for i := range u1 {
			if math.Float64bits(u1[i]) != math.Float64bits(u2[i]) {
				t.Fatalf("trial %d (m %v): U[%d] = %v, reference %v", trial, cfg.M, i, u1[i], u2[i])
			}
		}
	}
}

func fcmReference(a []float64, n, k int, cfg FCMConfig, rng *rand.Rand) (u []float64, iters int) {
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
	for iters = 1; iters <= cfg.MaxIter; iters++ {
		clear(p)
		clear(den)
		for i := range n {
			ai := a[i*k : (i+1)*k]
			for j := range c {
				w := powM(u[i*c+j], cfg.M)
				den[j] += w
				pj := p[j*k : (j+1)*k]
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
				pj := p[j*k : (j+1)*k]
				var s float64
				for l, v := range ai {
					t := v - pj[l]
					s += t * t
				}
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
			delta = max(delta, membershipReference(d, e, row))
		}
		if delta < cfg.Lambda {
			break
		}
	}
	return u, min(iters, cfg.MaxIter)
}

func membershipReference(d []float64, e float64, row []float64) float64 {
	dmin := d[0]
	for _, v := range d {
		dmin = min(dmin, v)
	}
	var s float64
	for j, v := range d {
		r := dmin / v // in (0, 1]
		var w float64
		switch e {
		case 2:
			w = r * r
		case 1:
			w = r
		default:
			w = math.Pow(r, e)
		}
		d[j] = w
		s += w
	}
	var delta float64
	for j, w := range d {
		nu := w / s
		delta = max(delta, math.Abs(nu-row[j]))
		row[j] = nu
	}
	return delta
}
