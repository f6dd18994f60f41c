package dimred

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The co-ranking matrix of an embedding that keeps every distance order
// (a scaled rotation) is n·I; every row and column sums to n; the curves
// from the histogram agree with the matrix's blocks; a random embedding
// scores Q_NX(K) ≈ K/(n−1), i.e. LCMC ≈ 0 and R_NX ≈ 0.
func TestCoRanking(t *testing.T) {
	Y := conformanceData()
	n, _ := Y.Dims()
	var Xs mat.Dense
	Xs.Scale(3, Y)
	Q, err := CoRankingMatrix(Y, &Xs)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < n-1; k++ {
		for l := 0; l < n-1; l++ {
			want := 0.0
			if k == l {
				want = float64(n)
			}
			if Q.At(k, l) != want {
				t.Fatalf("Q[%d,%d] = %v, want %v", k, l, Q.At(k, l), want)
			}
		}
	}
	c, err := NeighbourhoodCurves(Y, &Xs, 0)
	if err != nil {
		t.Fatal(err)
	}
	for K, q := range c.QNX {
		if q != 1 {
			t.Fatalf("Q_NX(%d) = %v for an order-preserving embedding", K+1, q)
		}
	}
	if a := c.AUC(); math.Abs(a-1) > 1e-12 {
		t.Errorf("AUC = %v, want 1", a)
	}

	// PCA to 2-D: curves equal the matrix's block sums.
	var X mat.Dense
	p := &PCA{Q: 2}
	if err := p.Fit(Y); err != nil {
		t.Fatal(err)
	}
	p.LatentTo(&X)
	Q, _ = CoRankingMatrix(Y, &X)
	c, _ = NeighbourhoodCurves(Y, &X, 10)
	if len(c.QNX) != 10 {
		t.Fatalf("len %d", len(c.QNX))
	}
	for k := 0; k < n-1; k++ {
		rs, cs := 0.0, 0.0
		for l := 0; l < n-1; l++ {
			rs += Q.At(k, l)
			cs += Q.At(l, k)
		}
		if rs != float64(n) || cs != float64(n) {
			t.Fatalf("row/col %d sums %v, %v; want %d", k, rs, cs, n)
		}
	}
	for K := 1; K <= 10; K++ {
		s := 0.0
		for k := 0; k < K; k++ {
			for l := 0; l < K; l++ {
				s += Q.At(k, l)
			}
		}
		if want := s / float64(K*n); math.Abs(c.QNX[K-1]-want) > 1e-15 {
			t.Errorf("Q_NX(%d) = %v, block sum %v", K, c.QNX[K-1], want)
		}
		if lc := c.LCMC[K-1]; math.Abs(lc-(c.QNX[K-1]-float64(K)/float64(n-1))) > 1e-15 {
			t.Errorf("LCMC(%d) = %v", K, lc)
		}
	}

	// Random embedding: E[Q_NX(K)] = K/(n−1); averaged over K = 1…n−2 the
	// rescaled R_NX is near zero (sd ≈ 0.02 at n = 300).
	rnd := rand.New(rand.NewPCG(9, 9))
	m := 300
	Yr := mat.NewDense(m, 3, nil)
	Xr := mat.NewDense(m, 2, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < 3; j++ {
			Yr.Set(i, j, rnd.NormFloat64())
		}
		Xr.Set(i, 0, rnd.NormFloat64())
		Xr.Set(i, 1, rnd.NormFloat64())
	}
	c, _ = NeighbourhoodCurves(Yr, Xr, 0)
	mean := 0.0
	for _, v := range c.RNX {
		mean += v
	}
	mean /= float64(len(c.RNX))
	if math.Abs(mean) > 0.03 {
		t.Errorf("mean R_NX of a random embedding = %v, want ≈ 0", mean)
	}
}

// NeighbourhoodCurves' maxK follows the package's neighbour-count rule
// (DESIGN: errors vs panics): 0 is the documented default n−2, a negative
// maxK is a programmer error and panics, and a maxK the data are too small
// for (maxK ≥ n−1: R_NX(n−1) would divide by n−1−K = 0) is an error
// wrapping ErrTooFewPoints. Found by review: −1 and every maxK ≥ n−1 were
// silently replaced by n−2.
func TestNeighbourhoodCurvesMaxK(t *testing.T) {
	Y := conformanceData()
	n, _ := Y.Dims()
	var X mat.Dense
	X.Scale(2, Y)
	for _, tc := range []struct{ maxK, len int }{{0, n - 2}, {1, 1}, {n - 2, n - 2}} {
		c, err := NeighbourhoodCurves(Y, &X, tc.maxK)
		if err != nil {
			t.Fatalf("maxK = %d: %v", tc.maxK, err)
		}
		if len(c.QNX) != tc.len || len(c.RNX) != tc.len {
			t.Errorf("maxK = %d: curves of length %d, want %d", tc.maxK, len(c.QNX), tc.len)
		}
	}
	for _, maxK := range []int{n - 1, n, n + 5} {
		c, err := NeighbourhoodCurves(Y, &X, maxK)
		if !errors.Is(err, ErrTooFewPoints) || c != nil {
			t.Errorf("maxK = %d with n = %d: got curves %v, error %v; want no curves and an error wrapping ErrTooFewPoints", maxK, n, c != nil, err)
		} else if !strings.Contains(err.Error(), fmt.Sprintf("maxK = %d", maxK)) {
			t.Errorf("maxK = %d: the error %q does not name maxK", maxK, err)
		}
	}
	for _, maxK := range []int{-1, -10} {
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.Contains(s, "dimred: NeighbourhoodCurves maxK") {
					t.Errorf("maxK = %d: recovered %v, want a dimred panic naming maxK", maxK, r)
				}
			}()
			NeighbourhoodCurves(Y, &X, maxK)
		}()
	}
}
