package glasso

import (
	"math"
	"testing"
)

// The updated factor must equal a fresh factorisation of the same block
// after any sequence of additions and removals.
func TestCholFactorUpdates(t *testing.T) {
	S := rowCov(randData(12, 30, 30))
	const m = 12
	f := cholFactor{l: make([]float64, m*m), stride: m}
	var set []int
	add := func(a int) {
		v := make([]float64, len(set))
		for c, b := range set {
			v[c] = S.At(a, b)
		}
		if !f.add(v, S.At(a, a)) {
			t.Fatalf("add %d: not PD", a)
		}
		set = append(set, a)
	}
	check := func(when string) {
		p := len(set)
		a := make([]float64, p*p)
		for i := range set {
			for j := 0; j <= i; j++ {
				a[i*p+j] = S.At(set[i], set[j])
			}
		}
		if !cholesky(a, p) {
			t.Fatal("fresh factor failed")
		}
		for i := 0; i < p; i++ {
			for j := 0; j <= i; j++ {
				if d := math.Abs(a[i*p+j] - f.l[i*m+j]); d > 1e-12 {
					t.Fatalf("%s: L[%d,%d] = %v, fresh %v", when, i, j, f.l[i*m+j], a[i*p+j])
				}
			}
		}
		b := make([]float64, p)
		for i := range b {
			b[i] = float64(i + 1)
		}
		x := append([]float64(nil), b...)
		f.solve(x)
		for i := range set {
			var v float64
			for j := range set {
				v += S.At(set[i], set[j]) * x[j]
			}
			if math.Abs(v-b[i]) > 1e-9 {
				t.Fatalf("%s: solve residual %v", when, v-b[i])
			}
		}
	}
	for _, a := range []int{3, 7, 1, 0, 9, 4} {
		add(a)
	}
	check("after adds")
	for _, c := range []int{2, 0, 3} {
		f.remove(c)
		set = append(set[:c], set[c+1:]...)
		check("after remove")
	}
	add(11)
	add(5)
	check("after re-adding")
	f.remove(len(set) - 1)
	set = set[:len(set)-1]
	check("after removing the last")
}
