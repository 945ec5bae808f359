package microagg

// The block sums of MDAV's centroid (mdavstate.go): each sum block's column sums recomputed
// from the lane buffer, whose dead rows hold −0 (kill), without a branch per row
// (docs/scaling.md, "MDAV at large k").

// sumBlock recomputes the column sums of the live rows of sum block b: per column, the live
// rows' values added in ascending row order to 0, the additions of the plain row loop. From
// the lane buffer it keeps the sums of up to four columns in registers while it walks the rows
// (sumLanes): the same additions in the same order, so the same bits, without a store and
// reload of each running sum per row (docs/scaling.md, "MDAV at large k").
func (s *mdavState) sumBlock(b int) {
	d := s.d
	sum := s.bsum[b*d : (b+1)*d : (b+1)*d]
	lo, hi := b*sumRows, min((b+1)*sumRows, s.m)
	if s.rows == nil {
		clear(sum)
		for t := lo; t < hi; t++ {
			if s.dead[t] {
				continue
			}
			i := int(s.act[t])
			for j, v := range s.z[i*d : i*d+d] {
				sum[j] += v
			}
		}
	} else {
		for j := 0; j < d; j += 4 {
			sumLanes(sum[j:min(j+4, d)], s.rows, lo, hi, d, j)
		}
	}
	s.bdirty[b] = false
}

// sumOctet is sumBlock for the eight whole sum blocks b..b+7 of the lane buffer. With AVX2
// the eight blocks are summed at once (sumBlocks8AVX2: each block's sums in one lane, its
// additions those of the row loop, in its order), and otherwise two at a time (sumPair).
func (s *mdavState) sumOctet(b int) {
	d := s.d
	if !useAVX2 {
		for i := 0; i < 8; i += 2 {
			s.sumPair(b + i)
		}
		return
	}
	if len(s.octet) < 8*d {
		s.octet = make([]float64, 8*d)
	}
	lo := b * sumRows * d // the first row's offset: whole lane groups
	_ = s.rows[lo+8*sumRows*d-1]
	sumBlocks8AVX2(&s.octet[0], &s.rows[lo], d)
	for i := range 8 {
		sum := s.bsum[(b+i)*d : (b+i+1)*d]
		for j := range sum {
			sum[j] = s.octet[8*j+i]
		}
		s.bdirty[b+i] = false
	}
}

// sumPair is sumBlock for the whole sum blocks b and b+1 of the lane buffer, computed
// together: the two blocks' running sums are independent, so interleaving them halves the
// chain of dependent additions the loop waits on.
func (s *mdavState) sumPair(b int) {
	d := s.d
	sa := s.bsum[b*d : (b+1)*d : (b+1)*d]
	sb := s.bsum[(b+1)*d : (b+2)*d : (b+2)*d]
	lo := b * sumRows
	for j := 0; j < d; j += 4 {
		sumLanes2(sa[j:min(j+4, d)], sb[j:min(j+4, d)], s.rows, lo, d, j)
	}
	s.bdirty[b], s.bdirty[b+1] = false, false
}

// sumLanes sets sum (1 to 4 columns from column j) to the column sums of the rows lo..hi−1
// of the lane buffer rows (d columns; lo a multiple of 4): each column's values added in
// ascending row order to 0. Dead rows hold −0 (kill), the identity of floating-point
// addition (x + −0 = x for every x, NaN and −0 included), so adding them changes no bit: the
// sums are those of the live rows alone.
func sumLanes(sum, rows []float64, lo, hi, d, j int) {
	var a0, a1, a2, a3 float64
	w := len(sum)
	for t := lo; t < hi; t++ {
		r := rows[(t>>2)*4*d+4*j+t&3:]
		a0 += r[0]
		if w > 1 {
			a1 += r[4]
			if w > 2 {
				a2 += r[8]
				if w > 3 {
					a3 += r[12]
				}
			}
		}
	}
	for c, v := range [4]float64{a0, a1, a2, a3} {
		if c < w {
			sum[c] = v
		}
	}
}

// sumLanes2 is sumLanes for the sum blocks at rows lo..lo+sumRows−1 (into sa) and the next
// sumRows rows (into sb), interleaved.
func sumLanes2(sa, sb, rows []float64, lo, d, j int) {
	var a0, a1, a2, a3, b0, b1, b2, b3 float64
	w := len(sa)
	offB := sumRows * d // from a row of the first block to the same row of the second
	for t := lo; t < lo+sumRows; t++ {
		k := (t>>2)*4*d + 4*j + t&3
		r, q := rows[k:], rows[k+offB:]
		a0 += r[0]
		b0 += q[0]
		if w > 1 {
			a1 += r[4]
			b1 += q[4]
			if w > 2 {
				a2 += r[8]
				b2 += q[8]
				if w > 3 {
					a3 += r[12]
					b3 += q[12]
				}
			}
		}
	}
	for c, v := range [4]float64{a0, a1, a2, a3} {
		if c < w {
			sa[c] = v
		}
	}
	for c, v := range [4]float64{b0, b1, b2, b3} {
		if c < w {
			sb[c] = v
		}
	}
}
