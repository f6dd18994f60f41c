package dimred

import (
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"
)

// Independent references for the linear-Gaussian models: the marginal
// density and the Gaussian conditioning formulas written out with dense
// p×p matrices and gonum's distmv, none of the package's lemma-based
// algebra (M = WᵀW + σ²I, ppcaLogLik, smallCholInverse).

// gaussCov returns C = W Wᵀ + D (p×p), D = diag(d).
func gaussCov(W *mat.Dense, d []float64) *mat.SymDense {
	p, _ := W.Dims()
	c := mat.NewSymDense(p, nil)
	c.SymOuterK(1, W)
	for j := 0; j < p; j++ {
		c.SetSym(j, j, c.At(j, j)+d[j])
	}
	return c
}

func isoNoise(p int, s2 float64) []float64 {
	d := make([]float64, p)
	for j := range d {
		d[j] = s2
	}
	return d
}

// gaussLogLik returns Σᵢ log N(y_{i,:} | μ, C) by distmv.Normal.
func gaussLogLik(t *testing.T, Y mat.Matrix, mu []float64, C *mat.SymDense) float64 {
	t.Helper()
	nrm, ok := distmv.NewNormal(mu, C, nil)
	if !ok {
		t.Fatal("reference covariance not positive definite")
	}
	n, p := Y.Dims()
	row := make([]float64, p)
	var ll float64
	for i := 0; i < n; i++ {
		mat.Row(row, i, Y)
		ll += nrm.LogProb(row)
	}
	return ll
}

// condMean returns the posterior means E[x|y] = Wᵀ C⁻¹ (y − μ) of the rows
// of Y (r×q) for y = W x + μ + ε, x ~ N(0, I), ε ~ N(0, D).
func condMean(Y *mat.Dense, W *mat.Dense, mu, d []float64) *mat.Dense {
	r, p := Y.Dims()
	_, q := W.Dims()
	yc := mat.NewDense(r, p, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < p; j++ {
			yc.Set(i, j, Y.At(i, j)-mu[j])
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(gaussCov(W, d)) {
		panic("reference covariance not positive definite")
	}
	var z mat.Dense // C⁻¹ Ŷᵀ (p×r)
	if err := ch.SolveTo(&z, yc.T()); err != nil {
		panic(err)
	}
	x := mat.NewDense(r, q, nil)
	x.Mul(z.T(), W)
	return x
}

// condCov returns the posterior covariance Cov[x|y] = I − Wᵀ C⁻¹ W (q×q).
func condCov(W *mat.Dense, d []float64) *mat.SymDense {
	_, q := W.Dims()
	var ch mat.Cholesky
	if !ch.Factorize(gaussCov(W, d)) {
		panic("reference covariance not positive definite")
	}
	var z mat.Dense
	if err := ch.SolveTo(&z, W); err != nil {
		panic(err)
	}
	var wz mat.Dense
	wz.Mul(W.T(), &z)
	s := mat.NewSymDense(q, nil)
	for a := 0; a < q; a++ {
		for b := a; b < q; b++ {
			v := -0.5 * (wz.At(a, b) + wz.At(b, a))
			if a == b {
				v++
			}
			s.SetSym(a, b, v)
		}
	}
	return s
}
