package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// naive are the reference sums: the textbook loops, in order.
func naiveDot(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

// TestKernels checks the kernels against the textbook loops for every
// length up to 80 (all tails of the 16-wide loop) and a few long ones.
// The sums may differ only by rounding: |Δ| ≤ 4n·ε·Σ|x_i y_i| (a
// reordered, partly fused sum of n products).
func TestKernels(t *testing.T) {
	t.Logf("AVX2/FMA kernels in use: %v", useAsm)
	rnd := rand.New(rand.NewPCG(1, 2))
	lengths := []int{}
	for n := 0; n <= 80; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1000, 1023, 4097)
	for _, n := range lengths {
		x, y, acc := make([]float64, n+3), make([]float64, n+3), make([]float64, n+3)
		for i := range x {
			x[i], y[i], acc[i] = rnd.NormFloat64(), rnd.NormFloat64(), rnd.NormFloat64()
		}
		// Offsets make the slices unaligned to 32 bytes.
		a, xx, ac := x[1:n+1], y[2:n+2], acc[3:n+3]
		mag := 0.0
		for i := range a {
			mag += math.Abs(a[i] * xx[i])
		}
		tol := 4 * float64(n+1) * 0x1p-52 * mag
		want := naiveDot(a, xx)
		if got := Dot(a, xx); math.Abs(got-want) > tol {
			t.Errorf("n=%d: Dot = %v, want %v", n, got, want)
		}
		const alpha = -1.75
		wantAcc := make([]float64, n)
		accTol := make([]float64, n)
		for i := range wantAcc {
			wantAcc[i] = ac[i] + alpha*a[i]
			accTol[i] = 2 * 0x1p-52 * (math.Abs(ac[i]) + math.Abs(alpha*a[i]))
		}
		before := append([]float64(nil), acc...)
		got := DotAxpy(ac, alpha, a, xx)
		if math.Abs(got-want) > tol {
			t.Errorf("n=%d: DotAxpy dot = %v, want %v", n, got, want)
		}
		for i := range wantAcc {
			// One fused rounding against two: |Δ| ≤ 2ε(|acc| + |αa|).
			if d := math.Abs(ac[i] - wantAcc[i]); d > accTol[i] {
				t.Errorf("n=%d: acc[%d] = %v, want %v", n, i, ac[i], wantAcc[i])
			}
		}
		// DotAxpy2 on the same row with x and a second vector.
		x2 := make([]float64, n)
		for i := range x2 {
			x2[i] = float64(i%7) - 3
		}
		want2 := naiveDot(a, x2)
		acc0 := append([]float64(nil), before[3:n+3]...)
		acc1 := append([]float64(nil), before[3:n+3]...)
		g0, g1 := DotAxpy2(acc0, acc1, alpha, -alpha, a, xx, x2)
		mag2 := 0.0
		for i := range a {
			mag2 += math.Abs(a[i] * x2[i])
		}
		if math.Abs(g0-want) > tol || math.Abs(g1-want2) > 4*float64(n+1)*0x1p-52*mag2 {
			t.Errorf("n=%d: DotAxpy2 = %v, %v, want %v, %v", n, g0, g1, want, want2)
		}
		for i := range acc0 {
			w1 := before[3+i] - alpha*a[i]
			if math.Abs(acc0[i]-wantAcc[i]) > accTol[i] || math.Abs(acc1[i]-w1) > accTol[i] {
				t.Errorf("n=%d: DotAxpy2 acc[%d] = %v, %v, want %v, %v", n, i, acc0[i], acc1[i], wantAcc[i], w1)
			}
		}
		ax := append([]float64(nil), before[3:n+3]...)
		Axpy(ax, alpha, a)
		for i := range ax {
			if d := math.Abs(ax[i] - wantAcc[i]); d > accTol[i] {
				t.Errorf("n=%d: Axpy [%d] = %v, want %v", n, i, ax[i], wantAcc[i])
			}
		}
		// Nothing outside acc[:n] was written.
		if acc[0] != before[0] || acc[1] != before[1] || acc[2] != before[2] {
			t.Errorf("n=%d: DotAxpy wrote before acc", n)
		}
	}
}

// TestKernelsSpecialValues checks that NaN and Inf propagate as in the
// textbook loops (the Lanczos driver reports non-finite products).
func TestKernelsSpecialValues(t *testing.T) {
	for _, n := range []int{16, 33} {
		for _, v := range []float64{math.NaN(), math.Inf(1)} {
			x, y, acc := make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range x {
				x[i], y[i] = 1, 1
			}
			x[n-1] = v
			if got := Dot(x, y); !(math.IsNaN(got) || math.IsInf(got, 0)) {
				t.Errorf("n=%d, %v: Dot = %v, want non-finite", n, v, got)
			}
			if got := DotAxpy(acc, 1, x, y); !(math.IsNaN(got) || math.IsInf(got, 0)) {
				t.Errorf("n=%d, %v: DotAxpy = %v, want non-finite", n, v, got)
			}
			if !(math.IsNaN(acc[n-1]) || math.IsInf(acc[n-1], 0)) {
				t.Errorf("n=%d, %v: acc = %v, want non-finite", n, v, acc[n-1])
			}
		}
	}
}

func BenchmarkDot(b *testing.B) {
	for _, n := range []int{256, 2000, 100000} {
		x, y, acc := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = 1, 2
		}
		b.Run(fmt.Sprintf("Dot/n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(16 * n))
			for range b.N {
				_ = Dot(x, y)
			}
		})
		b.Run(fmt.Sprintf("DotAxpy/n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(24 * n))
			for range b.N {
				_ = DotAxpy(acc, 1e-9, x, y)
			}
		})
	}
}

func TestMaxAbs(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	for n := 0; n <= 40; n++ {
		x := make([]float64, n)
		want := 0.0
		for i := range x {
			x[i] = rnd.NormFloat64() * math.Exp(10*rnd.NormFloat64())
			want = math.Max(want, math.Abs(x[i]))
		}
		if got := MaxAbs(x); got != want {
			t.Errorf("n=%d: MaxAbs = %v, want %v", n, got, want)
		}
		for i := range x {
			for _, v := range []float64{math.NaN(), math.Inf(-1)} {
				y := append([]float64(nil), x...)
				y[i] = v
				got := MaxAbs(y)
				if math.IsNaN(v) && !math.IsNaN(got) || math.IsInf(v, 0) && !math.IsInf(got, 1) {
					t.Errorf("n=%d: MaxAbs with %v at %d = %v", n, v, i, got)
				}
			}
		}
	}
}

func TestMaxNonNeg(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	for n := 0; n <= 40; n++ {
		x := make([]float64, n)
		want := 0.0
		for i := range x {
			x[i] = rnd.ExpFloat64() * math.Exp(20*rnd.NormFloat64())
			want = math.Max(want, x[i])
		}
		if got, ok := MaxNonNeg(x); !ok || got != want {
			t.Errorf("n=%d: MaxNonNeg = %v, %v, want %v, true", n, got, ok, want)
		}
		for i := range x {
			for _, v := range []float64{math.NaN(), math.Inf(1), -1e-300, math.Inf(-1)} {
				y := append([]float64(nil), x...)
				y[i] = v
				if _, ok := MaxNonNeg(y); ok {
					t.Errorf("n=%d: MaxNonNeg accepted %v at %d", n, v, i)
				}
			}
			y := append([]float64(nil), x...)
			y[i] = math.MaxFloat64
			if got, ok := MaxNonNeg(y); !ok || got != math.MaxFloat64 {
				t.Errorf("n=%d: MaxNonNeg with MaxFloat64 = %v, %v", n, got, ok)
			}
		}
	}
}

// TestTranspose: columns off the blocks of eight columns and 256 rows,
// rows not a multiple of 8, a padded leading dimension, a column range not
// starting at 0; on the gather kernel and in plain Go.
func TestTranspose(t *testing.T) {
	have := useAvx512
	defer func() { useAvx512 = have }()
	for _, wide := range []bool{false, have} {
		useAvx512 = wide
		for _, sz := range [][4]int{{1, 1, 0, 1}, {8, 8, 0, 8}, {7, 13, 2, 11}, {300, 37, 3, 30}, {515, 19, 0, 17}} {
			r, ld, j0, j1 := sz[0], sz[1], sz[2], sz[3]
			x := make([]float64, (r-1)*ld+j1)
			for i := range x {
				x[i] = float64(i)
			}
			dst := make([]float64, j1*r)
			Transpose(dst, x, ld, r, j0, j1)
			for j := 0; j < j1; j++ {
				for i := 0; i < r; i++ {
					want := 0.0
					if j >= j0 {
						want = x[i*ld+j]
					}
					if dst[j*r+i] != want {
						t.Fatalf("AVX-512 %v, %v: dst[%d,%d] = %v, want %v", wide, sz, j, i, dst[j*r+i], want)
					}
				}
			}
		}
	}
}

// TestSumAddressIndependent: Sum of the same values gives the same bits
// wherever they lie in memory. The values are chosen so that the order of
// addition matters (gonum's floats.Sum, which peels one element off an
// address not aligned to 16 bytes, gives 2 on one of the two views and 0
// on the other).
func TestSumAddressIndependent(t *testing.T) {
	vals := []float64{1, 1e16, 1, -1e16, 1, 1, 1e-3}
	buf := make([]float64, len(vals)+1)
	want := 0.0
	for _, v := range vals {
		want += v
	}
	for off := 0; off < 2; off++ {
		x := buf[off : off+len(vals)]
		copy(x, vals)
		if got := Sum(x); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("offset %d: Sum = %v, want %v (index order)", off, got, want)
		}
	}
}
