package dimred

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/progress"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/rng"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// PCAMethod selects how PCA finds the leading eigenvectors of the sample
// covariance S = n⁻¹ ŶᵀŶ.
type PCAMethod int

const (
	// PCAAuto picks PCALanczos when the package's eigen policy prefers
	// an iterative solver (!linalg.PreferDense(min(n, p), q)),
	// PCACovariance when p ≤ n, and PCAGram otherwise.
	PCAAuto PCAMethod = iota
	// PCACovariance eigendecomposes the p×p covariance S (book §2.6.1):
	// cost O(np² + p³), best when p is small.
	PCACovariance
	// PCAGram eigendecomposes the n×n inner-product matrix K = ŶŶᵀ, the
	// dual eigenproblem of book §2.12.3: if K v = nλ v with ‖v‖ = 1 then
	// u = Ŷᵀv/√(nλ) is a unit eigenvector of S with eigenvalue λ. Cost
	// O(n²p + n³), best when p ≫ n (Spellman: 77×6178).
	PCAGram
	// PCARandomized is the randomized range finder with subspace (power)
	// iteration of Halko, Martinsson & Tropp (2011, Alg. 4.4) applied to
	// Ŷ without forming it (the centring is applied implicitly), stopped
	// when the leading q-dimensional subspace stops moving. Cost
	// O(np(q+10)) per iteration, best when q ≪ min(n, p).
	PCARandomized
	// PCALanczos takes the leading right singular vectors of Ŷ from the
	// package's linalg.TruncatedSVD (linalg.SVDExact: block Lanczos on the implicit Gram
	// operator, never forming S or K), accurate to the eigensolver's
	// tolerance whatever the spectrum. Cost O(np) per Lanczos step plus a
	// copy of the centred data; the fastest exact path when q ≪ min(n, p).
	PCALanczos
)

// PCA is principal component analysis (Hotelling 1933; book §2.1): the
// orthonormal directions U_q (p×q) of largest variance of the data, the
// eigenvectors of the sample covariance S = n⁻¹ ŶᵀŶ (note 1/n, the book's
// maximum-likelihood normalisation, not 1/(n−1)) with eigenvalues
// λ₁ ≥ … ≥ λ_q. The latent positions are the principal-component scores
// X = Ŷ U_q (n×q).
//
// Each column of U_q has its entry of largest magnitude positive.
type PCA struct {
	Q      int       // q, number of components, 1 ≤ q ≤ min(n, p)
	Method PCAMethod // solver; zero value PCAAuto
	// Tol is the randomized solver's stopping tolerance on the sine of the
	// largest principal angle between successive estimates of the
	// q-dimensional subspace; 0 means 1e-9.
	Tol float64
	// MaxIter bounds the randomized solver's power iterations; 0 means 30.
	MaxIter int
	Src     rand.Source // randomized solver's test matrix; nil means rand.NewPCG(1, 2)
	// Eigen tunes the eigensolver of the PCACovariance and PCAGram paths
	// (and the tolerance, Eigen.Tol, of PCALanczos); nil means defaults.
	Eigen *linalg.EigenSettings

	n, p     int
	mu       []float64
	u        *mat.Dense // p×q
	vals     []float64  // λ₁..λ_q
	totalVar float64    // tr S
	scores   *mat.Dense // n×q
	iters    int
}

// Fit computes the principal components of the n×p data Y (rows are
// observations). It returns an error wrapping ErrTooFewPoints when n < 2,
// ErrNaN for a non-finite entry, and ErrOverflow when the variances of
// finite data overflow float64. With Method PCARandomized it returns an
// error wrapping ErrNotConverged (the model is still usable, with the last
// estimate) when the subspace has not settled after MaxIter iterations.
// It panics unless 1 ≤ Q ≤ min(n, p).
//
// A Fit that returns any error other than ErrNotConverged, or panics,
// leaves the model unfitted, discarding an earlier fit: later use panics.
func (m *PCA) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *PCA) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.u)
	if err := progress.Check(ctx, "PCA"); err != nil {
		return err
	}
	n, p := Y.Dims()
	if n < 2 {
		return fmt.Errorf("%w: PCA needs n ≥ 2 observations, have %d", ErrTooFewPoints, n)
	}
	checkSettings("PCA", m)
	if m.Q > p {
		panic(fmt.Sprintf("dimred: PCA.Q = %d outside [1, p = %d]", m.Q, p))
	}
	if err := checkQ("PCA", m.Q, n, m.Q+1); err != nil {
		return err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	q := m.Q
	method := m.Method
	if method == PCAAuto {
		switch {
		case !linalg.PreferDense(min(n, p), q):
			method = PCALanczos
		case p <= n:
			method = PCACovariance
		default:
			method = PCAGram
		}
	}
	// The eigenproblem is solved for Y/sc (linalg.UnitScale, an exact
	// power of two; sc = 1 and bit-identical results for data of ordinary
	// scale): S of data ~1e-200 underflowed and gave wrong axes. μ, tr S
	// and the eigenvalues are scaled back below.
	yd := dense.AsDense(Y)
	ys, sc := linalg.UnitScale(yd)
	yu := dense.AsDense(ys)
	mu := linalg.ColumnMeans(yu)
	tr := centredSumSq(yu, mu) / float64(n) * sc * sc // tr S = n⁻¹ Σᵢ ‖ŷᵢ‖²
	if math.IsInf(tr, 0) || math.IsNaN(tr) {
		return errs.Overflowf("PCA total variance tr S = %v", tr)
	}
	var (
		vals         []float64
		u            *mat.Dense
		notConverged error
	)
	m.iters = 0
	switch method {
	case PCACovariance:
		vals, u, err = pcaCovariance(yu, mu, q, m.Eigen)
	case PCAGram:
		vals, u, err = pcaGram(yu, mu, q, m.Eigen)
	case PCALanczos:
		vals, u, err = pcaLanczos(ctx, yu, mu, q, m.Eigen)
	case PCARandomized:
		tol := m.Tol
		if tol == 0 {
			tol = 1e-9
		}
		maxIter := m.MaxIter
		if maxIter == 0 {
			maxIter = 30
		}
		var ok bool
		vals, u, m.iters, ok, err = pcaRandomized(yu, mu, q, tol, maxIter, rand.New(rng.FitSource(m.Src)))
		if err == nil && !ok {
			notConverged = fmt.Errorf("%w: randomized PCA subspace still moving after %d power iterations (Tol %g); the leading eigenvalues are nearly equal — use PCALanczos, or raise MaxIter", ErrNotConverged, m.iters, tol)
		}
	default:
		panic(fmt.Sprintf("dimred: unknown PCAMethod %d", method))
	}
	if err != nil {
		return err
	}
	if sc != 1 {
		floats.Scale(sc, mu)
		floats.Scale(sc*sc, vals)
	}
	for j, v := range vals {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return errs.Overflowf("PCA eigenvalue λ_%d = %v", j+1, v)
		}
	}
	linalg.FixSigns(u)
	m.n, m.p, m.mu, m.u, m.vals, m.totalVar = n, p, mu, u, vals, tr
	m.scores = mat.NewDense(n, q, nil)
	centredMul(m.scores, yd, mu, u)
	return notConverged
}

func pcaCovariance(Y *mat.Dense, mu []float64, q int, es *linalg.EigenSettings) ([]float64, *mat.Dense, error) {
	S := sampleCov(Y, mu)
	if err := errs.CheckOverflow(S, "PCA covariance S"); err != nil {
		return nil, nil, err
	}
	vals, u, err := linalg.EigenSym(S, q, linalg.Largest, es)
	if err != nil {
		return nil, nil, errs.Wrap(err, "PCA covariance eigenproblem")
	}
	return vals, u, nil
}

// pcaGram solves the dual eigenproblem K v = nλ v, K = ŶŶᵀ.
func pcaGram(Y *mat.Dense, mu []float64, q int, es *linalg.EigenSettings) ([]float64, *mat.Dense, error) {
	n, p := Y.Dims()
	c := centred(Y, mu)
	var k mat.SymDense
	k.SymOuterK(1, c)
	if err := errs.CheckOverflow(&k, "PCA inner products K"); err != nil {
		return nil, nil, err
	}
	ev, v, err := linalg.EigenSym(&k, q, linalg.Largest, es)
	if err != nil {
		return nil, nil, errs.Wrap(err, "PCA inner-product eigenproblem")
	}
	u := mat.NewDense(p, q, nil)
	u.Mul(c.T(), v)
	vals := make([]float64, q)
	for j := 0; j < q; j++ {
		vals[j] = math.Max(ev[j], 0) / float64(n)
		col := u.ColView(j)
		nrm := mat.Norm(col, 2)
		if nrm <= 1e-12*math.Sqrt(math.Max(ev[0], 1e-300)) || nrm == 0 {
			// The centred data have rank j < q: the remaining components
			// have zero variance and any orthonormal completion of U is
			// an eigenbasis of S for them (as on the other paths).
			for ; j < q; j++ {
				vals[j] = 0
				completeColumn(u, j)
			}
			break
		}
		// u = Ŷᵀv/√(nλ); normalising by the computed norm is the same up to
		// rounding and keeps U orthonormal.
		for i := 0; i < p; i++ {
			u.Set(i, j, u.At(i, j)/nrm)
		}
	}
	return vals, u, nil
}

// completeColumn sets column j of u (p×q, columns before j orthonormal, j <
// p) to a unit vector orthogonal to them: the coordinate vector with the
// largest component left after two Gram–Schmidt passes, normalised (one
// has a squared residual ≥ (p−j)/p).
func completeColumn(u *mat.Dense, j int) {
	p, _ := u.Dims()
	var best []float64
	bestNrm := -1.0
	for e := 0; e < p; e++ {
		x := make([]float64, p)
		x[e] = 1
		for pass := 0; pass < 2; pass++ {
			for k := 0; k < j; k++ {
				d := 0.0
				for i := range x {
					d += u.At(i, k) * x[i]
				}
				for i := range x {
					x[i] -= d * u.At(i, k)
				}
			}
		}
		nrm := math.Sqrt(floats.Dot(x, x))
		if nrm > bestNrm {
			best, bestNrm = x, nrm
		}
	}
	for i, v := range best {
		u.Set(i, j, v/bestNrm)
	}
}

// pcaLanczos takes the top-q eigenpairs of ŶᵀŶ = nS by block Lanczos on
// linalg.CentredGramOperator: the centring is implicit (no copy of Y) and
// each block of Lanczos vectors costs one pass over Y.
func pcaLanczos(ctx context.Context, Y *mat.Dense, mu []float64, q int, es *linalg.EigenSettings) ([]float64, *mat.Dense, error) {
	n, _ := Y.Dims()
	s := linalg.EigenSettings{Method: linalg.EigenLanczos}
	if es != nil {
		s.Tol, s.MaxProducts, s.BlockSize, s.Src = es.Tol, es.MaxProducts, es.BlockSize, es.Src
	}
	vals, v, err := linalg.EigenSymOpContext(ctx, linalg.CentredGramOperator(Y, mu), q, linalg.Largest, &s)
	if cancelled(err) {
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, errs.Wrap(err, "PCA Lanczos")
	}
	for i := range vals {
		vals[i] = math.Max(vals[i], 0) / float64(n)
	}
	return vals, v, nil
}

// pcaRandomized is randomized subspace iteration (Halko, Martinsson &
// Tropp 2011, Alg. 4.4, with power iterations) on the p×p operator
// ŶᵀŶ = nS, applied by linalg.CentredGramOperator: implicit centring and
// one fused pass over Y per iteration for the whole block of q + 10
// vectors (instead of two thin matrix products). Each iteration takes the
// Rayleigh–Ritz pairs of VᵀŶᵀŶV in the current orthonormal basis V and
// stops when the leading q-dimensional subspace stops moving. It returns
// the top-q eigenpairs of S and the number of power iterations used.
//
// It is deliberately not linalg's svdRandomized (HMT Alg. 4.4 + 5.1 on an
// explicit matrix, a fixed number of power iterations): PCA never forms
// the centred Ŷ, stops on the subspace angle rather than after a fixed
// count, and needs eigenpairs of S, not singular triplets of Ŷ; routing it
// through the SVD finder would centre Y explicitly (an n×p copy) and change
// every randomized PCA result.
func pcaRandomized(Y *mat.Dense, mu []float64, q int, tol float64, maxIter int, rnd *rand.Rand) ([]float64, *mat.Dense, int, bool, error) {
	n, p := Y.Dims()
	k := min(q+10, min(n, p))
	G := linalg.CentredGramOperator(Y, mu)
	// apply sets dst (p×k) = ŶᵀŶ V through the block product (rows are vectors).
	xt := make([]float64, k*p)
	yt := make([]float64, k*p)
	apply := func(dst, V *mat.Dense) {
		for c := 0; c < k; c++ {
			mat.Col(xt[c*p:(c+1)*p], c, V)
		}
		linalg.MulBlockTo(G, yt, xt, k)
		for c := 0; c < k; c++ {
			dst.SetCol(c, yt[c*p:(c+1)*p])
		}
	}
	V := rng.NormalDense(rnd, p, k)
	W := mat.NewDense(p, k, nil)
	apply(W, V)
	V.Copy(W)
	linalg.Orthonormalise(V)
	var prev, u *mat.Dense
	var vals []float64
	converged := false
	it := 0
	for ; ; it++ {
		apply(W, V)
		// Rayleigh–Ritz: H = Vᵀ(ŶᵀŶ)V, k×k.
		H := mat.NewSymDense(k, nil)
		var h mat.Dense
		h.Mul(V.T(), W)
		for a := 0; a < k; a++ {
			for b := a; b < k; b++ {
				H.SetSym(a, b, 0.5*(h.At(a, b)+h.At(b, a)))
			}
		}
		var es mat.EigenSym
		if !es.Factorize(H, true) {
			return nil, nil, it, false, fmt.Errorf("%w: randomized PCA: small eigenproblem failed", ErrNotConverged)
		}
		theta := es.Values(nil) // ascending
		var S mat.Dense
		es.VectorsTo(&S)
		top := mat.NewDense(k, q, nil)
		vals = make([]float64, q)
		for c := 0; c < q; c++ {
			vals[c] = math.Max(theta[k-1-c], 0) / float64(n)
			for r := 0; r < k; r++ {
				top.Set(r, c, S.At(r, k-1-c))
			}
		}
		u = mat.NewDense(p, q, nil)
		u.Mul(V, top)
		if prev != nil && linalg.SubspaceSin(prev, u) < tol {
			converged = true
			break
		}
		if it >= maxIter {
			break
		}
		prev = u
		V.Copy(W)
		linalg.Orthonormalise(V)
	}
	return vals, u, it, converged, nil
}

// LatentTo stores the principal-component scores X = Ŷ U_q (n×q) in dst.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *PCA) LatentTo(dst *mat.Dense) {
	m.mustFit()
	dense.ReuseAs(dst, m.n, len(m.vals))
	dst.Copy(m.scores)
}

// LoadingsTo stores the p×q orthonormal principal directions U_q in dst.
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *PCA) LoadingsTo(dst *mat.Dense) {
	m.mustFit()
	dense.ReuseAs(dst, m.p, len(m.vals))
	dst.Copy(m.u)
}

// EigenvaluesTo stores the q leading eigenvalues λ₁ ≥ … ≥ λ_q of
// S = n⁻¹ŶᵀŶ (the variances of the scores) in dst and returns it. A nil or empty dst is allocated; a dst of another length panics with
// mat.ErrShape.
func (m *PCA) EigenvaluesTo(dst []float64) []float64 {
	m.mustFit()
	return dense.CopyVecTo(dst, m.vals)
}

// TotalVariance returns tr S = Σᵢ λᵢ over all p eigenvalues.
func (m *PCA) TotalVariance() float64 { m.mustFit(); return m.totalVar }

// VarianceExplained returns the fraction of the total variance carried by
// the q components, Σ_{i≤q} λᵢ / tr S, in [0, 1]. For data of zero
// variance (tr S = 0) it is 1: the q components leave no variance
// unexplained.
func (m *PCA) VarianceExplained() float64 {
	m.mustFit()
	return varianceExplained(m.vals, m.totalVar)
}

// varianceExplained is Σ vals / total clamped to [0, 1] (rounding can push
// the sum a hair past the total), and 1 when total = 0.
func varianceExplained(vals []float64, total float64) float64 {
	if total == 0 {
		return 1
	}
	var s float64
	for _, v := range vals {
		s += v
	}
	return math.Min(math.Max(s/total, 0), 1)
}

// MeanTo stores in dst and returns the column means μ (length p). A nil or
// empty dst is allocated; a dst of another length panics with mat.ErrShape.
func (m *PCA) MeanTo(dst []float64) []float64 {
	m.mustFit()
	return dense.CopyVecTo(dst, m.mu)
}

// Iterations returns the number of power iterations the randomized solver
// used (0 for the other solvers).
func (m *PCA) Iterations() int { m.mustFit(); return m.iters }

// ProjectTo stores the scores (Ynew − 1μᵀ) U_q of new points (rows of
// Ynew, m×p) in dst (m×q). It panics on a shape mismatch or a NaN or Inf
// in Ynew (ProjectTo has no error to return; check new data first).
// An empty dst is resized; a dst of another shape panics with
// mat.ErrShape.
func (m *PCA) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	m.mustFit()
	r, c := Ynew.Dims()
	if c != m.p {
		panic(mat.ErrShape)
	}
	checkProjectInput("PCA.ProjectTo", Ynew, "Ynew")
	dense.ReuseAs(dst, r, len(m.vals))
	centredMul(dst, dense.AsDense(Ynew), m.mu, m.u)
}

func (m *PCA) mustFit() {
	if m.u == nil {
		panic("dimred: PCA used before a successful Fit")
	}
}
