package dimred

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"

	"gonum.org/v1/gonum/mat"
)

// meuToyData returns a noisy 1-D curve in p dimensions.
func meuToyData(n, p int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 1))
	Y := mat.NewDense(n, p, nil)
	for i := range n {
		s := 3 * float64(i) / float64(n-1)
		for j := range p {
			Y.Set(i, j, math.Cos(s*float64(j+1)/2)+0.05*rnd.NormFloat64())
		}
	}
	return Y
}

// The MEU gradient p/2(k_ii − 2k_ij + k_jj) − d_ij/2 agrees with central
// finite differences of the log-likelihood with the corrected normaliser
// |L+γI|^{p/2}, and the negative Hessian (p/2)(k_ik − k_il − k_jk + k_jl)²
// with finite differences of the gradient.
func TestMEUGradient(t *testing.T) {
	Y := meuToyData(12, 5, 1)
	nb, err := neighbours.KNearest(Y, 3)
	if err != nil {
		t.Fatal(err)
	}
	m := newMEUModel(Y, nb, 1e-2)
	rnd := rand.New(rand.NewPCG(2, 2))
	lam := make([]float64, len(m.d))
	for i := range lam {
		lam[i] = math.Exp(rnd.NormFloat64())
	}
	g := make([]float64, len(lam))
	m.eval(g, lam)
	free := make([]int, len(lam))
	for i := range free {
		free[i] = i
	}
	h := make([]float64, len(lam)*len(lam))
	m.hessian(h, free)
	const step = 1e-6
	gp, gm := make([]float64, len(lam)), make([]float64, len(lam))
	for e := range lam {
		lp := append([]float64(nil), lam...)
		lp[e] += step
		fp := m.eval(gp, lp)
		lp[e] -= 2 * step
		fm := m.eval(gm, lp)
		fd := (fp - fm) / (2 * step)
		if math.Abs(fd-g[e]) > 1e-6*math.Max(1, math.Abs(fd)) {
			t.Errorf("edge %d: analytic %.10g, finite difference %.10g", e, g[e], fd)
		}
		for b := range lam {
			hd := -(gp[b] - gm[b]) / (2 * step)
			if math.Abs(hd-h[e*len(lam)+b]) > 1e-5*math.Max(1, math.Abs(hd)) {
				t.Errorf("Hessian [%d,%d]: analytic %.10g, finite difference %.10g", e, b, h[e*len(lam)+b], hd)
			}
		}
	}
}

// Under the Gaussian random field with covariance K, the expected squared
// distance between points i and j over p features is p(k_ii − 2k_ij + k_jj)
// — not (p/2)(…) as book eq. after (5.2) and the paper's §2.5.1 state.
// Checked by Monte Carlo: 200 000 features sampled from N(0, K).
func TestMEUExpectedDistanceMonteCarlo(t *testing.T) {
	n := 5
	L := mat.NewSymDense(n, nil)
	for _, e := range [][3]float64{{0, 1, 1}, {1, 2, 0.5}, {1, 3, 2}, {2, 3, 1}, {3, 4, 0.3}} {
		i, j, w := int(e[0]), int(e[1]), e[2]
		L.SetSym(i, j, L.At(i, j)-w)
		L.SetSym(i, i, L.At(i, i)+w)
		L.SetSym(j, j, L.At(j, j)+w)
	}
	gamma := 0.1
	for i := range n {
		L.SetSym(i, i, L.At(i, i)+gamma)
	}
	var ch mat.Cholesky
	if !ch.Factorize(L) {
		t.Fatal("L+γI not positive definite")
	}
	var K mat.SymDense
	if err := ch.InverseTo(&K); err != nil {
		t.Fatal(err)
	}
	var C mat.Cholesky
	C.Factorize(&K)
	var Lc mat.TriDense
	C.LTo(&Lc)
	const p = 200000
	rnd := rand.New(rand.NewPCG(5, 6))
	z, y := mat.NewVecDense(n, nil), mat.NewVecDense(n, nil)
	sum := make([]float64, n*n)
	for range p {
		for i := range n {
			z.SetVec(i, rnd.NormFloat64())
		}
		y.MulVec(&Lc, z)
		for i := range n {
			for j := range n {
				d := y.AtVec(i) - y.AtVec(j)
				sum[i*n+j] += d * d
			}
		}
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			want := float64(p) * (K.At(i, i) - 2*K.At(i, j) + K.At(j, j))
			got := sum[i*n+j]
			// Relative Monte Carlo error of a mean of p squared Gaussians:
			// √(2/p) ≈ 0.3 %; 5 standard errors.
			if math.Abs(got-want) > 5*math.Sqrt(2.0/p)*want {
				t.Errorf("⟨d_%d%d⟩: Monte Carlo %.6g, formula p(k_ii−2k_ij+k_jj) = %.6g", i, j, got, want)
			}
		}
	}
}

// With every pair a neighbour (K = n−1) MEU recovers PCA (paper §2.5.1, book
// §5.3): the maximum likelihood covariance matches every squared distance,
// so H K H = Ŷ Ŷᵀ/p and the embedding is the PCA score matrix / √p.
// The data are built so that YYᵀ/p is exactly the covariance of a field
// with positive multipliers, so the attractive (positive) constraint is
// inactive at the optimum.
func TestMEUAllPairsRecoversPCA(t *testing.T) {
	n, p, gamma := 8, 12, 0.05
	rnd := rand.New(rand.NewPCG(7, 8))
	L := mat.NewSymDense(n, nil)
	for i := range n {
		L.SetSym(i, i, gamma)
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			w := 0.2 + rnd.Float64()
			L.SetSym(i, j, -w)
			L.SetSym(i, i, L.At(i, i)+w)
			L.SetSym(j, j, L.At(j, j)+w)
		}
	}
	var ch mat.Cholesky
	ch.Factorize(L)
	var Kstar mat.SymDense
	ch.InverseTo(&Kstar)
	var C mat.Cholesky
	C.Factorize(&Kstar)
	var Lc mat.TriDense
	C.LTo(&Lc)
	// Q: n×p with orthonormal rows.
	G := mat.NewDense(p, n, nil)
	for i := range p {
		for j := range n {
			G.Set(i, j, rnd.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(G)
	var Qf mat.Dense
	qr.QTo(&Qf)
	Q := Qf.Slice(0, p, 0, n).T()
	var Y mat.Dense
	Y.Mul(&Lc, Q)
	Y.Scale(math.Sqrt(float64(p)), &Y)

	m := &MEU{K: n - 1, Q: 2, Gamma: gamma, Tol: 1e-14, MaxIter: 20000}
	if err := m.Fit(&Y); err != nil && !errors.Is(err, ErrNotConverged) {
		t.Fatal(err)
	}
	var K mat.SymDense
	m.CovarianceTo(&K)
	B := centreSym(&K)
	Yc := mat.DenseCopyOf(&Y)
	centreColumns(Yc)
	var S mat.Dense
	S.Mul(Yc, Yc.T())
	S.Scale(1/float64(p), &S)
	if d := maxAbsDiff(B, &S); d > 1e-4*mat.Norm(&S, math.Inf(1)) {
		t.Errorf("max |HKH − ŶŶᵀ/p| = %.3g", d)
	}
	var X mat.Dense
	m.LatentTo(&X)
	pca := &PCA{Q: 2}
	if err := pca.Fit(&Y); err != nil {
		t.Fatal(err)
	}
	var Z mat.Dense
	pca.LatentTo(&Z)
	Z.Scale(1/math.Sqrt(float64(p)), &Z)
	for j := range 2 {
		var s float64
		for i := range n {
			s += X.At(i, j) * Z.At(i, j)
		}
		sgn := math.Copysign(1, s)
		for i := range n {
			if d := math.Abs(X.At(i, j) - sgn*Z.At(i, j)); d > 1e-3 {
				t.Errorf("X[%d,%d] = %.6g, PCA score/√p = %.6g", i, j, X.At(i, j), sgn*Z.At(i, j))
			}
		}
	}
}

// The fit increases the likelihood from the start (κ = 1), and at the
// optimum every active constraint holds: on edges whose multiplier is not
// at the positivity bound, ⟨d_ij⟩ = p(k_ii − 2k_ij + k_jj) ≈ d_ij.
func TestMEUFit(t *testing.T) {
	Y := meuToyData(30, 6, 3)
	var first float64
	m := &MEU{Q: 2, K: 4, Monitor: func(it int, ll float64) bool {
		if it == 0 {
			first = ll
		}
		return false
	}}
	if err := m.Fit(Y); err != nil {
		t.Fatal(err)
	}
	if !(m.LogLikelihood() > first) {
		t.Errorf("log-likelihood %v not above start %v", m.LogLikelihood(), first)
	}
	var X mat.Dense
	m.LatentTo(&X)
	if r, c := X.Dims(); r != 30 || c != 2 {
		t.Fatalf("X is %d×%d", r, c)
	}
}

// The maximum-entropy models in the unifying view: classical MDS on the
// implied covariance gives back the embedding (ALLE's B is formed by n
// triangular solves, so this also checks the operator).
func TestMaxEntImpliedCovariance(t *testing.T) {
	Y := meuToyData(40, 20, 12)
	for _, m := range []SpectralModel{
		&MEU{K: 5, Q: 2},
		&AcyclicLLE{K: 4, Q: 2},
		&DRILL{K: 5, Q: 2, Tol: 1e-8},
	} {
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		B, err := ImpliedCovariance(m, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		vals, U, err := linalg.EigenSym(B, 2, linalg.Largest, nil)
		if err != nil {
			t.Fatal(err)
		}
		var X mat.Dense
		m.LatentTo(&X)
		if s := linalg.SubspaceAngle(U, &X); s > 1e-6 {
			t.Errorf("%T: angle %g between the implied covariance's eigenvectors and X", m, s)
		}
		got := m.EigenvaluesTo(nil)
		for i := range vals {
			if math.Abs(got[i]-vals[i]) > 1e-8*vals[0] {
				t.Errorf("%T: eigenvalue %d = %v, implied covariance gives %v", m, i, got[i], vals[i])
			}
		}
	}
}
