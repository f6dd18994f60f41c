package dimred

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// correlated returns n draws from N(0, [[4.1, 2], [2, 1.1]]) (Figs 3.5/3.6)
// plus extra independent columns of decreasing variance.
func correlated(rng *rand.Rand, n, p int) *mat.Dense {
	Y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		a, b := rng.NormFloat64(), rng.NormFloat64()
		// Cholesky of [[4.1,2],[2,1.1]]
		l11 := math.Sqrt(4.1)
		l21 := 2 / l11
		l22 := math.Sqrt(1.1 - l21*l21)
		Y.Set(i, 0, l11*a)
		Y.Set(i, 1, l21*a+l22*b)
		for j := 2; j < p; j++ {
			Y.Set(i, j, rng.NormFloat64()/float64(j))
		}
	}
	return Y
}

func TestDistanceMatchingClosedForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	const n, p = 50, 6
	Y := correlated(rng, n, p)
	D := mat.NewSymDense(n, nil)
	linalg.PairwiseSquaredDistances(D, Y)
	// identity: mean off-diagonal d_ij/p = (2/p) Σ ς²
	vars := linalg.ColumnVariances(Y)
	tot := 0.0
	for _, v := range vars {
		tot += v
	}
	zero := mat.NewSymDense(n, nil)
	if got, want := DistanceMatchingError(D, zero, p, 1), 2*tot/p; math.Abs(got-want) > 1e-12 {
		t.Errorf("mean d/p = %g, (2/p)Σς² = %g", got, want)
	}
	for q := 1; q <= p; q++ {
		// feature selection: brute force = closed form
		fs := &FeatureSelection{Q: q}
		if err := fs.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var X mat.Dense
		fs.LatentTo(&X)
		Dx := mat.NewSymDense(n, nil)
		linalg.PairwiseSquaredDistances(Dx, &X)
		if got, want := DistanceMatchingError(D, Dx, p, q), fs.Error(); math.Abs(got-want) > 1e-12 {
			t.Errorf("FS q=%d: brute force %g, closed form %g", q, got, want)
		}
		// feature extraction: brute force = closed form
		fe := &FeatureExtraction{Q: q}
		if err := fe.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var Xe mat.Dense
		fe.LatentTo(&Xe)
		linalg.PairwiseSquaredDistances(Dx, &Xe)
		if got, want := DistanceMatchingError(D, Dx, p, q), fe.Error(); math.Abs(got-want) > 1e-12 {
			t.Errorf("PCA q=%d: brute force %g, closed form %g", q, got, want)
		}
		if fe.Error() > fs.Error()+1e-12 {
			t.Errorf("q=%d: rotation error %g > selection error %g", q, fe.Error(), fs.Error())
		}
		// principal coordinates: same X (column signs fixed by convention
		// on different vectors, so compare up to sign) and same error
		if q < n {
			pc := &PrincipalCoordinates{Q: q}
			if err := pc.Fit(Y); err != nil {
				t.Fatal(err)
			}
			var Xp mat.Dense
			pc.LatentTo(&Xp)
			for c := 0; c < q; c++ {
				s := 1.0
				if Xp.At(0, c)*Xe.At(0, c) < 0 {
					s = -1
				}
				for i := 0; i < n; i++ {
					if d := math.Abs(Xp.At(i, c) - s*Xe.At(i, c)); d > 1e-9 {
						t.Fatalf("q=%d PCO vs PCA X[%d,%d]: %g vs %g", q, i, c, Xp.At(i, c), s*Xe.At(i, c))
					}
				}
			}
			if math.Abs(pc.Error()-fe.Error()) > 1e-12 {
				t.Errorf("q=%d PCO error %g, PCA %g", q, pc.Error(), fe.Error())
			}
			// eig(ŶŶᵀ) = n eig(S) (the draft says p; E12)
			mu, lam := pc.EigenvaluesTo(nil), fe.EigenvaluesTo(nil)
			for k := range mu {
				if math.Abs(mu[k]-n*lam[k]) > 1e-9*mu[0] {
					t.Errorf("μ_%d = %g, nλ = %g", k, mu[k], n*lam[k])
				}
			}
			// U_q = Ŷ R_q (nΛ_q)^{-1/2} is orthonormal
			var U, UtU mat.Dense
			pc.EigenvectorsTo(&U)
			UtU.Mul(U.T(), &U)
			for i := 0; i < q; i++ {
				for j := 0; j < q; j++ {
					want := 0.0
					if i == j {
						want = 1
					}
					if math.Abs(UtU.At(i, j)-want) > 1e-10 {
						t.Fatalf("UᵀU[%d,%d] = %g", i, j, UtU.At(i, j))
					}
				}
			}
		}
	}
	// q = p: no error left
	fe := &FeatureExtraction{Q: p}
	fe.Fit(Y)
	if e := fe.Error(); e > 1e-12 {
		t.Errorf("q = p error %g", e)
	}
}

func TestDistancesRotationInvariant(t *testing.T) {
	// D(YRᵀ) = D(Y) for orthogonal R (§3.4).
	rng := rand.New(rand.NewPCG(33, 34))
	Y := randMatrix(rng, 15, 4)
	var qr mat.QR
	qr.Factorize(randMatrix(rng, 4, 4))
	var R, YR mat.Dense
	qr.QTo(&R)
	YR.Mul(Y, R.T())
	D1, D2 := mat.NewSymDense(15, nil), mat.NewSymDense(15, nil)
	linalg.PairwiseSquaredDistances(D1, Y)
	linalg.PairwiseSquaredDistances(D2, &YR)
	if d := maxAbsDiff(D1, D2); d > 1e-10 {
		t.Errorf("rotation changed distances by %g", d)
	}
}

func TestDistanceMatchingSum(t *testing.T) {
	D := mat.NewSymDense(3, []float64{0, 4, 8, 4, 0, 2, 8, 2, 0})
	Dl := mat.NewSymDense(3, []float64{0, 1, 8, 1, 0, 4, 8, 4, 0})
	// |4−1| + |8−8| + |2−4| = 5 per triangle, both triangles: 10
	if got := DistanceMatchingSum(D, Dl); got != 10 {
		t.Errorf("sum %g, want 10", got)
	}
	// normalised: 10 / (n(n−1)) with p = q = 1
	if got := DistanceMatchingError(D, Dl, 1, 1); math.Abs(got-10.0/6) > 1e-15 {
		t.Errorf("mean %g, want %g", got, 10.0/6)
	}
}

func TestFeatureSelectionPicksLargestVariance(t *testing.T) {
	// Fig 3.5's population: var(x₁) = 4.1 > var(x₂) = 1.1, so q = 1
	// keeps column 0 and E = (2/p) ς²₂ ≈ 1.1.
	rng := rand.New(rand.NewPCG(35, 36))
	Y := correlated(rng, 20000, 2)
	fs := &FeatureSelection{Q: 1}
	if err := fs.Fit(Y); err != nil {
		t.Fatal(err)
	}
	if s := fs.Selected(); s[0] != 0 {
		t.Errorf("selected %v", s)
	}
	if e := fs.Error(); math.Abs(e-1.1) > 0.05 {
		t.Errorf("E_FS = %g, want ≈ 1.1", e)
	}
	fe := &FeatureExtraction{Q: 1}
	fe.Fit(Y)
	// PCA error 2n/(p(n−1)) λ₂ ≈ 0.1, eigenvalues 5.1/0.1
	if e := fe.Error(); math.Abs(e-0.1) > 0.01 {
		t.Errorf("E_PCA = %g, want ≈ 0.1", e)
	}
	var R mat.Dense
	fe.LoadingsTo(&R)
	ang := math.Atan2(R.At(1, 0), R.At(0, 0)) * 180 / math.Pi
	if ang < 0 {
		ang += 180
	}
	if math.Abs(ang-26.565) > 0.5 {
		t.Errorf("principal angle %g°, want 26.565°", ang)
	}
}

func TestFeatureExtractionProjectTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 38))
	Y := correlated(rng, 30, 4)
	fe := &FeatureExtraction{Q: 2}
	if err := fe.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var X, Xp mat.Dense
	fe.LatentTo(&X)
	fe.ProjectTo(&Xp, Y)
	if d := maxAbsDiff(&X, &Xp); d > 1e-12 {
		t.Errorf("projecting the training data differs by %g", d)
	}
}

// TestDistanceMatchingSumIsADifferentObjective checks the doc comment's
// claims: DistanceMatchingSum is not a rescaling of DistanceMatchingError.
// For feature selection scaled by ℓ ≤ 1 (contractions), the unnormalised
// sum is smallest at ℓ = 1 and the normalised error at ℓ = √(q/p); on the
// scaled matrices D/p, Δ/q the sum is n(n−1) times the normalised error.
func TestDistanceMatchingSumIsADifferentObjective(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, p, q = 30, 4, 2
	Y := correlated(rng, n, p)
	D := mat.NewSymDense(n, nil)
	linalg.PairwiseSquaredDistances(D, Y)
	errAt := func(l float64) (sum, norm float64, Dl *mat.SymDense) {
		fs := &FeatureSelection{Q: q, NoScale: true}
		if err := fs.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var X mat.Dense
		fs.LatentTo(&X)
		X.Scale(l, &X)
		Dl = mat.NewSymDense(n, nil)
		linalg.PairwiseSquaredDistances(Dl, &X)
		return DistanceMatchingSum(D, Dl), DistanceMatchingError(D, Dl, p, q), Dl
	}
	lq := math.Sqrt(float64(q) / float64(p))
	sum1, _, _ := errAt(1)
	_, normq, Dq := errAt(lq)
	for _, l := range []float64{0.2, 0.5, lq, 0.9, 0.99} {
		s, e, _ := errAt(l)
		if s <= sum1 {
			t.Errorf("unnormalised sum at ℓ = %.3g is %g ≤ %g at ℓ = 1", l, s, sum1)
		}
		if l < lq && e <= normq {
			t.Errorf("normalised error at ℓ = %.3g is %g ≤ %g at ℓ = √(q/p)", l, e, normq)
		}
	}
	Ds, Dqs := mat.NewSymDense(n, nil), mat.NewSymDense(n, nil)
	Ds.ScaleSym(1/float64(p), D)
	Dqs.ScaleSym(1/float64(q), Dq)
	if got, want := DistanceMatchingSum(Ds, Dqs), float64(n*(n-1))*normq; math.Abs(got-want) > 1e-9*want {
		t.Errorf("Sum(D/p, Δ/q) = %g, want n(n−1)·E = %g", got, want)
	}
}
