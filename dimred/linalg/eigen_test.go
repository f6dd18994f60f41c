package linalg

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// symWithSpectrum returns Q diag(lam) Qᵀ for a random orthogonal Q.
func symWithSpectrum(lam []float64, rnd *rand.Rand) *mat.SymDense {
	n := len(lam)
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
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s := 0.0
			for l := 0; l < n; l++ {
				s += q.At(i, l) * lam[l] * q.At(j, l)
			}
			a.SetSym(i, j, s)
		}
	}
	return a
}

func randomSym(n int, rnd *rand.Rand) *mat.SymDense {
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			a.SetSym(i, j, rnd.NormFloat64())
		}
	}
	return a
}

func randomPSD(n int, rnd *rand.Rand) *mat.SymDense {
	g := mat.NewDense(n, n/2+1, nil)
	for i := range g.RawMatrix().Data {
		g.RawMatrix().Data[i] = rnd.NormFloat64()
	}
	a := mat.NewSymDense(n, nil)
	a.SymOuterK(1, g)
	return a
}

// checkEigenpairs checks residuals, orthonormality and agreement with the
// dense oracle.
func checkEigenpairs(t *testing.T, a mat.Symmetric, k int, end EigenEnd, vals []float64, vecs *mat.Dense, tol float64) {
	t.Helper()
	testutil.CheckEigenpairs(t, a, k, end == Largest, vals, vecs, tol)
}

func TestEigenSymLanczosAgainstDense(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	clustered := make([]float64, 150)
	for i := range clustered {
		clustered[i] = 1 + 1e-3*float64(i%5) + float64(i/5)*0.01
	}
	clustered[149], clustered[148] = 10, 10+1e-6
	degenerate := make([]float64, 120)
	for i := range degenerate {
		degenerate[i] = float64(i) / 120
	}
	degenerate[119], degenerate[118], degenerate[117] = 5, 5, 5
	degenerate[0], degenerate[1] = -3, -3
	cases := []struct {
		name string
		a    *mat.SymDense
		k    int
	}{
		{"random", randomSym(200, rnd), 5},
		{"psd", randomPSD(180, rnd), 4},
		{"indefinite", symWithSpectrum(linspace(-10, 7, 160), rnd), 6},
		{"clustered", symWithSpectrum(clustered, rnd), 3},
		{"degenerate", symWithSpectrum(degenerate, rnd), 3},
		{"small", randomSym(7, rnd), 3},
	}
	for _, c := range cases {
		for _, end := range []EigenEnd{Largest, Smallest} {
			for _, bs := range []int{0, 1} {
				t.Run(fmt.Sprintf("%s/end=%d/b=%d", c.name, end, bs), func(t *testing.T) {
					s := &EigenSettings{Method: EigenLanczos, BlockSize: bs}
					if bs == 1 && (c.name == "degenerate" || c.name == "psd" && end == Smallest) {
						t.Skip("single-vector Krylov sees one vector per eigenspace")
					}
					vals, vecs, err := EigenSym(c.a, c.k, end, s)
					if err != nil {
						t.Fatal(err)
					}
					checkEigenpairs(t, c.a, c.k, end, vals, vecs, 1e-8)
				})
			}
		}
	}
}

func linspace(a, b float64, n int) []float64 {
	x := make([]float64, n)
	floats.Span(x, a, b)
	return x
}

func TestEigenSymEdgeSizes(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	// n = 1.
	a1 := mat.NewSymDense(1, []float64{-2.5})
	for _, m := range []EigenMethod{EigenDense, EigenLanczos} {
		vals, vecs, err := EigenSym(a1, 1, Largest, &EigenSettings{Method: m})
		if err != nil || vals[0] != -2.5 || vecs.At(0, 0) != 1 {
			t.Errorf("n=1 method %d: %v %v %v", m, vals, vecs, err)
		}
	}
	// k = n−1 and k = n.
	a := randomSym(40, rnd)
	for _, k := range []int{39, 40} {
		for _, end := range []EigenEnd{Largest, Smallest} {
			vals, vecs, err := EigenSym(a, k, end, &EigenSettings{Method: EigenLanczos})
			if err != nil {
				t.Fatalf("k=%d: %v", k, err)
			}
			checkEigenpairs(t, a, k, end, vals, vecs, 1e-8)
		}
	}
	// Zero matrix.
	z := mat.NewSymDense(50, nil)
	vals, vecs, err := EigenSym(z, 2, Largest, &EigenSettings{Method: EigenLanczos})
	if err != nil || vals[0] != 0 || vals[1] != 0 {
		t.Errorf("zero matrix: %v %v", vals, err)
	}
	checkEigenpairs(t, z, 2, Largest, vals, vecs, 1e-8)
}

func TestEigenSymReproducibleAndSigns(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	a := randomPSD(300, rnd)
	v1, x1, err := EigenSym(a, 3, Largest, nil)
	if err != nil {
		t.Fatal(err)
	}
	v2, x2, _ := EigenSym(a, 3, Largest, nil)
	if !floats.Equal(v1, v2) || !mat.Equal(x1, x2) {
		t.Error("two runs with the default seed differ")
	}
	_, xd, _ := EigenSym(a, 3, Largest, &EigenSettings{Method: EigenDense})
	if !mat.EqualApprox(x1, xd, 1e-7) {
		t.Error("sign convention differs between Lanczos and dense")
	}
}

func TestEigenSymNotConverged(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 9))
	a := randomSym(300, rnd)
	_, _, err := EigenSym(a, 4, Smallest, &EigenSettings{Method: EigenLanczos, MaxProducts: 10, BlockSize: 2})
	if !errors.Is(err, ErrNotConverged) {
		t.Fatalf("err = %v, want ErrNotConverged", err)
	}
	var nc *NotConvergedError
	if !errors.As(err, &nc) || len(nc.Residuals) == 0 || nc.Products < 10 {
		t.Fatalf("err = %#v, want *NotConvergedError with residuals", err)
	}
}

func TestEigenSymOpDoubleCentred(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 12))
	n, p := 250, 3
	Y := mat.NewDense(n, p, nil)
	for i := range Y.RawMatrix().Data {
		Y.RawMatrix().Data[i] = rnd.NormFloat64() * float64(1+i%p)
	}
	D := mat.NewSymDense(n, nil)
	PairwiseSquaredDistances(D, Y)
	// Explicit B = −½ H D H.
	H := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			H.Set(i, j, -1/float64(n))
		}
		H.Set(i, i, 1-1/float64(n))
	}
	var hd, hdh mat.Dense
	hd.Mul(H, D)
	hdh.Mul(&hd, H)
	B := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			B.SetSym(i, j, -0.5*hdh.At(i, j))
		}
	}
	vals, vecs, err := EigenSymOp(DoubleCentred{A: DenseOperator(D)}, 3, Largest, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkEigenpairs(t, B, 3, Largest, vals, vecs, 1e-8)
}

func TestDenseOperatorProduct(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 5, 255, 256, 257, 600} {
		a := randomSym(n, rnd)
		op := DenseOperator(a)
		b := 3
		x := make([]float64, b*n)
		for i := range x {
			x[i] = rnd.NormFloat64()
		}
		got := make([]float64, b*n)
		mulBlock(op, got, x, b)
		want := make([]float64, n)
		for v := 0; v < b; v++ {
			mat.NewVecDense(n, want).MulVec(a, mat.NewVecDense(n, x[v*n:(v+1)*n]))
			if !floats.EqualApprox(got[v*n:(v+1)*n], want, 1e-10*float64(n)) {
				t.Fatalf("n=%d vector %d: block product differs", n, v)
			}
		}
	}
}

func TestEigenSymNaN(t *testing.T) {
	a := randomSym(300, rand.New(rand.NewPCG(1, 5)))
	a.SetSym(17, 250, math.NaN())
	for _, m := range []EigenMethod{EigenDense, EigenLanczos} {
		if _, _, err := EigenSym(a, 2, Largest, &EigenSettings{Method: m}); !errors.Is(err, ErrNaN) {
			t.Errorf("method %d: err = %v, want ErrNaN", m, err)
		}
	}
	y := testutil.GaussianData(50, 3, 1)
	y.Set(3, 1, math.Inf(1))
	if _, _, _, err := TruncatedSVD(y, 2, nil); !errors.Is(err, ErrNaN) {
		t.Errorf("TruncatedSVD err = %v, want ErrNaN", err)
	}
}
