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

func BenchmarkGemmNT(b *testing.B) {
	for _, sz := range [][3]int{{240, 2000, 784}, {255, 255, 10}} {
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
