package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// distCase builds DistStrips' inputs: random coordinates, norms and
// thresholds drawn so that about half the masks' bits are set, one padding
// row (sqa NaN) and one padding column (sqb NaN), and a threshold of +Inf
// on another column (an empty neighbour list).
func distCase(rnd *rand.Rand, p, nb int) (a, b, sqa, thra, sqb, thrb []float64) {
	a = make([]float64, p*DistRows)
	b = make([]float64, nb*p*DistCols)
	for i := range a {
		a[i] = rnd.NormFloat64()
	}
	for i := range b {
		b[i] = rnd.NormFloat64()
	}
	sqa, thra = make([]float64, DistRows), make([]float64, DistRows)
	sqb, thrb = make([]float64, nb*DistCols), make([]float64, nb*DistCols)
	for r := range sqa {
		sqa[r] = float64(p) * (1 + rnd.Float64())
		thra[r] = 2 * float64(p) * rnd.Float64() * rnd.Float64()
	}
	for c := range sqb {
		sqb[c] = float64(p) * (1 + rnd.Float64())
		thrb[c] = 2 * float64(p) * rnd.Float64() * rnd.Float64()
	}
	sqa[DistRows-1] = math.NaN()
	sqb[len(sqb)-1] = math.NaN()
	thrb[3] = math.Inf(1)
	return
}

// TestDistStripsKernel checks the AVX-512 and AVX2 kernels against
// distStripsGo bit for bit (masks, and the distances of strips with a set
// bit), and distStripsGo (which leaves d untouched for strips without
// one) against the definition: g by sequential fused multiply–adds,
// d = (sqa + sqb) − 2g, bit c of row r set iff d ≤ thra_r or d ≤ thrb_c.
func TestDistStripsKernel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 9))
	for _, p := range []int{1, 2, 7, 8, 9, 15, 16, 50, 64, 101, 784} {
		for _, nb := range []int{1, 2, 5} {
			a, b, sqa, thra, sqb, thrb := distCase(rnd, p, nb)
			if nb == 5 { // strip 2 has no bit set
				for c := 2 * DistCols; c < 3*DistCols; c++ {
					thrb[c] = -1
				}
				for r := range thra {
					thra[r] = -1
				}
			}
			const blk = DistRows * DistCols
			sentinel := math.Float64frombits(0x7ff4dead0000beef)
			run := func(f func(a, b []float64, p, nb int, sqa, thra, sqb, thrb, d []float64, mask []uint16)) ([]float64, []uint16) {
				d := make([]float64, nb*blk)
				for i := range d {
					d[i] = sentinel
				}
				mask := make([]uint16, nb*DistRows)
				f(a, b, p, nb, sqa, thra, sqb, thrb, d, mask)
				return d, mask
			}
			dg, mg := run(distStripsGo)
			for s := 0; s < nb; s++ {
				any := false
				for r := 0; r < DistRows; r++ {
					var want uint16
					for c := 0; c < DistCols; c++ {
						g := 0.0
						for l := 0; l < p; l++ {
							g = math.FMA(a[l*DistRows+r], b[s*p*DistCols+l*DistCols+c], g)
						}
						v := sqa[r] + sqb[s*DistCols+c] - 2*g
						if v <= thra[r] || v <= thrb[s*DistCols+c] {
							want |= 1 << c
						}
						if tv := dg[s*blk+r*DistCols+c]; math.Float64bits(tv) != math.Float64bits(sentinel) && math.Float64bits(tv) != math.Float64bits(v) {
							t.Fatalf("p=%d strip %d (%d,%d): Go kernel d = %v, want %v", p, s, r, c, tv, v)
						}
					}
					if mg[s*DistRows+r] != want {
						t.Fatalf("p=%d strip %d row %d: Go kernel mask %016b, want %016b", p, s, r, mg[s*DistRows+r], want)
					}
					any = any || want != 0
				}
				stored := math.Float64bits(dg[s*blk]) != math.Float64bits(sentinel)
				if stored != any {
					t.Fatalf("p=%d strip %d: block stored %v, some bit set %v", p, s, stored, any)
				}
			}
			if mg[DistRows-1] != 0 {
				t.Fatalf("p=%d: the NaN row has mask %016b", p, mg[DistRows-1])
			}
			kernels := map[string]func(a, b *float64, p, nb int, sqa, thra, sqb, thrb, d *float64, mask *uint16){}
			if useAvx512 {
				kernels["AVX-512"] = distStrips14x16Avx512
			}
			if useAsm {
				kernels["AVX2"] = distStrips14x16Avx2
			}
			for name, kern := range kernels {
				da, ma := run(func(a, b []float64, p, nb int, sqa, thra, sqb, thrb, d []float64, mask []uint16) {
					kern(&a[0], &b[0], p, nb, &sqa[0], &thra[0], &sqb[0], &thrb[0], &d[0], &mask[0])
				})
				for i := range mg {
					if ma[i] != mg[i] {
						t.Fatalf("p=%d nb=%d: %s mask[%d] = %016b, Go %016b", p, nb, name, i, ma[i], mg[i])
					}
				}
				for s := 0; s < nb; s++ {
					if math.Float64bits(dg[s*blk]) == math.Float64bits(sentinel) {
						continue // no bit set: d unspecified
					}
					for i := s * blk; i < (s+1)*blk; i++ {
						if math.Float64bits(da[i]) != math.Float64bits(dg[i]) {
							t.Fatalf("p=%d nb=%d: %s d[%d] = %v (%#x), Go %v (%#x)", p, nb, name, i, da[i], math.Float64bits(da[i]), dg[i], math.Float64bits(dg[i]))
						}
					}
				}
			}
		}
	}
	if !useAsm {
		t.Skip("no AVX2: only the Go kernel was checked")
	}
}

// BenchmarkDistStrips: one strip of 14 points against 64 strips of 16,
// p = 50 (2·14·16·64·50 flops per call), on each kernel.
func BenchmarkDistStrips(b *testing.B) {
	const p, nb = 50, 64
	rnd := rand.New(rand.NewPCG(1, 2))
	a, bb, sqa, thra, sqb, thrb := distCase(rnd, p, nb)
	for r := range thra {
		thra[r] = -1
	}
	for c := range thrb {
		thrb[c] = -1
	}
	d := make([]float64, nb*DistRows*DistCols)
	mask := make([]uint16, nb*DistRows)
	kernels := map[string]func(a, b *float64, p, nb int, sqa, thra, sqb, thrb, d *float64, mask *uint16){}
	if useAvx512 {
		kernels["AVX-512"] = distStrips14x16Avx512
	}
	if useAsm {
		kernels["AVX2"] = distStrips14x16Avx2
	}
	for _, name := range []string{"AVX-512", "AVX2"} {
		kern, ok := kernels[name]
		if !ok {
			continue
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				kern(&a[0], &bb[0], p, nb, &sqa[0], &thra[0], &sqb[0], &thrb[0], &d[0], &mask[0])
			}
			b.ReportMetric(2*DistRows*DistCols*nb*p*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFlop/s")
		})
	}
}
