package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns the distance between a and b in units in the last place of
// b (a and b finite and of one sign).
func ulps(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / math.Abs(math.Nextafter(b, math.Inf(1))-b)
}

// TestScaledExp compares ScaledExp with math.Exp over the whole range,
// including the edges the kernel hands back (overflow, results below the
// normal range, ±Inf, NaN) and in place. Tolerance: 3 ulp in the kernel's
// range — ours is within about 1.5 ulp of the true value (the first step
// of the reduction is exact with FMA, the second rounds r; Horner's
// rounding; the truncation r^14/14! < 2^−55) and math.Exp within 1 ulp
// (2 million random arguments differed by at most 2 ulp, 34 of them by
// more than 1) — and exactly math.Exp's value outside it.
func TestScaledExp(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	var x []float64
	for i := 0; i < 20000; i++ {
		x = append(x, -750+760*rnd.Float64())
	}
	for i := 0; i < 5000; i++ {
		x = append(x, rnd.NormFloat64()*1e-3, -rnd.ExpFloat64())
	}
	x = append(x, 0, math.Copysign(0, -1), 1, -1, 708, 709, 709.5, 710, -707.9, -708, -708.1, -745, -746,
		math.Inf(1), math.Inf(-1), math.NaN(), math.Ln2/2, -math.Ln2/2, 1e-300, -1e-300, 3)
	for _, tc := range []struct{ a, v float64 }{{1, 1}, {-0.5, 2.5}, {-1, 1}} {
		got := make([]float64, len(x))
		ScaledExp(got, x, tc.a, tc.v)
		inplace := append([]float64(nil), x...)
		ScaledExp(inplace, inplace, tc.a, tc.v)
		worst := 0.0
		for j, xj := range x {
			want := tc.v * math.Exp(tc.a*xj)
			if math.Float64bits(inplace[j]) != math.Float64bits(got[j]) && !(math.IsNaN(got[j]) && math.IsNaN(inplace[j])) {
				t.Errorf("a=%v: in place %v, out of place %v at x = %v", tc.a, inplace[j], got[j], xj)
			}
			if s := tc.a * xj; !(s >= -708 && s <= 709) {
				if !(got[j] == want || math.IsNaN(got[j]) && math.IsNaN(want)) {
					t.Errorf("a=%v, x=%v: got %v, want math.Exp's %v", tc.a, xj, got[j], want)
				}
				continue
			}
			u := ulps(got[j], want)
			worst = math.Max(worst, u)
			if u > 3 {
				t.Errorf("a=%v, x=%v: got %v, want %v (%.1f ulp)", tc.a, xj, got[j], want, u)
			}
		}
		t.Logf("a=%v v=%v: worst %.2f ulp from v·math.Exp over %d arguments (kernel in use: %v)", tc.a, tc.v, worst, len(x), useAsm)
	}
	// exp(0) is exactly 1, so v·exp(a·0) is exactly v (the RBF diagonal).
	d := []float64{0, 0, 0, 0, 0}
	ScaledExp(d, d, -3, 0.7)
	for _, v := range d {
		if v != 0.7 {
			t.Fatalf("v·exp(0) = %v, want exactly 0.7", v)
		}
	}
}

func TestSumAddAddSqDiff(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for n := 0; n <= 70; n++ {
		a, acc, col := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range a {
			a[i], acc[i], col[i] = rnd.NormFloat64(), rnd.NormFloat64(), rnd.NormFloat64()
		}
		wantAcc, wantSum, mag := make([]float64, n), 0.0, 0.0
		for i := range a {
			wantAcc[i] = acc[i] + a[i]
			wantSum += a[i]
			mag += math.Abs(a[i])
		}
		if got := SumAdd(acc, a); math.Abs(got-wantSum) > 2*float64(n)*0x1p-52*mag {
			t.Errorf("n=%d: SumAdd sum %v, want %v", n, got, wantSum)
		}
		for i := range acc {
			if acc[i] != wantAcc[i] { // one addition each: exact same rounding
				t.Errorf("n=%d: SumAdd acc[%d] = %v, want %v", n, i, acc[i], wantAcc[i])
			}
		}
		d := append([]float64(nil), acc...)
		const c = 0.3
		AddSqDiff(d, col, c)
		for i := range d {
			want := acc[i] + (col[i]-c)*(col[i]-c)
			if math.Abs(d[i]-want) > 2*0x1p-52*(math.Abs(acc[i])+(col[i]-c)*(col[i]-c)) {
				t.Errorf("n=%d: AddSqDiff d[%d] = %v, want %v", n, i, d[i], want)
			}
		}
	}
}

func BenchmarkScaledExp(b *testing.B) {
	n := 2000
	x, dst := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = float64(i) / 100
	}
	b.Run(fmt.Sprintf("ScaledExp/n=%d", n), func(b *testing.B) {
		for range b.N {
			ScaledExp(dst, x, -0.5, 1)
		}
	})
	b.Run(fmt.Sprintf("math.Exp/n=%d", n), func(b *testing.B) {
		for range b.N {
			for j, v := range x {
				dst[j] = math.Exp(-0.5 * v)
			}
		}
	})
}
