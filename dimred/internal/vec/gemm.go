package vec

import (
	"math"
	"sync"
)

// GemmNT sets C = alpha·A·Bᵀ + beta·C for row-major A (m×k, leading
// dimension lda), B (n×k, ldb) and C (m×n, ldc): every entry an inner
// product of a row of A with a row of B, the form of Gram matrices Y Yᵀ
// and of the cross terms of squared distances. As in BLAS, beta = 0 sets C
// without reading it. It runs on one core; callers split C by rows.
//
// C is computed over k-panels of gemmKC columns. On AVX-512 it runs on a
// packed macro-kernel (gemmPacked: strips of six rows of A and four of B
// copied to contiguous interleaved buffers, 6×4 entries in 24 eight-lane
// registers), on AVX2 on strips of 3 and 2 (3×2 entries, each in two
// four-lane registers); where m or n is not a multiple of the strip, the
// last strip is padded with zero rows. Small products and all of C without
// AVX2 run on the register-blocked kernels over the operands in place
// (gemmDot: 3×4 entries on AVX-512, 2×2 on AVX2, else dot8 per entry).
// Every entry — inside C or on its edge, packed or not, with or without
// either instruction set — is summed in one order (dot8's within each
// k-panel, the panels added to C in turn), so products are bit-identical
// on every amd64 processor, whatever it supports.
//
// On the development machine (AVX-512, 32 KB of L1 and 1 MB of L2 per
// core, a fused multiply–add peak of about 59 GFlop/s per core) the packed
// kernel gives 50–52 GFlop/s per CPU-second on one core for 1000 or 2000
// rows by 2000 by 784, where the former 3×4 kernel on the operands in
// place gave 42–47 (the AVX2 path there: 35–39 packed, 27–29 before). In
// scripts/bench's 2000×784·784×2000 and 4000×784·784×4000 products, in 24
// side-by-side runs at a load average near 4 with one thread a side and
// with two, that is 0.85–1.09 (median 0.93) of OpenBLAS's dgemm per
// CPU-second, where the former kernel gave 0.56–0.73 (median 0.64); with
// B read in place by Gemm (no transposed copy) and C split by columns,
// 0.95–1.13 (median 0.99) in 16 runs (see linalg's fastBLAS). With its
// operands in cache the 6×4 kernel runs at 57 GFlop/s for k-panels of 512
// and 56 for 272 (2000×784's two panels) against 59 for a loop of
// independent fused multiply–adds alone (the core's peak); the difference
// is folding each entry's eight lanes to one, about 35 cycles per 6×4
// tile and panel, which the order of summation fixes.
func GemmNT(m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	Gemm(false, true, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Gemm sets C = alpha·op(A)·op(B) + beta·C, BLAS's dgemm on row-major
// operands: op(A) (m×k) is A stored m×k (leading dimension lda) or, with
// tA, Aᵀ with A stored k×m; op(B) (k×n) is B stored k×n (ldb) or, with
// tB, Bᵀ with B stored n×k; C is m×n (ldc). Every entry is summed as
// GemmNT sums it, bit for bit: Gemm(tA, tB, …) equals GemmNT on copies of
// op(A) and op(B)ᵀ. On the packed kernel a stored-transposed operand is
// transposed while it is packed (packStripTAvx512), so the product reads
// A·B as fast as A·Bᵀ without a transposed copy; elsewhere (small
// products, no AVX2) such an operand is first copied to the inner-product
// form. As in BLAS, beta = 0 sets C without reading it. It runs on one
// core; callers split C by rows or columns.
func Gemm(tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	A, B := factor{a, lda, tA}, factor{b, ldb, !tB}
	var pk *packedKernel
	switch {
	case useAvx512:
		pk = &avx512Packed
	case useAsm:
		pk = &avx2Packed
	}
	mp := 0 // the rows of C on the packed kernel
	if pk != nil && m >= pk.rs && n >= pk.cs && k >= 8 && alpha != 0 && 2*float64(m)*float64(n)*float64(k) >= gemmPackMinFlops {
		mp = m
		if r := m % pk.rs; pk.rs == 6 && (r == 1 || r == 3) && !A.t && !B.t {
			// One or three last rows run faster on gemmDot (dot8, the 3×4
			// kernel) than in a strip of six padded with five or three zero
			// rows: 13×200 by 200 at 34 GFlop/s against 30, 9×200 by 200 at
			// 35 against 29, on one core of the development machine.
			mp = m - r
		}
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		switch beta {
		case 0:
			if i >= mp { // the packed kernel sets C in its first k-panel
				clear(row)
			}
		case 1:
		default:
			for j := range row {
				row[j] *= beta
			}
		}
	}
	if k == 0 || alpha == 0 {
		return
	}
	// The kernels read and write through pointers: check the extents once.
	A.check(m, k)
	B.check(n, k)
	_ = c[(m-1)*ldc+n-1]
	if mp > 0 {
		gemmPacked(pk, mp, n, k, alpha, A, B, c, ldc, beta == 0)
	}
	if mp < m {
		a, lda = A.rowForm(m, k)
		b, ldb = B.rowForm(n, k)
		gemmDot(m-mp, n, k, alpha, a[mp*lda:], lda, b, ldb, c[mp*ldc:], ldc)
	}
}

// factor is an operand of Gemm seen as GemmNT sees it, rows×k with k the
// summed index: stored in that form (entry (i, l) at x[i·ld+l]) or, with
// t, transposed (at x[l·ld+i]).
type factor struct {
	x  []float64
	ld int
	t  bool
}

// at returns entry (i, l).
func (f factor) at(i, l int) float64 {
	if f.t {
		return f.x[l*f.ld+i]
	}
	return f.x[i*f.ld+l]
}

// check panics unless f holds rows×k entries (both positive).
func (f factor) check(rows, k int) {
	if f.t {
		_ = f.x[(k-1)*f.ld+rows-1]
	} else {
		_ = f.x[(rows-1)*f.ld+k-1]
	}
}

// rowForm returns f stored rows×k and its leading dimension: f's own
// storage, or a transposed copy.
func (f factor) rowForm(rows, k int) ([]float64, int) {
	if !f.t {
		return f.x, f.ld
	}
	y := make([]float64, rows*k)
	Transpose(y, f.x, f.ld, k, 0, rows)
	return y, k
}

// gemmDot adds alpha·A·Bᵀ to C (GemmNT's shapes, k > 0) by the
// register-blocked dot-product kernels on the operands in place: 3×4
// entries on AVX-512, 2×2 on AVX2, else dot8 per entry; one or three
// last rows of C beside the packed kernel and all of C where that kernel
// does not run. The explicit conversions keep each product and sum
// rounded on its own, as in the assembly kernels (see edgeSums).
func gemmDot(m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	rb, cb := 0, 0 // register block, 0 for none
	switch {
	case useAvx512 && n >= 4:
		rb, cb = 3, 4
	case useAsm:
		rb, cb = 2, 2 // also AVX-512's choice for skinny C: same sums
	}
	var blk [12]float64
	for kb := 0; kb < k; kb += gemmKC {
		kl := min(gemmKC, k-kb)
		k8 := kl &^ 7
		// tail adds the panel's last kl − k8 products to s, in order.
		tail := func(s float64, ar, br []float64) float64 {
			for l := k8; l < kl; l++ {
				s += float64(ar[l] * br[l])
			}
			return s
		}
		for jb := 0; jb < n; jb += gemmNC {
			jh := min(n, jb+gemmNC)
			i := 0
			if rb > 0 && k8 > 0 {
				for ; i+rb <= m; i += rb {
					j := jb
					for ; j+cb <= jh; j += cb {
						if rb == 3 {
							dot3x4Avx512(&a[i*lda+kb], lda, &b[j*ldb+kb], ldb, k8, &blk[0])
						} else {
							dot2x2x8Asm(&a[i*lda+kb], lda, &b[j*ldb+kb], ldb, k8, &blk[0])
						}
						for r := 0; r < rb; r++ {
							crow := c[(i+r)*ldc+j : (i+r)*ldc+j+cb]
							if k8 == kl {
								for s := range crow {
									crow[s] += float64(alpha * blk[cb*r+s])
								}
								continue
							}
							ar := a[(i+r)*lda+kb:]
							for s := range crow {
								crow[s] += float64(alpha * tail(blk[cb*r+s], ar, b[(j+s)*ldb+kb:]))
							}
						}
					}
					for ; j < jh; j++ {
						for r := 0; r < rb; r++ {
							ar, br := a[(i+r)*lda+kb:], b[j*ldb+kb:]
							c[(i+r)*ldc+j] += float64(alpha * tail(dot8(ar[:k8], br), ar, br))
						}
					}
				}
			}
			for ; i < m; i++ {
				ar := a[i*lda+kb:]
				for j := jb; j < jh; j++ {
					br := b[j*ldb+kb:]
					c[i*ldc+j] += float64(alpha * tail(dot8(ar[:k8], br), ar, br))
				}
			}
		}
	}
}

// dot8 returns Σ x_l y_l over len(x) (a multiple of 8) in the kernels'
// order: eight lanes, lane l accumulating x_l y_l, x_{l+8} y_{l+8}, … by
// fused multiply–adds, folded to four by y_l = s_l + s_{l+4}, then
// (y_0 + y_1) + (y_2 + y_3).
func dot8(x, y []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	if useAsm {
		return dot8Asm(&x[0], &y[0], len(x))
	}
	var s [8]float64
	y = y[:len(x)]
	for i := 0; i < len(x); i += 8 {
		for l := range s {
			s[l] = math.FMA(x[i+l], y[i+l], s[l])
		}
	}
	return ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]))
}

// gemmKC, the width of GemmNT's k-panels, is part of its order of
// summation: every entry is summed panel by panel (dot8's order within a
// panel, the panel sums times alpha added to C in turn), so another width
// would change the bits of every product, and of the results pinned on
// them. It was chosen for the 3×4 kernel (panels of 256, 512 and 1024
// measured within 12 % of each other). In gemmDot, the 3×4 blocks' rows of
// A (12 KB for three) stay in L1 while gemmNC rows of B (256 KB) stay in L2.
const (
	gemmKC = 512
	gemmNC = 64
)

// HasGemmKernel reports whether GemmNT runs on a vector kernel (AVX2/FMA
// or AVX-512) on this processor and build.
func HasGemmKernel() bool { return useAsm }

// KernelName names the instruction set of the kernels in use: "AVX-512"
// (GemmNT's products; the rest AVX2), "AVX2+FMA" or "none" (plain Go).
func KernelName() string {
	switch {
	case useAvx512:
		return "AVX-512"
	case useAsm:
		return "AVX2+FMA"
	}
	return "none"
}

// Blocking of GemmNT's packed kernel, within each k-panel of gemmKC
// columns: gemmNChunk rows of B are packed once (4 MB), then for each block
// of gemmMC rows of A (packed: 240 KB) the blocks of gemmPackNC rows of B
// (256 KB) are run through it, both blocks in the 1 MB L2 of a core of the
// development machine; the kernel keeps one packed strip of six rows of A
// (24 KB) near L1 while the strips of four rows of B stream past it from
// L2. Measured there on one core (2000×784 by 784×2000): blocks of 24 to
// 60 rows of A within 1 % of each other and about 3 % faster than 120 or
// 240; 32 to 128 rows of B within 1 %, 256 slower; on two cores no clear
// difference.
const (
	gemmMC     = 60
	gemmPackNC = 64
	gemmNChunk = 1024
)

// gemmPackMinFlops: smaller products (2mnk flops) skip the packing, whose
// cost they do not repay (12×12 by 64: 25 GFlop/s packed, 28 in place; 64×64
// by 64: 40 packed, 27 in place, on one core of the development machine).
// A variable for the tests, which run every shape on the packed kernel too.
var gemmPackMinFlops = float64(1 << 17)

// packedKernel is a packed macro-kernel: strips of rs rows of A against
// strips of cs rows of B, and the copy that packs them.
//
// pack copies a full strip of a factor stored in row form; packT, where
// not nil, a strip (full or not) of a factor stored transposed. The
// others (the last strip of rows of a factor in row form, when fewer than
// rs or cs rows remain, and transposed factors without packT) are packed
// by packStripGo.
type packedKernel struct {
	rs, cs int
	kern   func(a, b *float64, k8, nb int, c *float64, ldc int, alpha float64, mode int)
	pack   func(dst, x *float64, ld, rs, k8 int)
	packT  func(dst, x *float64, ld, rows, rs, k8 int)
}

var (
	avx512Packed = packedKernel{6, 4, gemm6x4Packed, packStripAvx512, packStripTAvx512}
	avx2Packed   = packedKernel{3, 2, gemm3x2Avx2, packStripAvx2, nil}
)

// gemmBuf holds the packed panels of one GemmNT call.
type gemmBuf struct{ a, b, s []float64 }

var gemmPool = sync.Pool{New: func() any { return new(gemmBuf) }}

// grown returns x with length n, reallocated if its capacity is short.
func grown(x []float64, n int) []float64 {
	if cap(x) < n {
		return make([]float64, n)
	}
	return x[:n]
}

// gemmPacked adds alpha·A·Bᵀ to C (A m×k with m ≥ pk.rs, B n×k with
// n ≥ pk.cs, k ≥ 8, as factors) on pk's macro-kernel (gemm6x4Packed,
// gemm3x2Avx2). Per k-panel, blocks of rows of A and of B are copied into
// strips of rs and cs rows, interleaved eight columns at a time
// ([k/8][rs][8] and [k/8][cs][8]), so that the kernel reads each operand
// as one contiguous stream; a factor stored transposed is transposed in
// the same copy. Copying does not touch the arithmetic: every entry is
// still the panel's dot8-order sum, plus the panel's last k mod 8
// products in order, times alpha, added to C panel after panel, bit for
// bit as gemmDot.
//
// When m is not a multiple of rs or n of cs, the last strip is padded
// with zero rows and its tiles go through a scratch block (mode 1: the
// sums alone), whose entries inside C are then added to C as the kernel
// adds them; the padding's sums are dropped. Each entry's sum is the same
// whichever row of a strip it lies in, so the edges of C are summed as
// its inside is, at the packed kernel's speed.
//
// With zero set, C is taken to be zero, unread: the first k-panel sets
// C = 0 + alpha·s, the rounding of adding alpha·s to a cleared C.
func gemmPacked(pk *packedKernel, m, n, k int, alpha float64, A, B factor, c []float64, ldc int, zero bool) {
	buf := gemmPool.Get().(*gemmBuf)
	defer gemmPool.Put(buf)
	rs, cs := pk.rs, pk.cs
	kc := min(k, gemmKC)
	buf.a = grown(buf.a, min(roundUp(m, rs), gemmMC)*kc)
	buf.b = grown(buf.b, min(roundUp(n, cs), gemmNChunk)*kc)
	buf.s = grown(buf.s, rs*gemmPackNC)
	for kb := 0; kb < k; kb += gemmKC {
		kl := min(gemmKC, k-kb)
		k8 := kl &^ 7
		mode := 0 // C += alpha·s
		if zero && kb == 0 {
			mode = 2 // C = 0 + alpha·s
		}
		if k8 == 0 { // a last panel of fewer than eight columns (not the first: k ≥ 8)
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					s := 0.0
					for l := kb; l < kb+kl; l++ {
						s += float64(A.at(i, l) * B.at(j, l))
					}
					c[i*ldc+j] += float64(alpha * s)
				}
			}
			continue
		}
		sums := edgeSums{A: A, B: B, c: c, ldc: ldc, kb: kb, k8: k8, kl: kl, alpha: alpha, mode: mode}
		for jc := 0; jc < n; jc += gemmNChunk {
			jch := min(n, jc+gemmNChunk)
			packStrips(pk, buf.b, B, jc, jch, kb, k8, cs)
			for ib := 0; ib < m; ib += gemmMC {
				ih := min(m, ib+gemmMC)
				packStrips(pk, buf.a, A, ib, ih, kb, k8, rs)
				for jb := jc; jb < jch; jb += gemmPackNC {
					jh := min(jch, jb+gemmPackNC)
					pb := &buf.b[(jb-jc)*k8]
					nf := (jh - jb) / cs          // full strips of B
					nb := (jh - jb + cs - 1) / cs // and the padded one, if any
					for i := ib; i < ih; i += rs {
						pa := &buf.a[(i-ib)*k8]
						rows := min(rs, ih-i)
						if rows < rs || k8 < kl {
							// Through the scratch block: a padded strip of A, or
							// the panel's last kl − k8 products to add in order.
							pk.kern(pa, pb, k8, nb, &buf.s[0], nb*cs, 0, 1)
							sums.add(buf.s, nb*cs, i, rows, jb, jh)
							continue
						}
						if nf > 0 {
							pk.kern(pa, pb, k8, nf, &c[i*ldc+jb], ldc, alpha, mode)
						}
						if nf < nb { // the padded last strip of B
							pk.kern(pa, &buf.b[(jb-jc+nf*cs)*k8], k8, 1, &buf.s[0], cs, 0, 1)
							sums.add(buf.s, cs, i, rows, jb+nf*cs, jh)
						}
					}
				}
			}
		}
	}
}

// edgeSums adds a scratch block of one k-panel's sums to C, as the
// kernels do: the panel's last kl − k8 products added to each sum in
// order, then C += alpha·s (mode 0), or C = 0 + alpha·s (mode 2, C not
// read). The explicit conversions keep each product and sum rounded on
// its own (the Go specification lets a compiler fuse x·y + z otherwise,
// as it does for GOAMD64=v3), as in the assembly kernels.
type edgeSums struct {
	A, B       factor
	c          []float64
	ldc        int
	kb, k8, kl int
	alpha      float64
	mode       int
}

// add adds the sums s[r·w + j] (r < rows, j < j1 − j0) to the entries
// (i+r, j0+j) of C.
func (e *edgeSums) add(s []float64, w, i, rows, j0, j1 int) {
	lt := e.kb + e.k8 // the panel's last products: columns lt … lt+nt−1
	nt := e.kl - e.k8
	var ar [7]float64 // those entries of a row of A
	for r := 0; r < rows; r++ {
		crow := e.c[(i+r)*e.ldc+j0 : (i+r)*e.ldc+j1]
		if e.mode == 2 {
			clear(crow)
		}
		sr := s[r*w : r*w+len(crow)]
		if nt == 0 {
			for j, v := range sr {
				crow[j] += float64(e.alpha * v)
			}
			continue
		}
		for l := range nt {
			ar[l] = e.A.at(i+r, lt+l)
		}
		b, ld := e.B.x, e.B.ld
		for j, v := range sr {
			if e.B.t {
				for l, q := 0, lt*ld+j0+j; l < nt; l, q = l+1, q+ld {
					v += float64(ar[l] * b[q])
				}
			} else {
				for l, x := range b[(j0+j)*ld+lt : (j0+j)*ld+lt+nt] {
					v += float64(ar[l] * x)
				}
			}
			crow[j] += float64(e.alpha * v)
		}
	}
}

// roundUp returns x rounded up to a multiple of q.
func roundUp(x, q int) int { return (x + q - 1) / q * q }

// packStrips copies columns kb … kb+k8−1 of rows r0 … r1−1 of the factor
// f into dst as strips of rs rows, each strip [k8/8][rs][8]: eight columns
// of its first row, the same eight of the next, and so on; a last strip of
// fewer than rs rows is padded with zero rows.
func packStrips(pk *packedKernel, dst []float64, f factor, r0, r1, kb, k8, rs int) {
	for i := r0; i < r1; i += rs {
		rows := min(rs, r1-i)
		d := dst[(i-r0)*k8 : (i-r0+rs)*k8]
		switch {
		case f.t && pk.packT != nil:
			_ = f.x[(kb+k8-1)*f.ld+i+rows-1]
			pk.packT(&d[0], &f.x[kb*f.ld+i], f.ld, rows, rs, k8)
		case !f.t && rows == rs:
			_ = f.x[(i+rs-1)*f.ld+kb+k8-1]
			pk.pack(&d[0], &f.x[i*f.ld+kb], f.ld, rs, k8)
		default:
			packStripGo(d, f, i, rows, rs, kb, k8)
		}
	}
}

// packStripGo is packStrips' copy of one strip, rows of its rs rows of f
// (from row i) and the rest zero, in plain Go.
func packStripGo(d []float64, f factor, i, rows, rs, kb, k8 int) {
	for t := 0; t < k8/8; t++ {
		for r := 0; r < rs; r++ {
			v := d[8*(rs*t+r) : 8*(rs*t+r)+8]
			if r >= rows {
				clear(v)
				continue
			}
			for l := range v {
				v[l] = f.at(i+r, kb+8*t+l)
			}
		}
	}
}
