package sdp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randSPD returns a random n×n symmetric positive definite matrix (row
// major), B Bᵀ + n I with B standard normal.
func randSPD(n int, rnd *rand.Rand) []float64 {
	b := make([]float64, n*n)
	for i := range b {
		b[i] = rnd.NormFloat64()
	}
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for k := 0; k < n; k++ {
				s += b[i*n+k] * b[j*n+k]
			}
			if i == j {
				s += float64(n)
			}
			a[i*n+j], a[j*n+i] = s, s
		}
	}
	return a
}

// The blocked Cholesky factorisation and solve of the Schur complement:
// L Lᵀ reproduces A and the solve inverts it, across block edges (sizes
// below, at and above cholBlock and cholSub), on one and on three
// goroutines; an indefinite matrix is refused.
func TestCholLower(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 15, 17, 127, 128, 129, 300} {
		for _, w := range []int{1, 3} {
			t.Run(fmt.Sprintf("n=%d/w=%d", n, w), func(t *testing.T) {
				a := randSPD(n, rnd)
				l := append([]float64(nil), a...)
				if !cholLower(n, l, w) {
					t.Fatal("positive definite matrix refused")
				}
				var worst, scale float64
				for i := 0; i < n; i++ {
					for j := 0; j <= i; j++ {
						var s float64
						for k := 0; k <= j; k++ {
							s += l[i*n+k] * l[j*n+k]
						}
						worst = math.Max(worst, math.Abs(s-a[i*n+j]))
						scale = math.Max(scale, math.Abs(a[i*n+j]))
					}
				}
				if worst > 1e-12*scale {
					t.Errorf("max |L Lᵀ − A| = %.3g (scale %.3g)", worst, scale)
				}
				x := make([]float64, n)
				b := make([]float64, n)
				for i := range x {
					x[i] = rnd.NormFloat64()
				}
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						b[i] += a[i*n+j] * x[j]
					}
				}
				cholSolve(n, l, b)
				for i := range x {
					if math.Abs(b[i]-x[i]) > 1e-10 {
						t.Fatalf("solve: x[%d] = %v, want %v", i, b[i], x[i])
					}
				}
			})
		}
	}
	a := randSPD(200, rnd)
	a[150*200+150] = -1
	if cholLower(200, a, 2) {
		t.Error("indefinite matrix factored")
	}
}

// The Schur complement of distance-pair constraints read off X and Z⁻¹
// (schurPairs) equals the general sparse double sum of schur, on random
// X, Z⁻¹ and pairs with and without the anchor (single diagonal entries)
// and coefficients other than one.
func TestSchurPairsMatchesGeneral(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	const n, m = 40, 150
	var cons []*spmat
	for len(cons) < m {
		i, j := rnd.IntN(n), rnd.IntN(n)
		v := 0.5 + rnd.Float64()
		var es []Entry
		switch {
		case i == j:
			es = []Entry{{i, i, v}}
		default:
			es = []Entry{{i, i, v}, {j, j, v}, {i, j, -v}}
		}
		a, err := build(es, n, "A", 4*n+16)
		if err != nil {
			t.Fatal(err)
		}
		if !a.pair {
			t.Fatalf("pair %v not recognised", es)
		}
		cons = append(cons, a)
	}
	// A matrix that is not a pair: (0,1) with equal signs.
	if a, _ := build([]Entry{{0, 0, 1}, {1, 1, 1}, {0, 1, 1}}, n, "A", 4*n+16); a.pair {
		t.Error("e_0 + e_1 taken for a distance pair")
	}
	if a, _ := build([]Entry{{0, 0, 1}, {1, 1, 2}, {0, 1, -1}}, n, "A", 4*n+16); a.pair {
		t.Error("unequal diagonal taken for a distance pair")
	}
	for _, w := range []int{1, 2} {
		sv := &solver{n: n, m: m, cons: cons, set: Settings{Workers: w}}
		sv.x, sv.zi = randSPD(n, rnd), randSPD(n, rnd)
		got := make([]float64, m*m)
		want := make([]float64, m*m)
		sv.allPairs = true
		sv.schur(got)
		sv.allPairs = false
		sv.schur(want)
		for i := 0; i < m; i++ {
			for j := i; j < m; j++ {
				g, h := got[j*m+i], want[i*m+j] // schurPairs fills the lower triangle
				if math.Abs(g-h) > 1e-12*math.Max(1, math.Abs(h)) {
					t.Fatalf("w = %d: M[%d,%d] = %v, general %v", w, i, j, g, h)
				}
			}
		}
	}
}

// mulSym3 equals the product A B C formed entry by entry.
func TestMulSym3(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{3, 33, 90} {
		a := make([]float64, n*n) // not symmetric
		for i := range a {
			a[i] = rnd.NormFloat64()
		}
		b, c := randSPD(n, rnd), randSPD(n, rnd)
		dst, tmp := make([]float64, n*n), make([]float64, n*n)
		mulSym3(dst, a, b, c, tmp, n, 2)
		var want mat.Dense
		want.Product(mat.NewDense(n, n, a), mat.NewDense(n, n, b), mat.NewDense(n, n, c))
		if !mat.EqualApprox(mat.NewDense(n, n, dst), &want, 1e-9*float64(n*n)) {
			t.Errorf("n = %d: mulSym3 differs from A B C", n)
		}
	}
}

// BenchmarkCholLower factors an m×m Schur complement of MVU's size
// (n = 200, k = 7: m ≈ 1000); m³/3 flops.
func BenchmarkCholLower(b *testing.B) {
	const m = 968
	a := randSPD(m, rand.New(rand.NewPCG(7, 8)))
	l := make([]float64, m*m)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(l, a)
		if !cholLower(m, l, 1) {
			b.Fatal("refused")
		}
	}
	b.ReportMetric(float64(m)*m*m/3/b.Elapsed().Seconds()*float64(b.N)/1e9, "GFlop/s")
}

// congruence and gramUpper, which skip the zeros of triangular factors,
// equal the full products L⁻¹ D L⁻ᵀ and V Vᵀ.
func TestTriangularProducts(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{5, 47, 48, 49, 130} {
		for _, w := range []int{1, 2} {
			li := make([]float64, n*n)
			for i := 0; i < n; i++ {
				for j := 0; j <= i; j++ {
					li[i*n+j] = rnd.NormFloat64()
				}
			}
			d := randSPD(n, rnd)
			d[0] = -d[0] // indefinite is fine
			got, tmp := make([]float64, n*n), make([]float64, n*n)
			congruence(got, li, d, tmp, n, w)
			L, D := mat.NewDense(n, n, li), mat.NewDense(n, n, d)
			var want mat.Dense
			want.Product(L, D, L.T())
			if !mat.EqualApprox(mat.NewDense(n, n, got), &want, 1e-10*float64(n)) {
				t.Errorf("n = %d, w = %d: congruence differs from L D Lᵀ", n, w)
			}
			v := make([]float64, n*n) // upper triangular
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					v[i*n+j] = rnd.NormFloat64()
				}
			}
			gramUpper(got, v, n, w)
			V := mat.NewDense(n, n, v)
			want.Mul(V, V.T())
			if !mat.EqualApprox(mat.NewDense(n, n, got), &want, 1e-10*float64(n)) {
				t.Errorf("n = %d, w = %d: gramUpper differs from V Vᵀ", n, w)
			}
		}
	}
}

// xsz, the product X ΔZ Z⁻¹ with the sparse ΔZ = −Σ_k Δy_k A_k of distance
// pairs, equals the dense triple product.
func TestXSZMatchesDense(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 12))
	const n, m = 60, 200
	var cons []*spmat
	for len(cons) < m {
		i, j := rnd.IntN(n), rnd.IntN(n)
		es := []Entry{{i, i, 1}}
		if i != j {
			es = []Entry{{i, i, 1}, {j, j, 1}, {i, j, -1}}
		}
		a, err := build(es, n, "A", 4*n+16)
		if err != nil {
			t.Fatal(err)
		}
		cons = append(cons, a)
	}
	for _, w := range []int{1, 2} {
		sv := &solver{n: n, m: m, cons: cons, set: Settings{Workers: w}, sxt: make([]float64, n*n)}
		x := randSPD(n, rnd)
		sv.zi = randSPD(n, rnd)
		dy := make([]float64, m)
		for k := range dy {
			dy[k] = rnd.NormFloat64()
		}
		dz := make([]float64, n*n)
		for k, a := range cons {
			a.addTo(dz, n, -dy[k])
		}
		got, want, tmp := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
		sv.xsz(got, x, dy, tmp)
		mulSym3(want, x, dz, sv.zi, tmp, n, w)
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-9*math.Max(1, math.Abs(want[i])) {
				t.Fatalf("w = %d: entry %d: %v, dense %v", w, i, got[i], want[i])
			}
		}
	}
}

// minEig's estimate of the smallest eigenvalue (dsyev for n ≤ 64, Lanczos
// above) is within its stated 1e-9 of the spectral radius below λ_min and
// not above it, for random symmetric matrices with a spread spectrum and
// with the smallest eigenvalue nearly repeated.
func TestMinEig(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{40, 65, 100, 200} {
		for _, clustered := range []bool{false, true} {
			// W = Q diag(λ) Qᵀ with Q from a QR of a Gaussian matrix.
			g := mat.NewDense(n, n, nil)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					g.Set(i, j, rnd.NormFloat64())
				}
			}
			var qr mat.QR
			qr.Factorize(g)
			var q mat.Dense
			qr.QTo(&q)
			lam := make([]float64, n)
			for i := range lam {
				lam[i] = 10 * rnd.Float64()
			}
			lam[0] = -3
			if clustered {
				lam[1] = -3 + 1e-6
			}
			var w mat.Dense
			w.Mul(&q, mat.NewDiagDense(n, lam))
			w.Mul(&w, q.T())
			ws := make([]float64, n*n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					ws[i*n+j] = 0.5 * (w.At(i, j) + w.At(j, i))
				}
			}
			got, ok := minEig(n, ws)
			if !ok {
				t.Fatalf("n = %d: minEig failed", n)
			}
			// Not below λ_min by more than 1e-9 of the radius (10), and
			// not above the eigenvalue it converged to (λ₁ or, when
			// clustered, possibly λ₂ = λ₁ + 1e-6).
			hi := -3.0
			if clustered {
				hi = -3 + 1e-6
			}
			if got > hi+1e-12 || got < -3-1.1e-8 {
				t.Errorf("n = %d, clustered %v: λ_min %v, want −3 (−1e-8, +%g)", n, clustered, got, hi+3)
			}
		}
	}
}
