package dimred

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"

	"gonum.org/v1/gonum/mat"
)

// The lattice has the book's neighbour counts (§5.7.1: 4 inside, 3 on an
// edge, 2 at a corner; a string has 2) and the right number of springs.
func TestLatticeSprings(t *testing.T) {
	k := LatticeSprings(4, 5, 2)
	if !k.IsSymmetric(0) {
		t.Fatal("springs not symmetric")
	}
	if got, want := k.NNZ(), 2*(4*4+3*5); got != want {
		t.Errorf("%d stored springs, want %d", got, want)
	}
	deg := make(map[int]int)
	for i := 0; i < 20; i++ {
		cols, _ := k.Row(i)
		deg[len(cols)]++
	}
	if deg[4] != 6 || deg[3] != 10 || deg[2] != 4 {
		t.Errorf("neighbour counts %v, want 6 inner (4), 10 edge (3), 4 corners (2)", deg)
	}
	s := LatticeSprings(1, 6, 1)
	for i := 0; i < 6; i++ {
		cols, _ := s.Row(i)
		want := 2
		if i == 0 || i == 5 {
			want = 1
		}
		if len(cols) != want {
			t.Errorf("string point %d has %d springs, want %d", i, len(cols), want)
		}
	}
	X := LatticePositions(10, 10)
	if X.At(0, 0) != -0.5 || X.At(99, 1) != 0.5 || math.Abs(X.At(1, 0)-(-0.5+1.0/9)) > 1e-15 {
		t.Errorf("grid positions %v … %v", X.RawRowView(0), X.RawRowView(99))
	}
}

// The stiffness identities of book §5.7.1 on random, non-symmetric
// springs (some repulsive) and random positions: ½ Σ_ij κ_ij ‖y_i − y_j‖²
// = tr(L Y Yᵀ), L 1 = 0, L symmetric, and for symmetric springs L is the
// graph Laplacian D − κ.
func TestStiffnessIdentities(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 7))
	n, p := 15, 4
	var is, js []int
	var vs []float64
	for a := 0; a < 40; a++ {
		i, j := rnd.IntN(n), rnd.IntN(n)
		is, js, vs = append(is, i), append(js, j), append(vs, rnd.NormFloat64())
	}
	kappa := linalg.NewCSR(n, is, js, vs)
	L := Stiffness(kappa)
	if !L.IsSymmetric(1e-15) {
		t.Error("L not symmetric")
	}
	one := make([]float64, n)
	for i := range one {
		one[i] = 1
	}
	l1 := make([]float64, n)
	L.MulVecTo(l1, one)
	for i, v := range l1 {
		if math.Abs(v) > 1e-14 {
			t.Errorf("(L1)_%d = %g", i, v)
		}
	}
	Y := testutil.GaussianData(n, p, 3)
	e := SpringEnergy(kappa, Y)
	// tr(L Y Yᵀ) = Σ_c y_:,cᵀ L y_:,c.
	var tr float64
	ly := make([]float64, n)
	for c := 0; c < p; c++ {
		y := mat.Col(nil, c, Y)
		L.MulVecTo(ly, y)
		for i := range y {
			tr += y[i] * ly[i]
		}
	}
	if math.Abs(e-tr) > 1e-12*math.Max(1, math.Abs(e)) {
		t.Errorf("½Σκ‖y_i − y_j‖² = %.15g, tr(LYYᵀ) = %.15g", e, tr)
	}
	// ½ tr(κ D) is the same energy.
	var half float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var d float64
			for c := 0; c < p; c++ {
				v := Y.At(i, c) - Y.At(j, c)
				d += v * v
			}
			half += kappa.At(i, j) * d
		}
	}
	if math.Abs(half/2-e) > 1e-12*math.Max(1, math.Abs(e)) {
		t.Errorf("½tr(κD) = %.15g, E = %.15g", half/2, e)
	}
	// Symmetric springs: L = D − κ, neighbours.Laplacian.
	w := LatticeSprings(3, 4, 1.5)
	ls, lg := Stiffness(w), neighbours.Laplacian(w)
	if d := testutil.MaxAbsDiff(ls, lg); d > 1e-15 {
		t.Errorf("stiffness of symmetric springs differs from D − κ by %g", d)
	}
}

// GRF samples have covariance (L + γI)⁻¹: the sample covariance of many
// columns matches it, and γ = 0 on a Laplacian (null vector 1) is
// ErrSingular.
func TestSampleGRF(t *testing.T) {
	L := Stiffness(LatticeSprings(3, 3, 1))
	gamma := 0.5
	p := 20000
	Y, err := SampleGRF(L, gamma, p, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := Y.Dims()
	var S mat.SymDense
	S.SymOuterK(1/float64(p), Y)
	P := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			P.SetSym(i, j, L.At(i, j))
		}
		P.SetSym(i, i, P.At(i, i)+gamma)
	}
	var C mat.SymDense
	var ch mat.Cholesky
	if !ch.Factorize(P) {
		t.Fatal("L + γI not PD")
	}
	if err := ch.InverseTo(&C); err != nil {
		t.Fatal(err)
	}
	// Standard error of a covariance entry ≈ √((C_ii C_jj + C_ij²)/p) ≤
	// √(2/p)·max C_ii; allow 5 of them.
	var cmax float64
	for i := 0; i < n; i++ {
		cmax = math.Max(cmax, C.At(i, i))
	}
	if d := testutil.MaxAbsDiff(&S, &C); d > 5*math.Sqrt(2/float64(p))*cmax {
		t.Errorf("sample covariance differs from (L + γI)⁻¹ by %.4f (max variance %.3f)", d, cmax)
	}
	Y2, _ := SampleGRF(L, gamma, 3, nil)
	Y3, _ := SampleGRF(L, gamma, 3, nil)
	if !mat.Equal(Y2, Y3) {
		t.Error("nil src not deterministic")
	}
	if _, err := SampleGRF(L, 0, 3, nil); !errors.Is(err, ErrSingular) {
		t.Errorf("γ = 0 on a Laplacian: got %v, want ErrSingular", err)
	}
}

// The Ornstein–Uhlenbeck covariance on 1-D inputs has a tridiagonal
// precision in sorted order (spectral paper §5.1): OUPrecision equals the
// dense inverse of the Gram matrix, whose entries off the band (in sorted
// order) vanish.
func TestOUPrecisionTridiagonal(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 9))
	n := 12
	x := make([]float64, n)
	for i := range x {
		x[i] = 4 * rnd.Float64() // unsorted, irregular
	}
	ell, s2 := 0.7, 1.3
	G := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			G.SetSym(i, j, s2*math.Exp(-math.Abs(x[i]-x[j])/ell))
		}
	}
	var inv mat.Dense
	if err := inv.Inverse(G); err != nil {
		t.Fatal(err)
	}
	Q, err := OUPrecision(x, ell, s2)
	if err != nil {
		t.Fatal(err)
	}
	scale := mat.Norm(&inv, math.Inf(1))
	if d := testutil.MaxAbsDiff(Q, &inv); d > 1e-9*scale {
		t.Errorf("OUPrecision differs from G⁻¹ by %.3g (‖G⁻¹‖ = %.3g)", d, scale)
	}
	// Rank of each point in sorted order; off-band entries of G⁻¹ vanish.
	rank := make([]int, n)
	for i := range x {
		for j := range x {
			if x[j] < x[i] {
				rank[i]++
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if d := rank[i] - rank[j]; d > 1 || d < -1 {
				if v := inv.At(i, j); math.Abs(v) > 1e-9*scale {
					t.Errorf("G⁻¹[%d,%d] = %.3g between non-adjacent inputs", i, j, v)
				}
				if Q.At(i, j) != 0 {
					t.Errorf("Q[%d,%d] = %g stored off the band", i, j, Q.At(i, j))
				}
			}
		}
	}
	if q := Q.NNZ(); q != 3*n-2 {
		t.Errorf("%d stored entries, tridiagonal has %d", q, 3*n-2)
	}
	x[3] = x[7]
	if _, err := OUPrecision(x, ell, s2); !errors.Is(err, ErrSingular) {
		t.Errorf("coincident inputs: got %v, want ErrSingular", err)
	}
}
