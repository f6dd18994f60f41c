package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestGemmNT compares GemmNT with the textbook triple loop on every shape
// that exercises the kernel's edges: m and n not multiples of 3 and 4, k
// not a multiple of 4 nor of the k-panel, n across several B panels,
// padded leading dimensions, alpha and beta (beta = 0 must ignore NaN in
// C). Tolerance: 2k·ε·Σ_l |a_il b_jl| (a reordered, fused sum).
func TestGemmNT(t *testing.T) {
	have, haveAsm := useAvx512, useAsm
	defer func() { useAvx512, useAsm = have, haveAsm }()
	for _, wide := range []bool{false, true} {
		if wide && !have {
			t.Log("AVX-512 not available: eight-lane kernel not tested")
			continue
		}
		useAvx512 = wide
		testGemmNT(t)
	}
}

// TestGemmNTSameOnEveryProcessor checks that the AVX-512 kernel, the AVX2
// kernel and the plain-Go path give bit-identical products (one order of
// summation for every entry), so results do not depend on the machine.
func TestGemmNTSameOnEveryProcessor(t *testing.T) {
	have, haveAsm := useAvx512, useAsm
	defer func() { useAvx512, useAsm = have, haveAsm }()
	rnd := rand.New(rand.NewPCG(13, 14))
	for _, sz := range [][3]int{{7, 9, 19}, {31, 70, 300}, {64, 131, 784}} {
		m, n, k := sz[0], sz[1], sz[2]
		a, b := make([]float64, m*k), make([]float64, n*k)
		for i := range a {
			a[i] = rnd.NormFloat64()
		}
		for i := range b {
			b[i] = rnd.NormFloat64()
		}
		var ref []float64
		for _, mode := range []struct {
			name       string
			asm, wide  bool
			needs, got bool
		}{{"plain Go", false, false, false, false}, {"AVX2", true, false, true, haveAsm}, {"AVX-512", true, true, true, have}} {
			if mode.needs && !mode.got {
				t.Logf("%s not available here", mode.name)
				continue
			}
			useAsm, useAvx512 = mode.asm, mode.wide
			c := make([]float64, m*n)
			GemmNT(m, n, k, 1.5, a, k, b, k, 0, c, n)
			if ref == nil {
				ref = c
				continue
			}
			for i := range c {
				if math.Float64bits(c[i]) != math.Float64bits(ref[i]) {
					t.Fatalf("%v %s: entry %d = %v, plain Go %v", sz, mode.name, i, c[i], ref[i])
				}
			}
		}
	}
}

func testGemmNT(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 12))
	for _, m := range []int{1, 2, 3, 4, 7, 12} {
		for _, n := range []int{1, 3, 4, 5, 9, 70, 131} {
			for _, k := range []int{0, 1, 3, 4, 7, 16, 257, 530} {
				for _, ab := range [][2]float64{{1, 0}, {-2, 1}, {0.5, -1.5}} {
					alpha, beta := ab[0], ab[1]
					lda, ldb, ldc := k+3, k+1, n+2
					a, b, c := make([]float64, m*lda), make([]float64, n*ldb), make([]float64, m*ldc)
					for i := range a {
						a[i] = rnd.NormFloat64()
					}
					for i := range b {
						b[i] = rnd.NormFloat64()
					}
					for i := range c {
						c[i] = rnd.NormFloat64()
						if beta == 0 {
							c[i] = math.NaN()
						}
					}
					c0 := append([]float64(nil), c...)
					GemmNT(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
					for i := 0; i < m; i++ {
						for j := 0; j < ldc; j++ {
							got := c[i*ldc+j]
							if j >= n { // padding untouched
								if !(got == c0[i*ldc+j] || math.IsNaN(got) && math.IsNaN(c0[i*ldc+j])) {
									t.Fatalf("m=%d n=%d k=%d: padding C[%d,%d] written", m, n, k, i, j)
								}
								continue
							}
							s, mag := 0.0, 0.0
							for l := 0; l < k; l++ {
								s += a[i*lda+l] * b[j*ldb+l]
								mag += math.Abs(a[i*lda+l] * b[j*ldb+l])
							}
							want := alpha * s
							if beta != 0 {
								want += beta * c0[i*ldc+j]
							}
							tol := 2*float64(k+2)*0x1p-52*(math.Abs(alpha)*mag+math.Abs(beta*c0[i*ldc+j])) + 1e-300
							if math.Abs(got-want) > tol {
								t.Fatalf("m=%d n=%d k=%d alpha=%v beta=%v: C[%d,%d] = %v, want %v", m, n, k, alpha, beta, i, j, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// BenchmarkGemmNT: a ladder of sizes m×n×k, from C in L1 to operands far
// beyond L2 (1000×2000 by 784 is one core's half of the 2000×784·784×2000
// product of scripts/bench), and a short k (255×255 by 10). Run with
// -cpu 1; the metric is GFlop/s (2mnk per product).
func BenchmarkGemmNT(b *testing.B) {
	for _, sz := range [][3]int{{12, 12, 64}, {64, 64, 64}, {128, 128, 128}, {256, 256, 256}, {512, 512, 512}, {240, 2000, 784}, {1000, 2000, 784}, {255, 255, 10}} {
		m, n, k := sz[0], sz[1], sz[2]
		a, bb, c := make([]float64, m*k), make([]float64, n*k), make([]float64, m*n)
		for i := range a {
			a[i] = 1
		}
		for i := range bb {
			bb[i] = 1
		}
		b.Run(fmt.Sprintf("%dx%dx%d", m, n, k), func(b *testing.B) {
			for range b.N {
				GemmNT(m, n, k, 1, a, k, bb, k, 0, c, n)
			}
			b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFlop/s")
		})
	}
}

// refGemmNT is GemmNT's order of summation written out in scalar Go:
// C scaled by beta (set to zero for beta = 0), then for each k-panel of
// gemmKC columns every entry's panel sum — eight lanes accumulated by
// fused multiply–adds over the panel's first kl − kl mod 8 columns, folded
// ((s0+s4) + (s1+s5)) + ((s2+s6) + (s3+s7)), then the last kl mod 8
// products added in order — times alpha, added to C. Each product and sum
// is rounded on its own (explicit conversions: a compiler may otherwise
// fuse x·y + z, as Go's does for GOAMD64=v3).
func refGemmNT(m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			switch beta {
			case 0:
				c[i*ldc+j] = 0
			case 1:
			default:
				c[i*ldc+j] *= beta
			}
		}
	}
	if k == 0 || alpha == 0 {
		return
	}
	for kb := 0; kb < k; kb += gemmKC {
		kl := min(gemmKC, k-kb)
		k8 := kl &^ 7
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				ar, br := a[i*lda+kb:], b[j*ldb+kb:]
				var s [8]float64
				for l := 0; l < k8; l += 8 {
					for q := range s {
						s[q] = math.FMA(ar[l+q], br[l+q], s[q])
					}
				}
				sum := ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]))
				for l := k8; l < kl; l++ {
					sum += float64(ar[l] * br[l])
				}
				c[i*ldc+j] += float64(alpha * sum)
			}
		}
	}
}

// TestGemmNTBitsTable compares GemmNT bit for bit with refGemmNT, and Gemm
// on the three other storage layouts of the same product (layouts), on
// every kernel this processor has (AVX-512's packed 6×4 macro-kernel with
// its padded edge strips or, for one or three last rows, the 3×4 kernel;
// AVX2's packed 3×2; the packed kernels also below gemmPackMinFlops, the
// dot kernels' 3×4 and 2×2, plain Go), on shapes chosen to be awkward for
// the blocking: m and n off every block size (every remainder of m by 6,
// n by 4; across gemmMC = 60 and gemmPackNC = 64, one n across
// gemmNChunk), k < 8, k a multiple of 8
// or not, a last k-panel of fewer than eight columns (513), several
// panels; padded leading dimensions; alpha 1 or not; beta 0 (C holding
// NaN, which must not be read), 1 and other; a zero row of A (whose
// entries, for alpha < 0 and beta = 0, are the +0 of 0 + (−0), not −0).
func TestGemmNTBitsTable(t *testing.T) {
	have, haveAsm := useAvx512, useAsm
	defer func() { useAvx512, useAsm = have, haveAsm }()
	type shape struct{ m, n, k, padA, padB, padC int }
	shapes := []shape{
		{1, 1, 1, 0, 0, 0}, {1, 9, 5, 1, 0, 0}, {6, 4, 8, 0, 0, 0}, {6, 4, 7, 2, 3, 1},
		{7, 5, 9, 0, 1, 2}, {5, 13, 16, 3, 0, 0}, {13, 7, 17, 1, 1, 1}, {12, 8, 64, 0, 0, 0},
		{18, 68, 100, 5, 3, 7}, {25, 70, 513, 1, 2, 3}, {13, 131, 519, 0, 0, 0},
		{247, 9, 24, 1, 1, 1}, {250, 67, 33, 0, 2, 0}, {7, 1030, 16, 0, 0, 5},
		{31, 29, 1030, 2, 1, 0}, {6, 1, 40, 0, 0, 0}, {1, 4, 40, 0, 0, 0},
		{9, 10, 40, 1, 0, 2}, {14, 7, 23, 0, 1, 0}, {17, 66, 520, 2, 0, 1}, {65, 9, 16, 0, 0, 0},
	}
	modes := []struct {
		name      string
		asm, wide bool
		packMin   float64
	}{{"plain Go", false, false, 0}, {"AVX2", true, false, gemmPackMinFlops}, {"AVX2 packed at every size", true, false, 0},
		{"AVX-512", true, true, gemmPackMinFlops}, {"AVX-512 packed at every size", true, true, 0}}
	packMin := gemmPackMinFlops
	defer func() { gemmPackMinFlops = packMin }()
	rnd := rand.New(rand.NewPCG(21, 22))
	for _, sh := range shapes {
		lda, ldb, ldc := sh.k+sh.padA, sh.k+sh.padB, sh.n+sh.padC
		a, b := make([]float64, sh.m*lda), make([]float64, sh.n*ldb)
		for i := range a {
			a[i] = rnd.NormFloat64()
		}
		for i := range b {
			b[i] = rnd.NormFloat64()
		}
		if sh.m > 2 { // a zero row: with alpha < 0 its entries are 0 + (−0) = +0
			clear(a[sh.m/2*lda : sh.m/2*lda+sh.k])
		}
		c0 := make([]float64, sh.m*ldc)
		for i := range c0 {
			c0[i] = rnd.NormFloat64()
		}
		for _, ab := range [][2]float64{{1, 0}, {-2.5, 0}, {2.5, 1}, {-1.0 / 3, -0.5}} {
			alpha, beta := ab[0], ab[1]
			cin := append([]float64(nil), c0...)
			if beta == 0 {
				for i := range cin {
					cin[i] = math.NaN()
				}
			}
			want := append([]float64(nil), cin...)
			refGemmNT(sh.m, sh.n, sh.k, alpha, a, lda, b, ldb, beta, want, ldc)
			for _, mode := range modes {
				if mode.asm && !haveAsm || mode.wide && !have {
					continue
				}
				useAsm, useAvx512, gemmPackMinFlops = mode.asm, mode.wide, mode.packMin
				for _, op := range layouts(sh.m, sh.n, sh.k, a, lda, b, ldb) {
					got := append([]float64(nil), cin...)
					Gemm(op.tA, op.tB, sh.m, sh.n, sh.k, alpha, op.a, op.lda, op.b, op.ldb, beta, got, ldc)
					for i := range got {
						if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
							t.Fatalf("%+v alpha=%v beta=%v %s, %s: C[%d,%d] = %v, reference %v",
								sh, alpha, beta, mode.name, op.name, i/ldc, i%ldc, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestGemmNTSpecialValues compares GemmNT bit for bit with refGemmNT (NaN
// against NaN) on operands holding NaN, ±Inf, ±1e300, ±1e154 (whose
// products overflow), −0, subnormals and the smallest normal number —
// sparsely, and densely enough that most sums meet one — including a row
// of −0 and one of subnormals, on shapes one below, at and one above the
// packed kernel's blocks (gemmMC = 60 rows of A, gemmPackNC = 64 of B,
// gemmNChunk = 1024, k-panels of gemmKC = 512), with alpha and beta
// among 0, −0, ±1, NaN, Inf and 1e300, on every kernel this processor has.
func TestGemmNTSpecialValues(t *testing.T) {
	have, haveAsm := useAvx512, useAsm
	defer func() { useAvx512, useAsm = have, haveAsm }()
	packMin := gemmPackMinFlops
	defer func() { gemmPackMinFlops = packMin }()
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, 1e154, -1e154,
		math.Copysign(0, -1), 0, 5e-324, -4.9e-310, 0x1p-1022}
	rnd := rand.New(rand.NewPCG(99, 7))
	entry := func(p float64) float64 {
		if rnd.Float64() < p {
			return special[rnd.IntN(len(special))]
		}
		return rnd.NormFloat64()
	}
	type shape struct{ m, n, k int }
	var shapes []shape
	for _, m := range []int{59, 60, 61} {
		for _, n := range []int{63, 64, 65} {
			for _, k := range []int{7, 511, 513} {
				shapes = append(shapes, shape{m, n, k})
			}
		}
	}
	shapes = append(shapes, shape{7, 1025, 16}, shape{13, 5, 1025})
	modes := []struct {
		name      string
		asm, wide bool
		packMin   float64
	}{{"plain Go", false, false, 0}, {"AVX2", true, false, packMin}, {"AVX2 packed", true, false, 0},
		{"AVX-512", true, true, packMin}, {"AVX-512 packed", true, true, 0}}
	for si, sh := range shapes {
		lda, ldb, ldc := sh.k+si%3, sh.k+si%2, sh.n+1
		p := 0.002
		if si%4 == 0 {
			p = 0.3
		}
		a, b := make([]float64, sh.m*lda), make([]float64, sh.n*ldb)
		for i := range a {
			a[i] = entry(p)
		}
		for i := range b {
			b[i] = entry(p)
		}
		for l := 0; l < sh.k; l++ {
			a[l] = math.Copysign(0, -1)
			a[lda+l] = 5e-324 * float64(l%3)
		}
		c0 := make([]float64, sh.m*ldc)
		for i := range c0 {
			c0[i] = entry(p)
		}
		negZero := math.Copysign(0, -1)
		for _, ab := range [][2]float64{{1, 0}, {-1, 0}, {negZero, 0}, {0, 1}, {-1.0 / 3, -0.5},
			{1e300, 0}, {math.NaN(), 0}, {1, negZero}, {math.Inf(1), 2}} {
			alpha, beta := ab[0], ab[1]
			want := append([]float64(nil), c0...)
			refGemmNT(sh.m, sh.n, sh.k, alpha, a, lda, b, ldb, beta, want, ldc)
			for _, mode := range modes {
				if mode.asm && !haveAsm || mode.wide && !have {
					continue
				}
				useAsm, useAvx512, gemmPackMinFlops = mode.asm, mode.wide, mode.packMin
				for _, op := range layouts(sh.m, sh.n, sh.k, a, lda, b, ldb) {
					got := append([]float64(nil), c0...)
					Gemm(op.tA, op.tB, sh.m, sh.n, sh.k, alpha, op.a, op.lda, op.b, op.ldb, beta, got, ldc)
					for i := range got {
						if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
							t.Fatalf("%+v alpha=%v beta=%v %s, %s: C[%d,%d] = %v, reference %v",
								sh, alpha, beta, mode.name, op.name, i/ldc, i%ldc, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// layout is one storage of the operands of a product op(A)·op(B) for
// Gemm.
type layout struct {
	name     string
	tA, tB   bool
	a, b     []float64
	lda, ldb int
}

// layouts returns the four storages of the product A·Bᵀ (A m×k, B n×k,
// leading dimensions lda and ldb) that Gemm accepts: GemmNT's (A, B
// stored as given, tB), and those with A stored k×m (tA) and B stored k×n
// (not tB), each transposed copy with leading dimension two over its
// width. All four must give the same bits.
func layouts(m, n, k int, a []float64, lda int, b []float64, ldb int) []layout {
	tr := func(x []float64, ld, rows int) ([]float64, int) {
		ldt := rows + 2
		y := make([]float64, max(0, k*ldt))
		for i := range y {
			y[i] = math.NaN() // the padding must not be read
		}
		for i := 0; i < rows; i++ {
			for l := 0; l < k; l++ {
				y[l*ldt+i] = x[i*ld+l]
			}
		}
		return y, ldt
	}
	at, ldat := tr(a, lda, m)
	bt, ldbt := tr(b, ldb, n)
	return []layout{{"A·Bᵀ", false, true, a, b, lda, ldb}, {"Aᵀ·Bᵀ", true, true, at, b, ldat, ldb},
		{"A·B", false, false, a, bt, lda, ldbt}, {"Aᵀ·B", true, false, at, bt, ldat, ldbt}}
}

// TestPackStripT checks the transposing pack of the AVX-512 kernel
// (packStripTAvx512) entry by entry against packStripGo: every strip
// height the kernels use, every count of rows read (the rest zero), and
// a leading dimension whose padding holds NaN, which must not be read.
func TestPackStripT(t *testing.T) {
	if !useAvx512 {
		t.Skip("AVX-512 not available")
	}
	const k8, ld = 24, 11
	x := make([]float64, k8*ld)
	for i := range x {
		x[i] = float64(i)
		if i%ld >= 8 {
			x[i] = math.NaN()
		}
	}
	for rs := 4; rs <= 8; rs++ {
		for rows := 1; rows <= rs; rows++ {
			got, want := make([]float64, rs*k8), make([]float64, rs*k8)
			for i := range got {
				got[i] = -1
			}
			packStripTAvx512(&got[0], &x[0], ld, rows, rs, k8)
			packStripGo(want, factor{x, ld, true}, 0, rows, rs, 0, k8)
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("rs=%d rows=%d: dst[%d] = %v, want %v", rs, rows, i, got[i], want[i])
				}
			}
		}
	}
}
