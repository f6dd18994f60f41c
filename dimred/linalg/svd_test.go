package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"

	"gonum.org/v1/gonum/mat"
)

// lowRankPlusNoise returns an m×n matrix with singular values decaying as
// decay^i plus small Gaussian noise.
func lowRankPlusNoise(m, n int, decay, noise float64, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 7))
	r := min(m, n)
	U := orthonormalCols(testutil.GaussianData(m, r, seed+1), rnd)
	V := orthonormalCols(testutil.GaussianData(n, r, seed+2), rnd)
	for j := 0; j < r; j++ {
		s := 100 * math.Pow(decay, float64(j))
		for i := 0; i < m; i++ {
			U.Set(i, j, U.At(i, j)*s)
		}
	}
	var A mat.Dense
	A.Mul(U, V.T())
	for i := range A.RawMatrix().Data {
		A.RawMatrix().Data[i] += noise * rnd.NormFloat64()
	}
	return &A
}

func checkSVD(t *testing.T, a mat.Matrix, k int, sv []float64, u, v *mat.Dense, svTol, vecTol float64) {
	t.Helper()
	m, n := a.Dims()
	var svd mat.SVD
	svd.Factorize(a, mat.SVDThin)
	want := svd.Values(nil)
	for i := 0; i < k; i++ {
		if math.Abs(sv[i]-want[i]) > svTol*want[0] {
			t.Errorf("σ_%d = %v, oracle %v", i, sv[i], want[i])
		}
	}
	if r, c := u.Dims(); r != m || c != k {
		t.Fatalf("U is %d×%d", r, c)
	}
	if r, c := v.Dims(); r != n || c != k {
		t.Fatalf("V is %d×%d", r, c)
	}
	// Residuals A v = σ u, Aᵀ u = σ v; orthonormality.
	for j := 0; j < k; j++ {
		av := mat.NewVecDense(m, nil)
		av.MulVec(a, v.ColView(j))
		av.AddScaledVec(av, -sv[j], u.ColView(j))
		atu := mat.NewVecDense(n, nil)
		atu.MulVec(a.T(), u.ColView(j))
		atu.AddScaledVec(atu, -sv[j], v.ColView(j))
		if r := math.Max(mat.Norm(av, 2), mat.Norm(atu, 2)); r > vecTol*want[0] {
			t.Errorf("triplet %d residual %.3g", j, r)
		}
	}
	for _, q := range []*mat.Dense{u, v} {
		var g mat.Dense
		g.Mul(q.T(), q)
		if !mat.EqualApprox(&g, eye(k), 1e-8) {
			t.Errorf("columns not orthonormal")
		}
	}
}

func eye(k int) *mat.Dense {
	d := mat.NewDense(k, k, nil)
	for i := 0; i < k; i++ {
		d.Set(i, i, 1)
	}
	return d
}

func TestTruncatedSVDExactAndDense(t *testing.T) {
	for _, shape := range [][2]int{{400, 250}, {250, 400}, {300, 40}} {
		a := lowRankPlusNoise(shape[0], shape[1], 0.8, 1e-3, 1)
		for _, m := range []SVDMethod{SVDDense, SVDExact, SVDAuto} {
			t.Run(fmt.Sprintf("%dx%d/method=%d", shape[0], shape[1], m), func(t *testing.T) {
				sv, u, v, err := TruncatedSVD(a, 5, &SVDSettings{Method: m})
				if err != nil {
					t.Fatal(err)
				}
				checkSVD(t, a, 5, sv, u, v, 1e-9, 1e-7)
			})
		}
	}
}

func TestTruncatedSVDRankDeficient(t *testing.T) {
	// Rank 2 matrix, ask for 4 triplets: σ_3 = σ_4 = 0 and U, V must still
	// be orthonormal.
	a := mat.NewDense(300, 220, nil)
	x := testutil.GaussianData(300, 2, 3)
	y := testutil.GaussianData(220, 2, 4)
	a.Mul(x, y.T())
	sv, u, v, err := TruncatedSVD(a, 4, &SVDSettings{Method: SVDExact})
	if err != nil {
		t.Fatal(err)
	}
	checkSVD(t, a, 4, sv, u, v, 1e-7, 1e-6)
}

func TestTruncatedSVDRandomizedBound(t *testing.T) {
	a := lowRankPlusNoise(500, 300, 0.7, 1e-2, 2)
	var svd mat.SVD
	svd.Factorize(a, mat.SVDThin)
	all := svd.Values(nil)
	k := 6
	for _, q := range []int{-1, 1, 4} {
		sv, u, v, err := TruncatedSVD(a, k, &SVDSettings{Method: SVDRandomized, PowerIters: q})
		if err != nil {
			t.Fatal(err)
		}
		// ‖A − U Σ Vᵀ‖₂ against the optimum σ_{k+1}: HMT bound with p = 10.
		var us, approx mat.Dense
		us.Mul(u, mat.NewDiagDense(k, sv))
		approx.Mul(&us, v.T())
		var e mat.Dense
		e.Sub(a, &approx)
		err2 := mat.Norm(&e, 2)
		qq := float64(max(q, 0))
		bound := math.Pow(1+9*math.Sqrt(float64(k+10))*math.Sqrt(300), 1/(2*qq+1)) * all[k]
		if err2 > bound {
			t.Errorf("q=%d: ‖A − UΣVᵀ‖ = %v > HMT bound %v (σ_k+1 = %v)", q, err2, bound, all[k])
		}
		if q == 4 {
			for i := 0; i < k; i++ {
				if math.Abs(sv[i]-all[i]) > 1e-6*all[0] {
					t.Errorf("q=4: σ_%d = %v, exact %v", i, sv[i], all[i])
				}
			}
		}
	}
}

func TestTruncatedSVDSigns(t *testing.T) {
	a := lowRankPlusNoise(260, 230, 0.8, 1e-3, 5)
	_, u1, v1, _ := TruncatedSVD(a, 3, &SVDSettings{Method: SVDDense})
	for _, m := range []SVDMethod{SVDExact, SVDRandomized} {
		_, u2, v2, _ := TruncatedSVD(a, 3, &SVDSettings{Method: m})
		if !mat.EqualApprox(v1, v2, 1e-6) || !mat.EqualApprox(u1, u2, 1e-6) {
			t.Errorf("method %d: singular vectors differ from dense after the sign convention", m)
		}
	}
}
