package vec

import "math"

// DistRows and DistCols are the shape of DistStrips' blocks: DistRows
// points of a packed strip of A against DistCols points of each packed
// strip of B.
const (
	DistRows = 14
	DistCols = 16
)

// HasDistKernel reports whether DistStrips runs on a vector kernel
// (AVX-512, or AVX2 with fused multiply–add) on this processor and build;
// otherwise it runs on distStripsGo, the same arithmetic in plain Go, far
// slower.
func HasDistKernel() bool { return useAsm }

// DistStrips computes, for a strip of DistRows points packed in a (p×
// DistRows: a[l·DistRows + r] is coordinate l of point r) and nb strips of
// DistCols points packed in b (strip s is p×DistCols at b[s·p·DistCols]),
// the expanded squared distances of a brute-force neighbour search,
//
//	d_rc = (sqa_r + sqb_c) − 2·g_rc,  g_rc = Σ_l a_lr b_lc,
//
// g summed in order l = 0, 1, …, p−1 by fused multiply–adds from zero (no
// k-panels, no horizontal folds: the kernel accumulates a 14×16 block in
// registers across all p columns), sqa_r + sqb_c and the subtraction each
// rounded once. It is not GemmNT's order, so these sums differ from
// GemmNT's in their last bits; both are within the same bound
// (p·ε·Σ_l |a_lr b_lc| plus the roundings of the expansion).
//
// For each strip s and row r, mask[s·DistRows + r] has bit c set when
// d_rc ≤ thra_r or d_rc ≤ thrb[s·DistCols + c] (false for NaN, so a
// NaN in sqa or sqb marks a padding point that is never reported). When
// some bit of strip s is set, its block is stored row-major at
// d[s·DistRows·DistCols …]; otherwise that part of d is unspecified (the
// AVX-512 kernel leaves it, the AVX2 kernel writes it). sqb, thrb hold
// nb·DistCols values; sqa, thra DistRows. The AVX-512 kernel, the AVX2
// kernel and the plain-Go one give the same bits.
//
// On one core of the development machine (AVX-512) the AVX-512 kernel
// runs at about 50 GFlop/s for p = 50 (2·p flops per entry), near the
// core's fused multiply–add peak of 57.
func DistStrips(a, b []float64, p, nb int, sqa, thra, sqb, thrb, d []float64, mask []uint16) {
	if p < 1 || nb < 1 {
		panic("vec: DistStrips needs p ≥ 1 and nb ≥ 1")
	}
	const blk = DistRows * DistCols
	_, _ = a[p*DistRows-1], b[nb*p*DistCols-1]
	_, _, _, _ = sqa[DistRows-1], thra[DistRows-1], sqb[nb*DistCols-1], thrb[nb*DistCols-1]
	_, _ = d[nb*blk-1], mask[nb*DistRows-1]
	switch {
	case useAvx512:
		distStrips14x16Avx512(&a[0], &b[0], p, nb, &sqa[0], &thra[0], &sqb[0], &thrb[0], &d[0], &mask[0])
		return
	case useAsm:
		distStrips14x16Avx2(&a[0], &b[0], p, nb, &sqa[0], &thra[0], &sqb[0], &thrb[0], &d[0], &mask[0])
		return
	}
	distStripsGo(a, b, p, nb, sqa, thra, sqb, thrb, d, mask)
}

// distStripsGo is DistStrips in plain Go, operation for operation the
// kernel's arithmetic.
func distStripsGo(a, b []float64, p, nb int, sqa, thra, sqb, thrb, d []float64, mask []uint16) {
	const blk = DistRows * DistCols
	var t [blk]float64
	for s := 0; s < nb; s++ {
		bs := b[s*p*DistCols : (s+1)*p*DistCols]
		clear(t[:])
		for l := 0; l < p; l++ {
			al := a[l*DistRows : (l+1)*DistRows]
			bl := bs[l*DistCols : (l+1)*DistCols]
			for r, ar := range al {
				tr := t[r*DistCols : (r+1)*DistCols]
				for c, bc := range bl {
					tr[c] = math.FMA(ar, bc, tr[c])
				}
			}
		}
		any := false
		for r := 0; r < DistRows; r++ {
			var m uint16
			for c := 0; c < DistCols; c++ {
				g := t[r*DistCols+c]
				v := (sqa[r] + sqb[s*DistCols+c]) - (g + g)
				t[r*DistCols+c] = v
				if v <= thra[r] || v <= thrb[s*DistCols+c] {
					m |= 1 << c
				}
			}
			mask[s*DistRows+r] = m
			any = any || m != 0
		}
		if any {
			copy(d[s*blk:(s+1)*blk], t[:])
		}
	}
}
