package dimred

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestUMAPPow: umapPow is x^y to a relative 2e-14 for x from e^-30 to e^30
// and |y| ≤ 2 (|y log₂ x| ≤ 87; the epochs raise d² to b − 1 and b, |b| < 2
// for any MinDist/Spread), and hands the edge cases to detPow.
func TestUMAPPow(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for it := 0; it < 200000; it++ {
		x := math.Exp(rnd.Float64()*60 - 30) // e^-30 … e^30
		y := rnd.Float64()*4 - 2
		if it%4 == 0 {
			y = 0.8950608781603 // the default curve's b
		}
		got, want := umapPow(x, y), math.Pow(x, y)
		if e := math.Abs(got-want) / want; e > worst {
			worst = e
		}
	}
	if worst > 2e-14 {
		t.Errorf("umapPow: relative error up to %.3g, want ≤ 2e-14", worst)
	}
	for _, c := range [][2]float64{{1, 0.9}, {2, 1}, {4, 0.5}, {1e300, 3.5}, {0.5, -0.1}} {
		got, want := umapPow(c[0], c[1]), math.Pow(c[0], c[1])
		if math.Abs(got-want) > 2e-14*want {
			t.Errorf("umapPow(%v, %v) = %v, want %v", c[0], c[1], got, want)
		}
	}
}

func BenchmarkUMAPPow(b *testing.B) {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = math.Exp(float64(i%97)/10 - 5)
	}
	b.Run("detPow", func(b *testing.B) {
		s := 0.0
		for i := 0; i < b.N; i++ {
			s += detPow(xs[i&1023], 0.895)
		}
		_ = s
	})
	b.Run("umapPow", func(b *testing.B) {
		s := 0.0
		for i := 0; i < b.N; i++ {
			s += umapPow(xs[i&1023], 0.895)
		}
		_ = s
	})
}

// BenchmarkUMAPPowLatency chains each call on the previous result, as the
// epochs do (the next sample's distance depends on the step just taken).
func BenchmarkUMAPPowLatency(b *testing.B) {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = math.Exp(float64(i%97)/10 - 5)
	}
	b.Run("detPow", func(b *testing.B) {
		s := 0.0
		for i := 0; i < b.N; i++ {
			s = detPow(xs[i&1023]+s*1e-300, 0.895)
		}
		_ = s
	})
	b.Run("umapPow", func(b *testing.B) {
		s := 0.0
		for i := 0; i < b.N; i++ {
			s = umapPow(xs[i&1023]+s*1e-300, 0.895)
		}
		_ = s
	})
}

// TestUMAPPowSubnormal: a subnormal x (a squared distance below 2^−1022
// between two embedded points) gets x^y to the same accuracy as a normal
// one — 2e-14 where |y log₂ x| ≤ 87, else within 1e-12 of it plus the
// granularity (2^−1074) of a subnormal result, twice. math.Log's −709.09
// for log(2^−1074) once made umapPow(2^−1074, 1) = 2^−1023 and
// umapPow(2^−1074, 0.895) 10¹⁵ times too large.
func TestUMAPPowSubnormal(t *testing.T) {
	worst := 0.0
	for _, y := range []float64{0.8950608781603, 0.8950608781603 - 1, 1, 2, -1, 0.05, -0.95, 1.9} {
		for e := -1074; e <= -1023; e++ {
			for _, f := range []float64{1, 1.3, 1.75} {
				x := math.Ldexp(f, e)
				if x == 0 || x >= 0x1p-1022 {
					continue
				}
				// math.Pow(x, y) takes math.Log(x) too: the reference
				// scales x by 2⁵⁴ and the result back by 2^(−54y).
				got, want := umapPow(x, y), math.Pow(x*0x1p54, y)*math.Pow(2, -54*y)
				tol := 1e-12*want + 0x1p-1073
				if math.Abs(y*math.Log2(x)) <= 87 {
					tol = 2e-14 * want
				}
				if !(math.Abs(got-want) <= tol) && got != want {
					t.Errorf("umapPow(%g, %v) = %g, want %g", x, y, got, want)
				}
				if want > 0x1p-1022 && !math.IsInf(want, 0) {
					worst = max(worst, math.Abs(got-want)/want)
				}
			}
		}
	}
	t.Logf("largest relative error for a normal result: %.3g", worst)
}
