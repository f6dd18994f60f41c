package dimred

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"
	"gonum.org/v1/gonum/mat"
)

// sklearnRef is testdata/spectral_sklearn.json, written by
// testdata/spectral_sklearn.py (scikit-learn 1.2.1, numpy 1.24.2, scipy
// 1.10.1 from Debian 12's python3-sklearn): a noisy 300-point swiss roll
// and scikit-learn's Isomap, LLE and SpectralEmbedding of it on the same
// k = 10 graphs.
type sklearnRef struct {
	N, K      int
	Y         [][]float64
	Isomap    [][]float64
	IsomapEig []float64 `json:"isomap_eigenvalues"`
	LLE       [][]float64
	LET       float64 `json:"le_t"`
	LE        [][]float64
}

func loadSklearnRef(t *testing.T) *sklearnRef {
	t.Helper()
	b, err := os.ReadFile("testdata/spectral_sklearn.json")
	if err != nil {
		t.Fatal(err)
	}
	var r sklearnRef
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func rowsDense(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// columnCosines returns |cos| of the angle between column c of A and of B.
func columnCosines(A, B *mat.Dense) []float64 {
	_, q := A.Dims()
	out := make([]float64, q)
	for c := 0; c < q; c++ {
		a, b := mat.Col(nil, c, A), mat.Col(nil, c, B)
		va, vb := mat.NewVecDense(len(a), a), mat.NewVecDense(len(b), b)
		out[c] = math.Abs(mat.Dot(va, vb)) / (va.Norm(2) * vb.Norm(2))
	}
	return out
}

// Agreement with scikit-learn on identical input and graphs: Isomap
// column by column up to sign (same scaling X = U Λ^{1/2}) with the same
// eigenvalues; LLE and Laplacian eigenmaps (generalised problem) column by
// column up to sign and scale (scikit-learn returns unit-norm
// eigenvectors, dimred √n times them, resp. D^{-1/2}v unscaled).
func TestSpectralAgreesWithSklearn(t *testing.T) {
	r := loadSklearnRef(t)
	Y := rowsDense(r.Y)

	iso := &Isomap{Q: 2, K: r.K}
	if err := iso.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var X mat.Dense
	iso.LatentTo(&X)
	ref := rowsDense(r.Isomap)
	for c, cs := range columnCosines(&X, ref) {
		if cs < 1-1e-9 {
			t.Errorf("Isomap column %d: |cos| = %.12f with scikit-learn", c, cs)
		}
	}
	for c := 0; c < 2; c++ {
		a, b := mat.Norm(X.ColView(c), 2), mat.Norm(ref.ColView(c), 2)
		if math.Abs(a-b) > 1e-8*b {
			t.Errorf("Isomap column %d norm %v, scikit-learn %v", c, a, b)
		}
	}
	vals := iso.EigenvaluesTo(nil)
	for c, v := range r.IsomapEig {
		if math.Abs(vals[c]-v) > 1e-8*v {
			t.Errorf("Isomap λ_%d = %v, scikit-learn %v", c, vals[c], v)
		}
	}

	for _, c := range []struct {
		name string
		m    Embedder
		ref  [][]float64
		tol  float64
	}{
		// Measured 1 − |cos| ≤ 5e-16 for both (dense solve at n = 300).
		{"LLE", &LLE{Q: 2, K: r.K, Reg: 1e-3}, r.LLE, 1e-9},
		{"LaplacianEigenmaps", &LaplacianEigenmaps{Q: 2, K: r.K, T: r.LET, Problem: LEGeneralised}, r.LE, 1e-9},
	} {
		if err := c.m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var X mat.Dense
		c.m.LatentTo(&X)
		ref := rowsDense(c.ref)
		for col, cs := range columnCosines(&X, ref) {
			t.Logf("%s column %d: 1 − |cos| = %.3g", c.name, col, 1-cs)
			if cs < 1-c.tol {
				t.Errorf("%s column %d: |cos| = %.9f with scikit-learn", c.name, col, cs)
			}
		}
		if s := linalg.SubspaceAngle(&X, ref); s > math.Sqrt(c.tol) {
			t.Errorf("%s: subspace angle %.3g with scikit-learn", c.name, s)
		}
	}
}
