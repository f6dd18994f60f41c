package dimred

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"

	"github.com/dimredbook/book/dimred/internal/benchutil"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/mds"
)

func randMatrix(rng *rand.Rand, n, p int) *mat.Dense {
	m := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	return m
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	m := 0.0
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

func TestDoubleCentreIsGram(t *testing.T) {
	// −½HDH = ŶŶᵀ (book §3.5).
	rng := rand.New(rand.NewPCG(1, 2))
	Y := randMatrix(rng, 20, 5)
	D := mat.NewSymDense(20, nil)
	linalg.PairwiseSquaredDistances(D, Y)
	B := linalg.DoubleCentre(nil, D)
	var yc, G mat.Dense
	linalg.CentreColumns(&yc, Y)
	G.Mul(&yc, yc.T())
	if d := maxAbsDiff(B, &G); d > 1e-10 {
		t.Errorf("−½HDH − ŶŶᵀ: max |diff| = %g", d)
	}
	// zero row sums
	for i := 0; i < 20; i++ {
		s := 0.0
		for j := 0; j < 20; j++ {
			s += B.At(i, j)
		}
		if math.Abs(s) > 1e-10 {
			t.Errorf("row %d of B sums to %g", i, s)
		}
	}
	// the shared implicit operator agrees with the dense B
	op := linalg.DoubleCentred{A: linalg.DenseOperator(D)}
	x := make([]float64, 20)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	got := make([]float64, 20)
	op.MulVecTo(got, x)
	var want mat.VecDense
	want.MulVec(B, mat.NewVecDense(20, x))
	for i := range got {
		if math.Abs(got[i]-want.AtVec(i)) > 1e-10 {
			t.Fatalf("operator row %d: %g vs %g", i, got[i], want.AtVec(i))
		}
	}
}

func TestClassicalMDSExactOnEuclidean(t *testing.T) {
	// CMDS with q = rank reproduces Euclidean distances exactly and
	// recovers the configuration up to rotation/reflection/translation.
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		n, p int
		full bool
	}{{40, 3, true}, {60, 2, false}, {1200, 3, false}, {700, 3, true}} {
		t.Run(fmt.Sprintf("n=%d,p=%d,full=%v", tc.n, tc.p, tc.full), func(t *testing.T) {
			if tc.n > 500 && testing.Short() {
				t.Skip("large")
			}
			Y := randMatrix(rng, tc.n, tc.p)
			m := &ClassicalMDS{Q: tc.p, FullSpectrum: tc.full}
			if err := m.Fit(Y); err != nil {
				t.Fatal(err)
			}
			var X mat.Dense
			m.LatentTo(&X)
			D, Dx := mat.NewSymDense(tc.n, nil), mat.NewSymDense(tc.n, nil)
			linalg.PairwiseSquaredDistances(D, Y)
			linalg.PairwiseSquaredDistances(Dx, &X)
			if d := maxAbsDiff(D, Dx); d > 1e-8 {
				t.Errorf("distances not reproduced: max |Δ| = %g", d)
			}
			res, err := Procrustes(&X, Y, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.RMS > 1e-8 {
				t.Errorf("Procrustes RMS %g", res.RMS)
			}
			if m.AllEigenvalues() {
				pos, neg, zero := m.EigenvalueSigns(0)
				if pos != tc.p || neg != 0 || zero != tc.n-tc.p {
					t.Errorf("signs %d/%d/%d, want %d/0/%d", pos, neg, zero, tc.p, tc.n-tc.p)
				}
				if nm := m.NegativeMass(); nm > 1e-12 {
					t.Errorf("negative mass %g on Euclidean data", nm)
				}
				a1, a2 := m.FitRatios()
				if math.Abs(a1-1) > 1e-10 || math.Abs(a2-1) > 1e-10 {
					t.Errorf("fit ratios %g %g, want 1 1", a1, a2)
				}
			} else {
				mustPanic(t, "NegativeMass without the full spectrum", func() { m.NegativeMass() })
				mustPanic(t, "FitRatios without the full spectrum", func() { m.FitRatios() })
			}
		})
	}
}

func TestClassicalMDSScaleP(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	Y := randMatrix(rng, 30, 6)
	a, b := &ClassicalMDS{Q: 2}, &ClassicalMDS{Q: 2, P: 6}
	if err := a.Fit(Y); err != nil {
		t.Fatal(err)
	}
	if err := b.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var xa, xb mat.Dense
	a.LatentTo(&xa)
	b.LatentTo(&xb)
	xa.Scale(math.Sqrt(2.0/6), &xa)
	if d := maxAbsDiff(&xa, &xb); d > 1e-12 {
		t.Errorf("√(q/p) scaling: %g", d)
	}
}

// nonEuclidean returns plain distances that violate Euclidean geometry:
// Euclidean distances of a random cloud multiplied by random factors.
func nonEuclidean(rng *rand.Rand, n int) *mat.SymDense {
	Y := randMatrix(rng, n, 3)
	D := mat.NewSymDense(n, nil)
	linalg.PairwiseSquaredDistances(D, Y)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			D.SetSym(i, j, math.Sqrt(D.At(i, j))*(1+0.5*rng.Float64()))
		}
	}
	return D
}

func TestClassicalMDSAgreesWithTorgerson(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 25
	D := nonEuclidean(rng, n)
	var tx mat.Dense
	teig := make([]float64, n)
	k, _ := mds.TorgersonScaling(&tx, teig, D)
	if k < 2 {
		t.Fatalf("Torgerson k = %d", k)
	}
	for _, full := range []bool{true, false} {
		m := &ClassicalMDS{Q: 2, Plain: true, FullSpectrum: full}
		if err := m.FitDistances(D); err != nil {
			t.Fatal(err)
		}
		vals := m.EigenvaluesTo(nil)
		if !full && len(vals) != 2 {
			t.Fatalf("%d eigenvalues without FullSpectrum, want q = 2", len(vals))
		}
		if full {
			if len(vals) != n {
				t.Fatalf("%d eigenvalues, want %d", len(vals), n)
			}
			for i := range vals {
				if math.Abs(vals[i]-teig[i]) > 1e-9*math.Abs(teig[0]) {
					t.Errorf("λ_%d = %g, Torgerson %g", i, vals[i], teig[i])
				}
			}
			if _, neg, _ := m.EigenvalueSigns(0); neg == 0 {
				t.Error("expected negative eigenvalues for non-Euclidean distances")
			}
			if nm := m.NegativeMass(); nm <= 0 || nm >= 0.5 {
				t.Errorf("negative mass %g", nm)
			}
		}
		var X mat.Dense
		m.LatentTo(&X)
		for c := 0; c < 2; c++ {
			// same column up to sign
			s := 1.0
			if X.At(0, c)*tx.At(0, c) < 0 {
				s = -1
			}
			for i := 0; i < n; i++ {
				if d := math.Abs(X.At(i, c) - s*tx.At(i, c)); d > 1e-7 {
					t.Fatalf("full=%v X[%d,%d] = %g, Torgerson %g", full, i, c, X.At(i, c), s*tx.At(i, c))
				}
			}
		}
	}
}

func TestClassicalMDSChordDistances(t *testing.T) {
	// Chord distances between points on a sphere are Euclidean in 3-D:
	// exactly 3 positive and no negative eigenvalues (catalog T3.c).
	rng := rand.New(rand.NewPCG(9, 10))
	const n = 50
	Y := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		lat := (rng.Float64()*35 + 30) * math.Pi / 180
		lon := (rng.Float64()*65 - 15) * math.Pi / 180
		Y.SetRow(i, []float64{math.Cos(lat) * math.Cos(lon), math.Cos(lat) * math.Sin(lon), math.Sin(lat)})
	}
	m := &ClassicalMDS{Q: 2, FullSpectrum: true}
	if err := m.Fit(Y); err != nil {
		t.Fatal(err)
	}
	pos, neg, _ := m.EigenvalueSigns(1e-9)
	if pos != 3 || neg != 0 {
		t.Errorf("chord distances: %d positive, %d negative; want 3, 0", pos, neg)
	}
}

// asym is a mat.Symmetric that is not symmetric, to test the check.
type asym struct{ *mat.Dense }

func (a asym) SymmetricDim() int { r, _ := a.Dims(); return r }

func TestClassicalMDSBadInput(t *testing.T) {
	good := func() *mat.SymDense {
		return mat.NewSymDense(4, []float64{0, 1, 4, 9, 1, 0, 1, 4, 4, 1, 0, 1, 9, 4, 1, 0})
	}
	for _, tc := range []struct {
		name string
		D    mat.Symmetric
		want error
	}{
		{"NaN", func() mat.Symmetric { d := good(); d.SetSym(0, 2, math.NaN()); return d }(), ErrNaN},
		{"Inf", func() mat.Symmetric { d := good(); d.SetSym(1, 3, math.Inf(1)); return d }(), ErrNaN},
		{"negative", func() mat.Symmetric { d := good(); d.SetSym(0, 1, -1); return d }(), ErrNotDistance},
		{"diagonal", func() mat.Symmetric { d := good(); d.SetSym(2, 2, 1); return d }(), ErrNotDistance},
		{"asymmetric", asym{mat.NewDense(4, 4, []float64{0, 1, 4, 9, 1, 0, 1, 4, 4, 2, 0, 1, 9, 4, 1, 0})}, ErrNotDistance},
	} {
		err := (&ClassicalMDS{Q: 1}).FitDistances(tc.D)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
	if err := (&ClassicalMDS{Q: 1}).FitDistances(good()); err != nil {
		t.Errorf("points on a line: %v", err)
	}
	// q beyond the positive spectrum of a non-Euclidean D
	rng := rand.New(rand.NewPCG(11, 12))
	D := nonEuclidean(rng, 12)
	err := (&ClassicalMDS{Q: 11, Plain: true}).FitDistances(D)
	if !errors.Is(err, ErrNotEuclidean) {
		t.Errorf("q = n−1 on non-Euclidean D: got %v, want ErrNotEuclidean", err)
	}
	for _, q := range []int{0, -1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("q = %d with n = 4 did not panic", q)
				}
			}()
			(&ClassicalMDS{Q: q}).FitDistances(good())
		}()
	}
	// q ≥ n is a property of the data size (package doc): an error.
	for _, q := range []int{4, 5} {
		if err := (&ClassicalMDS{Q: q}).FitDistances(good()); !errors.Is(err, ErrTooFewPoints) {
			t.Errorf("q = %d with n = 4: err = %v, want ErrTooFewPoints", q, err)
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("LatentTo before Fit did not panic")
			}
		}()
		var X mat.Dense
		(&ClassicalMDS{Q: 1}).LatentTo(&X)
	}()
}

// BenchmarkClassicalMDS is the end-to-end ladder: squared distances of n
// Euclidean points in 10 dimensions, double centring (implicit) and the
// top two eigenpairs by the partial eigensolver.
func BenchmarkClassicalMDS(b *testing.B) {
	for _, n := range []int{500, 1000, 2000, 4000, 8000} {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		Y := randMatrix(rng, n, 10)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			defer benchutil.CPUMetric(b)()
			for b.Loop() {
				m := &ClassicalMDS{Q: 2}
				if err := m.Fit(Y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkClassicalMDSDense is the full-spectrum dense path, for
// comparison with the partial solver.
func BenchmarkClassicalMDSDense(b *testing.B) {
	for _, n := range []int{250, 500, 1000} {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		Y := randMatrix(rng, n, 10)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				m := &ClassicalMDS{Q: 2, FullSpectrum: true}
				if err := m.Fit(Y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestClassicalMDSProjection(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	Y := randMatrix(rng, 40, 5)
	for _, full := range []bool{true, false} {
		m := &ClassicalMDS{Q: 2, FullSpectrum: full}
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var X, Xp mat.Dense
		m.LatentTo(&X)
		// fitted points land where LatentTo put them
		m.ProjectTo(&Xp, Y)
		if d := maxAbsDiff(&X, &Xp); d > 1e-9 {
			t.Errorf("full=%v: re-projected training points differ by %g", full, d)
		}
		// new points: the projection onto the principal axes
		Ynew := randMatrix(rng, 7, 5)
		var Xn mat.Dense
		m.ProjectTo(&Xn, Ynew)
		fe := &FeatureExtraction{Q: 2, NoScale: true}
		fe.Fit(Y)
		var R mat.Dense
		fe.LoadingsTo(&R)
		mu := linalg.ColumnMeans(Y)
		for a := 0; a < 7; a++ {
			for c := 0; c < 2; c++ {
				want := 0.0
				for k := 0; k < 5; k++ {
					want += (Ynew.At(a, k) - mu[k]) * R.At(k, c)
				}
				// same axis up to sign: compare through the training column
				sign := 1.0
				if X.At(0, c)*(func() float64 {
					v := 0.0
					for k := 0; k < 5; k++ {
						v += (Y.At(0, k) - mu[k]) * R.At(k, c)
					}
					return v
				}()) < 0 {
					sign = -1
				}
				if math.Abs(Xn.At(a, c)-sign*want) > 1e-9 {
					t.Fatalf("new point %d coord %d: %g, PCA %g", a, c, Xn.At(a, c), sign*want)
				}
			}
		}
	}
	// FitDistances models have no Y to project from
	m := &ClassicalMDS{Q: 1}
	D := mat.NewSymDense(3, []float64{0, 1, 4, 1, 0, 1, 4, 1, 0})
	if err := m.FitDistances(D); err != nil {
		t.Fatal(err)
	}
	var X mat.Dense
	m.ProjectDistancesTo(&X, mat.NewDense(1, 3, []float64{1, 0, 1})) // the middle point
	if math.Abs(X.At(0, 0)) > 1e-12 {
		t.Errorf("middle point placed at %g", X.At(0, 0))
	}
	defer func() {
		if recover() == nil {
			t.Error("ProjectTo after FitDistances did not panic")
		}
	}()
	m.ProjectTo(&X, mat.NewDense(1, 1, []float64{0}))
}

// TestClassicalMDSNotEuclideanBoundary pins down when ErrNotEuclidean
// fires: only when λ_q is clearly negative. Zero eigenvalues (the centring
// direction, or rank < q) give zero columns, and the error message names
// the number of positive eigenvalues and the largest usable q.
func TestClassicalMDSNotEuclideanBoundary(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n = 12
	D := nonEuclidean(rng, n)
	full := &ClassicalMDS{Q: 1, Plain: true, FullSpectrum: true}
	if err := full.FitDistances(D); err != nil {
		t.Fatal(err)
	}
	pos, neg, zero := full.EigenvalueSigns(1e-9)
	if neg == 0 || pos+neg+zero != n || zero < 1 {
		t.Fatalf("test matrix: %d positive, %d negative, %d zero eigenvalues; want some negative and the centring zero", pos, neg, zero)
	}
	usable := pos + zero // the zero eigenvalues sort between the positive and negative ones
	// q = usable: the last columns are the zero eigenvalues, X has zero columns there.
	m := &ClassicalMDS{Q: usable, Plain: true}
	if err := m.FitDistances(D); err != nil {
		t.Fatalf("q = %d (%d positive + %d zero eigenvalues): %v", usable, pos, zero, err)
	}
	var X mat.Dense
	m.LatentTo(&X)
	for c := pos; c < usable; c++ {
		if nrm := mat.Norm(X.ColView(c), 2); nrm > 1e-6 {
			t.Errorf("column %d (zero eigenvalue) has norm %g, want 0", c, nrm)
		}
	}
	// q = usable+1 reaches a negative eigenvalue.
	err := (&ClassicalMDS{Q: usable + 1, Plain: true, FullSpectrum: true}).FitDistances(D)
	if !errors.Is(err, ErrNotEuclidean) {
		t.Fatalf("q = %d: got %v, want ErrNotEuclidean", usable+1, err)
	}
	for _, want := range []string{
		fmt.Sprintf("only %d of %d eigenvalues are positive", pos, n),
		fmt.Sprintf("use q ≤ %d", usable),
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	// Euclidean data of rank 2 with q = 3: allowed, third column zero.
	Y := randMatrix(rng, 10, 2)
	e := &ClassicalMDS{Q: 3}
	if err := e.Fit(Y); err != nil {
		t.Fatalf("rank-2 Euclidean data, q = 3: %v", err)
	}
	var X3 mat.Dense
	e.LatentTo(&X3)
	if nrm := mat.Norm(X3.ColView(2), 2); nrm > 1e-6 {
		t.Errorf("rank-2 data: third column has norm %g, want 0", nrm)
	}
}

// TestClassicalMDSFailedRefitIsUnfitted checks that every kind of failed
// refit discards the previous fit instead of serving the old X.
func TestClassicalMDSFailedRefitIsUnfitted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	Y := randMatrix(rng, 12, 3)
	bad := mat.NewSymDense(4, []float64{0, 1, 4, 9, 1, 0, 1, 4, 4, 1, 0, 1, 9, 4, 1, 0})
	bad.SetSym(0, 2, math.NaN())
	neg := mat.NewSymDense(4, []float64{0, 1, 4, 9, 1, 0, 1, 4, 4, 1, 0, 1, 9, 4, 1, 0})
	neg.SetSym(0, 1, -1)
	Ynan := mat.DenseCopyOf(Y)
	Ynan.Set(2, 1, math.NaN())
	for _, tc := range []struct {
		name string
		q    int
		fail func(m *ClassicalMDS) error
	}{
		{"NaN distance", 1, func(m *ClassicalMDS) error { return m.FitDistances(bad) }},
		{"negative distance", 1, func(m *ClassicalMDS) error { return m.FitDistances(neg) }},
		{"asymmetric", 1, func(m *ClassicalMDS) error {
			return m.FitDistances(asym{mat.NewDense(4, 4, []float64{0, 1, 4, 9, 1, 0, 1, 4, 4, 2, 0, 1, 9, 4, 1, 0})})
		}},
		{"NaN in Y", 2, func(m *ClassicalMDS) error { return m.Fit(Ynan) }},
		{"not Euclidean", 11, func(m *ClassicalMDS) error {
			m.Plain = true
			return m.FitDistances(nonEuclidean(rand.New(rand.NewPCG(11, 12)), 12))
		}},
	} {
		m := &ClassicalMDS{Q: tc.q}
		if err := m.Fit(Y); err != nil {
			t.Fatalf("%s: first fit: %v", tc.name, err)
		}
		if err := tc.fail(m); err == nil {
			t.Fatalf("%s: refit did not fail", tc.name)
		}
		for what, use := range map[string]func(){
			"LatentTo":      func() { var X mat.Dense; m.LatentTo(&X) },
			"ProjectTo":     func() { var X mat.Dense; m.ProjectTo(&X, Y) },
			"EigenvaluesTo": func() { m.EigenvaluesTo(nil) },
		} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s: %s after a failed refit served the old fit instead of panicking", tc.name, what)
					}
				}()
				use()
			}()
		}
	}
}

// The non-Euclidean threshold λ_q < −1e-9·|λ₁| against distance matrices
// whose B = −½HDH has a spectrum known by construction. With h_1 … h_7 the
// non-constant columns of the 8×8 Sylvester–Hadamard matrix divided by √8
// (orthonormal and orthogonal to 1, hence centred),
//
//	B = Σ_{k≤5} λ_k h_k h_kᵀ + ν (h_6 h_6ᵀ + h_7 h_7ᵀ),  λ = 10, 9, 8, 7, 6,
//	d_ij = B_ii + B_jj − 2B_ij,
//
// so −½HDH = B has eigenvalues 10, 9, 8, 7, 6, 0 (the centring direction),
// ν, ν. (Two rows of the Hadamard matrix differ in 4 of the 7 columns, at
// least 2 of them among the first five, so every d_ij > 0.) q = 7 reaches
// ν. ν = −1e-6 is clearly negative (10⁻⁷ of λ₁, far above round-off): Fit
// must fail with ErrNotEuclidean, "use q ≤ 6" (a mutant threshold of 1e-3
// accepts it). ν = −1e-14 is round-off (10⁻¹⁵ of λ₁): accepted, with a zero
// last column.
func TestClassicalMDSNotEuclideanThreshold(t *testing.T) {
	const n = 8
	h := func(k, i int) float64 { // (−1)^popcount(i&k)/√8
		if bits.OnesCount(uint(i&k))%2 == 1 {
			return -1 / math.Sqrt(n)
		}
		return 1 / math.Sqrt(n)
	}
	dist := func(nu float64) *mat.SymDense {
		lam := []float64{0, 10, 9, 8, 7, 6, nu, nu}
		B := func(i, j int) float64 {
			s := 0.0
			for k := 1; k < n; k++ {
				s += lam[k] * h(k, i) * h(k, j)
			}
			return s
		}
		D := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				D.SetSym(i, j, B(i, i)+B(j, j)-2*B(i, j))
			}
		}
		return D
	}
	err := (&ClassicalMDS{Q: 7}).FitDistances(dist(-1e-6))
	if !errors.Is(err, ErrNotEuclidean) {
		t.Fatalf("ν = −1e-6: err = %v, want ErrNotEuclidean", err)
	}
	if !strings.Contains(err.Error(), "use q ≤ 6") {
		t.Errorf("error %q does not say q ≤ 6", err)
	}
	m := ClassicalMDS{Q: 7}
	if err := m.FitDistances(dist(-1e-14)); err != nil {
		t.Fatalf("ν = −1e-14 (round-off): %v", err)
	}
	vals := m.EigenvaluesTo(nil)
	for k, want := range []float64{10, 9, 8, 7, 6} {
		if math.Abs(vals[k]-want) > 1e-12 {
			t.Errorf("λ_%d = %v, want %v", k+1, vals[k], want)
		}
	}
	var X mat.Dense
	m.LatentTo(&X)
	if nrm := mat.Norm(X.ColView(6), 2); nrm > 1e-6 {
		t.Errorf("last column (round-off eigenvalue) has norm %g, want 0", nrm)
	}
}
