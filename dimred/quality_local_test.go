package dimred

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randomEmbeddingPair(n, p, q int, seed uint64) (*mat.Dense, *mat.Dense) {
	rnd := rand.New(rand.NewPCG(seed, 1))
	Y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			Y.Set(i, j, rnd.NormFloat64())
		}
	}
	// X: the first q coordinates plus noise — a partly faithful embedding.
	X := mat.NewDense(n, q, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < q; j++ {
			X.Set(i, j, Y.At(i, j)+0.5*rnd.NormFloat64())
		}
	}
	return Y, X
}

func TestTrustworthinessPoints(t *testing.T) {
	for _, p := range []int{5, 30} { // both distance paths
		Y, X := randomEmbeddingPair(300, p, 2, uint64(p))
		for _, k := range []int{5, 12} {
			T, _ := Trustworthiness(Y, X, k)
			C, _ := Continuity(Y, X, k)
			tp, err := TrustworthinessPoints(Y, X, k)
			if err != nil {
				t.Fatal(err)
			}
			cp, _ := ContinuityPoints(Y, X, k)
			if m := mean(tp); math.Abs(m-T) > 1e-12 {
				t.Errorf("p=%d k=%d: mean t_i = %v, T = %v", p, k, m, T)
			}
			if m := mean(cp); math.Abs(m-C) > 1e-12 {
				t.Errorf("p=%d k=%d: mean c_i = %v, C = %v", p, k, m, C)
			}
			// m = n: exactly T, no error; m < n: within 4 standard errors.
			Te, se, _ := SampledTrustworthiness(Y, X, k, 300, nil)
			if math.Abs(Te-T) > 1e-12 || se != 0 {
				t.Errorf("p=%d k=%d: m = n gives %v ± %v, want %v ± 0", p, k, Te, se, T)
			}
			Ts, se, _ := SampledTrustworthiness(Y, X, k, 60, rand.NewPCG(9, 9))
			if se <= 0 || math.Abs(Ts-T) > 4*se {
				t.Errorf("p=%d k=%d: sampled %v ± %v, exact %v", p, k, Ts, se, T)
			}
		}
	}
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// mrreBrute is MRRE from its definition with full rank matrices (sorting
// every row), an implementation independent of MRRE's selection and
// counting passes.
func mrreBrute(Y, X *mat.Dense, k int) (wn, wv float64) {
	n, _ := Y.Dims()
	ranks := func(A *mat.Dense) [][]int {
		R := make([][]int, n)
		for i := 0; i < n; i++ {
			idx := make([]int, 0, n-1)
			d := make([]float64, n)
			for j := 0; j < n; j++ {
				var s float64
				for c := 0; c < A.RawMatrix().Cols; c++ {
					u := A.At(i, c) - A.At(j, c)
					s += u * u
				}
				d[j] = s
				if j != i {
					idx = append(idx, j)
				}
			}
			sort.SliceStable(idx, func(a, b int) bool { return d[idx[a]] < d[idx[b]] })
			R[i] = make([]int, n)
			for r, j := range idx {
				R[i][j] = r + 1
			}
		}
		return R
	}
	rho, r := ranks(Y), ranks(X)
	H := 0.0
	for l := 1; l <= k; l++ {
		H += math.Abs(float64(n-2*l)) / float64(l)
	}
	H *= float64(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			if r[i][j] <= k {
				wn += math.Abs(float64(rho[i][j]-r[i][j])) / float64(rho[i][j])
			}
			if rho[i][j] <= k {
				wv += math.Abs(float64(rho[i][j]-r[i][j])) / float64(r[i][j])
			}
		}
	}
	return wn / H, wv / H
}

func TestMRRE(t *testing.T) {
	Y, X := randomEmbeddingPair(120, 6, 2, 4)
	for _, k := range []int{1, 7, 20} {
		wn, wv, err := MRRE(Y, X, k)
		if err != nil {
			t.Fatal(err)
		}
		bn, bv := mrreBrute(Y, X, k)
		if math.Abs(wn-bn) > 1e-14 || math.Abs(wv-bv) > 1e-14 {
			t.Errorf("k=%d: MRRE = %v, %v; from the definition %v, %v", k, wn, wv, bn, bv)
		}
		if wn <= 0 || wv <= 0 {
			t.Errorf("k=%d: a noisy embedding has zero MRRE", k)
		}
	}
	// A perfect embedding (an isometry of Y) has none.
	wn, wv, _ := MRRE(Y, Y, 7)
	if wn != 0 || wv != 0 {
		t.Errorf("MRRE(Y, Y) = %v, %v, want 0, 0", wn, wv)
	}
}
