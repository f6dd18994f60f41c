package dimred

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sinData is a deterministic n×p matrix with no ties among distances,
// written so that the same numbers come out of NumPy:
//
//	i = arange(n)[:, None]; j = arange(p)[None, :]
//	sin(1.7*i*(j+1) + 0.3*seed*(j+2)) + 0.5*cos(0.37*i*i + j*seed)
func sinData(n, p, seed int) *mat.Dense {
	m := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			fi, fj, fs := float64(i), float64(j), float64(seed)
			m.Set(i, j, math.Sin(1.7*fi*(fj+1)+0.3*fs*(fj+2))+0.5*math.Cos(0.37*fi*fi+fj*fs))
		}
	}
	return m
}

// Trustworthiness, Continuity and the mean of TrustworthinessPoints and
// ContinuityPoints agree with scikit-learn 1.2.1's
// sklearn.manifold.trustworthiness (Venna & Kaski's T(k); C(k) is
// trustworthiness(X, Y)) on four unrelated pairs Y = sinData(n, p, s),
// X = sinData(n, q, s+10). The reference values were printed by
//
//	trustworthiness(Y, X, n_neighbors=k), trustworthiness(X, Y, n_neighbors=k)
//
// on this machine (review QA pass); both are sums of integer ranks over
// n·k·(2n − 3k − 1)/2, so they agree to rounding.
func TestTrustworthinessMatchesSklearn(t *testing.T) {
	for _, tc := range []struct {
		n, p, q, k, s int
		T, C          float64
	}{
		{60, 5, 2, 5, 1, 0.7200641025641026, 0.8523717948717948},
		{37, 8, 3, 7, 2, 0.6934956934956935, 0.7263142263142264},
		{100, 4, 2, 12, 3, 0.7915235173824131, 0.831717791411043},
		{25, 3, 2, 1, 4, 0.8069565217391305, 0.8817391304347826},
	} {
		Y, X := sinData(tc.n, tc.p, tc.s), sinData(tc.n, tc.q, tc.s+10)
		T, err := Trustworthiness(Y, X, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		C, err := Continuity(Y, X, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		tp, err := TrustworthinessPoints(Y, X, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		cp, err := ContinuityPoints(Y, X, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		st, se, err := SampledTrustworthiness(Y, X, tc.k, tc.n, nil)
		if err != nil {
			t.Fatal(err)
		}
		mean := func(v []float64) float64 {
			s := 0.0
			for _, x := range v {
				s += x
			}
			return s / float64(len(v))
		}
		for _, c := range []struct {
			what      string
			got, want float64
		}{
			{"Trustworthiness", T, tc.T},
			{"Continuity", C, tc.C},
			{"mean TrustworthinessPoints", mean(tp), tc.T},
			{"mean ContinuityPoints", mean(cp), tc.C},
			{"SampledTrustworthiness (m = n)", st, tc.T},
		} {
			if math.Abs(c.got-c.want) > 1e-12 {
				t.Errorf("n=%d k=%d: %s = %.16g, scikit-learn %.16g", tc.n, tc.k, c.what, c.got, c.want)
			}
		}
		if se != 0 {
			t.Errorf("n=%d: SampledTrustworthiness with m = n has stderr %g, want 0", tc.n, se)
		}
	}
}

// The rank measures depend only on the order of distances, so scaling the
// data or the embedding by any positive factor leaves them unchanged. Found
// by a review QA pass: with X scaled by 1e200 (or 1e-200, or 1e160) the
// squared distances overflowed to +Inf (underflowed to 0), every
// comparison was a tie, and Trustworthiness, Continuity, MRRE, the
// co-ranking matrix and NearestNeighbourErrors silently scored the
// embedding as if all its points coincided (here T = 0.452 for 0.730, and
// NearestNeighbourErrors 0 for 22 at X·1e200). No error was returned: every
// entry is finite.
func TestRankMeasuresScaleInvariant(t *testing.T) {
	Y, X := sinData(30, 5, 1), sinData(30, 2, 11)
	labels := make([]int, 30)
	for i := range labels {
		labels[i] = i % 3
	}
	type scores struct {
		T, C, W1, W2, auc float64
		nn                int
	}
	measure := func(Y, X mat.Matrix) scores {
		var s scores
		var err error
		if s.T, err = Trustworthiness(Y, X, 5); err != nil {
			t.Fatal(err)
		}
		if s.C, err = Continuity(Y, X, 5); err != nil {
			t.Fatal(err)
		}
		if s.W1, s.W2, err = MRRE(Y, X, 5); err != nil {
			t.Fatal(err)
		}
		c, err := NeighbourhoodCurves(Y, X, 10)
		if err != nil {
			t.Fatal(err)
		}
		s.auc = c.AUC()
		s.nn = NearestNeighbourErrors(X, labels)
		return s
	}
	want := measure(Y, X)
	for _, f := range []float64{1e200, 1e160, 1e-160, 1e-200, 1e-310} {
		var Xs, Ys mat.Dense
		Xs.Scale(f, X)
		Ys.Scale(f, Y)
		if got := measure(Y, &Xs); got != want {
			t.Errorf("X scaled by %g: %+v, unscaled %+v", f, got, want)
		}
		if got := measure(&Ys, X); got != want {
			t.Errorf("Y scaled by %g: %+v, unscaled %+v", f, got, want)
		}
	}
}
