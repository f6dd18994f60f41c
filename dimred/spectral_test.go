package dimred

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"
	"gonum.org/v1/gonum/mat"
)

// sheet returns n points uniform on the rectangle [0, a]×[0, b], placed in
// R³ by a fixed rotation (so no coordinate is the answer), and the 2-D
// coordinates T.
func sheet(n int, a, b float64, seed uint64) (Y, T *mat.Dense) {
	rnd := rand.New(rand.NewPCG(seed, 7))
	T = mat.NewDense(n, 2, nil)
	Y = mat.NewDense(n, 3, nil)
	// An orthonormal 3×2 frame.
	e1 := []float64{2 / 3.0, 2 / 3.0, 1 / 3.0}
	e2 := []float64{-2 / 3.0, 1 / 3.0, 2 / 3.0}
	for i := 0; i < n; i++ {
		u, v := a*rnd.Float64(), b*rnd.Float64()
		T.Set(i, 0, u)
		T.Set(i, 1, v)
		for c := 0; c < 3; c++ {
			Y.Set(i, c, u*e1[c]+v*e2[c]+1)
		}
	}
	return Y, T
}

// affineResidual returns the relative residual ‖T − [X 1] β‖_F / ‖T − T̄‖_F
// of the least-squares affine map from X (n×q) to T (n×r).
func affineResidual(X, T mat.Matrix) float64 {
	n, q := X.Dims()
	_, r := T.Dims()
	A := mat.NewDense(n, q+1, nil)
	for i := 0; i < n; i++ {
		for c := 0; c < q; c++ {
			A.Set(i, c, X.At(i, c))
		}
		A.Set(i, q, 1)
	}
	var beta mat.Dense
	if err := beta.Solve(A, T); err != nil {
		panic(err)
	}
	var fit mat.Dense
	fit.Mul(A, &beta)
	res, tot := 0.0, 0.0
	for c := 0; c < r; c++ {
		mean := 0.0
		for i := 0; i < n; i++ {
			mean += T.At(i, c)
		}
		mean /= float64(n)
		for i := 0; i < n; i++ {
			d := T.At(i, c) - fit.At(i, c)
			res += d * d
			e := T.At(i, c) - mean
			tot += e * e
		}
	}
	return math.Sqrt(res / tot)
}

// A flat sheet is recovered: Isomap and LLE up to an affine map of the
// sheet's coordinates; Laplacian eigenmaps up to an affine map of the
// first two Neumann eigenfunctions of the rectangle, cos(πu/a) and
// cos(πv/b) (LE does not linearise a plane: its continuum limit is the
// Laplace–Beltrami operator, whose eigenfunctions on [0,a]×[0,b] are
// cos(iπu/a)cos(jπv/b); with a = 1, b = 0.7 the two lowest are (1,0), (0,1)).
// Tolerances: measured residuals (Isomap 0.022, LLE 0.049, LE 0.076–0.11;
// kNN geodesics zigzag, so Isomap stretches slightly) with 1.4–3× head-room for sampling noise
// at n = 800.
func TestSpectralRecoversSheet(t *testing.T) {
	const a, b = 1.0, 0.7
	Y, T := sheet(800, a, b, 1)
	n, _ := T.Dims()
	C := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		C.Set(i, 0, math.Cos(math.Pi*T.At(i, 0)/a))
		C.Set(i, 1, math.Cos(math.Pi*T.At(i, 1)/b))
	}
	for _, c := range []struct {
		name   string
		m      Embedder
		target *mat.Dense
		tol    float64
	}{
		{"Isomap", &Isomap{Q: 2, K: 10}, T, 0.04},
		{"Isomap/landmark", &Isomap{Q: 2, K: 10, Landmarks: 100}, T, 0.04},
		{"LLE", &LLE{Q: 2, K: 12}, T, 0.15},
		{"LE/heat", &LaplacianEigenmaps{Q: 2, K: 10, T: 0.05, Problem: LEGeneralised}, C, 0.12},
		{"LE/constant", &LaplacianEigenmaps{Q: 2, K: 10, Weighting: ConstantWeights, Problem: LEGeneralised}, C, 0.12},
		{"LE/normalised", &LaplacianEigenmaps{Q: 2, K: 10, T: 0.05}, C, 0.15},
		{"LE/unnormalised", &LaplacianEigenmaps{Q: 2, K: 10, T: 0.05, Problem: LEUnnormalised}, C, 0.15},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.m.Fit(Y); err != nil {
				t.Fatal(err)
			}
			var X mat.Dense
			c.m.LatentTo(&X)
			r := affineResidual(&X, c.target)
			t.Logf("affine residual %.4f", r)
			if r > c.tol {
				t.Errorf("affine residual %.4f > %.4f", r, c.tol)
			}
		})
	}
}

// On the complete graph (k = n−1) the geodesic between two points is
// their Euclidean distance (the direct edge is a shortest path by the
// triangle inequality), so Isomap is classical MDS.
func TestIsomapCompleteGraphIsClassicalMDS(t *testing.T) {
	Y := conformanceData()
	n, _ := Y.Dims()
	iso := &Isomap{Q: 2, K: n - 1, FullSpectrum: true}
	if err := iso.Fit(Y); err != nil {
		t.Fatal(err)
	}
	mds := &ClassicalMDS{Q: 2, FullSpectrum: true}
	if err := mds.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var X1, X2 mat.Dense
	iso.LatentTo(&X1)
	mds.LatentTo(&X2)
	if !mat.EqualApprox(&X1, &X2, 1e-9) {
		t.Errorf("Isomap on the complete graph differs from classical MDS")
	}
	v1, v2 := iso.EigenvaluesTo(nil), mds.EigenvaluesTo(nil)
	for i := range v1 {
		if math.Abs(v1[i]-v2[i]) > 1e-9*math.Abs(v2[0]) {
			t.Errorf("eigenvalue %d: %v vs %v", i, v1[i], v2[i])
		}
	}
	if nm := iso.NegativeMass(); nm > 1e-12 {
		t.Errorf("negative mass %g on Euclidean geodesics", nm)
	}
}

// Two well-separated clusters with small k give a disconnected graph: a
// named error, and the model stays unfitted.
func TestSpectralDisconnected(t *testing.T) {
	n := 40
	Y := mat.NewDense(n, 2, nil)
	rnd := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < n; i++ {
		off := 0.0
		if i >= n/2 {
			off = 100
		}
		Y.Set(i, 0, off+rnd.Float64())
		Y.Set(i, 1, rnd.Float64())
	}
	for _, m := range []Embedder{
		&Isomap{Q: 2, K: 5}, &Isomap{Q: 2, K: 5, Landmarks: 10}, &LLE{Q: 2, K: 5}, &LaplacianEigenmaps{Q: 2, K: 5},
	} {
		err := m.Fit(Y)
		if !errors.Is(err, ErrDisconnected) {
			t.Errorf("%T: err = %v, want ErrDisconnected", m, err)
		}
		mustPanic(t, "LatentTo after failed Fit", func() { m.LatentTo(&mat.Dense{}) })
	}
}

// Duplicated points make the local Gram matrix singular even for k < p:
// the regulariser handles them, no crash, finite result.
func TestLLEDuplicatedPoints(t *testing.T) {
	Y, _ := sheet(200, 1, 0.7, 2)
	n, p := Y.Dims()
	Yd := mat.NewDense(n+20, p, nil)
	Yd.Slice(0, n, 0, p).(*mat.Dense).Copy(Y)
	for i := 0; i < 20; i++ {
		Yd.SetRow(n+i, Y.RawRowView(i))
	}
	// k = 3 = p: no regulariser by default, but a duplicated point has its
	// twin as a neighbour at distance zero, so C_i has a zero row.
	m := &LLE{Q: 2, K: 3, Reg: 0}
	if err := m.Fit(Yd); err != nil && !errors.Is(err, ErrDisconnected) {
		t.Fatal(err)
	}
	m = &LLE{Q: 2, K: 8}
	if err := m.Fit(Yd); err != nil {
		t.Fatal(err)
	}
	var X mat.Dense
	m.LatentTo(&X)
	for _, v := range X.RawMatrix().Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatal("non-finite embedding")
		}
	}
	// Rows of W sum to one.
	W := m.Weights()
	for i, s := range W.RowSums() {
		if math.Abs(s-1) > 1e-9 {
			t.Fatalf("row %d of W sums to %v", i, s)
		}
	}
}

// The implied matrices: L 1 = 0 (LLE's M, unnormalised LE), and classical
// MDS on K = H (L + γI)⁻¹ H spans the embedding (paper eq. 6).
func TestImpliedCovarianceGivesEmbedding(t *testing.T) {
	Y, _ := sheet(150, 1, 0.7, 4)
	for _, m := range []SpectralModel{
		&LLE{Q: 2, K: 8},
		&LaplacianEigenmaps{Q: 2, K: 8, T: 0.05},
		&LaplacianEigenmaps{Q: 2, K: 8, T: 0.05, Problem: LEUnnormalised},
		&Isomap{Q: 2, K: 8},
	} {
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		im := m.Implied()
		if im.Precision != nil && im.Null == nil {
			n := im.Precision.N
			one := make([]float64, n)
			for i := range one {
				one[i] = 1
			}
			z := make([]float64, n)
			im.Precision.MulVecTo(z, one)
			for i, v := range z {
				if math.Abs(v) > 1e-10 {
					t.Fatalf("%T: (L1)_%d = %g", m, i, v)
				}
			}
		}
		B, err := ImpliedCovariance(m, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		_, U, err := linalg.EigenSym(B, 2, linalg.Largest, nil)
		if err != nil {
			t.Fatal(err)
		}
		var X mat.Dense
		m.LatentTo(&X)
		if m, ok := m.(*LaplacianEigenmaps); ok && m.Problem == LEGeneralised {
			continue
		}
		if s := linalg.SubspaceAngle(U, &X); s > 1e-6 {
			t.Errorf("%T: angle between top eigenvectors of the implied covariance and X = %g", m, s)
		}
	}
}

// ProjectTo of (nearly) the training points reproduces their embedding:
// Isomap's landmark/Nyström formula to round-off (Gower's add-a-point
// places a fitted point exactly); LLE closely (the point is its own
// nearest neighbour at distance 1e-9, so the weights put almost all mass
// on it); Laplacian eigenmaps approximately (with a union kNN graph a
// training point also has edges from points that list it, which the
// new-point row lacks; measured 0.03–0.11).
func TestSpectralProjectTo(t *testing.T) {
	Y, _ := sheet(300, 1, 0.7, 5)
	for _, c := range []struct {
		m   Projector
		tol float64
	}{
		{&Isomap{Q: 2, K: 10}, 1e-6},
		{&Isomap{Q: 2, K: 10, Landmarks: 60}, 1e-6},
		{&LLE{Q: 2, K: 10}, 0.05},
		{&LaplacianEigenmaps{Q: 2, K: 10, Weighting: ConstantWeights}, 0.3},
		{&LaplacianEigenmaps{Q: 2, K: 10, T: 0.05, Problem: LEGeneralised}, 0.3},
		{&LaplacianEigenmaps{Q: 2, K: 10, T: 0.05, Problem: LEUnnormalised}, 0.3},
	} {
		if err := c.m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var X, P mat.Dense
		c.m.LatentTo(&X)
		// Perturb each training point slightly: the projection must stay
		// close to the point's embedding (relative to the spread of X).
		Yp := mat.DenseCopyOf(Y)
		Yp.Apply(func(i, j int, v float64) float64 { return v + 1e-9*float64((i+j)%3-1) }, Yp)
		c.m.ProjectTo(&P, Yp)
		var D mat.Dense
		D.Sub(&P, &X)
		rel := mat.Norm(&D, 2) / mat.Norm(&X, 2)
		t.Logf("%T: relative ‖P − X‖ = %.3g", c.m, rel)
		if rel > c.tol {
			t.Errorf("%T: projection of training points off by %.3g (> %g)", c.m, rel, c.tol)
		}
	}
}
