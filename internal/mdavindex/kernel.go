package mdavindex

// The MDAV buffer stores the active rows four at a time, column-interleaved ("lanes = rows"):
// row t, column j is at rows[(t/4)*4*d + 4*j + t%4]. A distance pass then reads four rows'
// column j as one contiguous 32-byte vector. Every lane still computes
//
//	s = 0; for j := 0; j < d; j++ { t := row[j] − q[j]; s += float64(t*t) }
//
// with separate rounding of the product and the sum (no FMA), so the SIMD kernel and the
// portable one return bit-identical distances.

// LaneOffset returns the index of row t, column j in a lane buffer of d columns.
func LaneOffset(t, j, d int) int { return (t>>2)*4*d + 4*j + t&3 }

// BroadcastQuery fills qb (len 4·d) with four copies of each q_j, the layout the kernels read.
func BroadcastQuery(qb, q []float64) {
	for j, v := range q {
		qb[4*j], qb[4*j+1], qb[4*j+2], qb[4*j+3] = v, v, v, v
	}
}

// DistLanes writes to out[4g … 4g+3] the squared distances of the four rows of each lane group
// g of rows (groups·4·d values in the lane layout of LaneOffset) to the point broadcast in qb
// (BroadcastQuery), each rounded as the scalar column-order loop above rounds it, with the
// AVX2 kernel where there is one and the portable loop otherwise.
func DistLanes(out, rows, qb []float64, d, groups int) {
	if groups == 0 {
		return
	}
	_ = out[4*groups-1]
	_ = rows[4*d*groups-1]
	_ = qb[4*d-1]
	if useAVX2 {
		distLanesAVX2(&out[0], &rows[0], &qb[0], d, groups)
		return
	}
	distLanesGo(out, rows, qb, d, groups)
}

// distLanesGo is the portable kernel.
func distLanesGo(out, rows, qb []float64, d, groups int) {
	qb = qb[:4*d]
	for g := 0; g < groups; g++ {
		r := rows[g*4*d : (g+1)*4*d : (g+1)*4*d]
		var s0, s1, s2, s3 float64
		for j := 0; j < 4*d; j += 4 {
			t0 := r[j] - qb[j]
			t1 := r[j+1] - qb[j+1]
			t2 := r[j+2] - qb[j+2]
			t3 := r[j+3] - qb[j+3]
			s0 += float64(t0 * t0)
			s1 += float64(t1 * t1)
			s2 += float64(t2 * t2)
			s3 += float64(t3 * t3)
		}
		out[4*g], out[4*g+1], out[4*g+2], out[4*g+3] = s0, s1, s2, s3
	}
}
