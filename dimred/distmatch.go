package dimred

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/progress"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"

	"gonum.org/v1/gonum/mat"
)

// This file holds Chapter 3's distance-matching view of dimensionality
// reduction (Lawrence, "Dimensionality Reduction for Machine Learning",
// §3.1–3.4): the distance-matching error, feature selection by variance,
// feature extraction by rotation onto the principal axes, and principal
// coordinates analysis (the same extraction through the n×n dual
// eigenproblem).

// DistanceMatchingError returns the book's distance-matching error (§3.3)
// between the data squared distances D (n×n, from p features) and
// the latent squared distances Δ (n×n, from q latent dimensions):
//
//	E(X) = 1/(n(n−1)) Σ_i Σ_j | d_ij/p − δ_ij/q |,
//
// the mean absolute difference of the per-dimension squared distances
// over the n(n−1) off-diagonal pairs. Both matrices hold SQUARED
// distances. This is the normalised form the book's figure captions print
// ("MAE"); DistanceMatchingSum is the unnormalised form of the lecture
// slides. It panics if the sizes differ, n < 2, or p, q ≤ 0, and (having
// no error to return) on a NaN or Inf entry, naming it.
func DistanceMatchingError(D, Delta mat.Symmetric, p, q int) float64 {
	n := D.SymmetricDim()
	if Delta.SymmetricDim() != n {
		panic(mat.ErrShape)
	}
	if n < 2 || p <= 0 || q <= 0 {
		panic(fmt.Sprintf("dimred: DistanceMatchingError needs n ≥ 2, p, q > 0 (n=%d p=%d q=%d)", n, p, q))
	}
	checkProjectInput("DistanceMatchingError", D, "D")
	checkProjectInput("DistanceMatchingError", Delta, "Delta")
	s := 0.0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			s += math.Abs(D.At(i, j)/float64(p) - Delta.At(i, j)/float64(q))
		}
	}
	return 2 * s / float64(n*(n-1))
}

// DistanceMatchingSum returns the unnormalised distance-matching error of
// the lecture slides:
//
//	E(X) = Σ_i Σ_j | d_ij − δ_ij |,
//
// summed over all ordered pairs, with D and Δ SQUARED distances and no
// division by p or q. This is a different objective from
// DistanceMatchingError, not a rescaling of it: the 1/p and 1/q act on
// different terms inside the absolute value, and without them the latent
// distances are asked to match the raw ones (for feature selection the
// best scale among contractions is ℓ = 1, not √(q/p)). Applied to the
// scaled matrices D/p and Δ/q it gives n(n−1) times DistanceMatchingError,
// and Chapter 4's Σ_i Σ_{j<i} |δ_ij/q − d_ij/p| (the opening of book Chapter 4) is half of
// that, n(n−1)/2 times DistanceMatchingError. It panics if the sizes
// differ, and on a NaN or Inf entry, naming it.
func DistanceMatchingSum(D, Delta mat.Symmetric) float64 {
	n := D.SymmetricDim()
	if Delta.SymmetricDim() != n {
		panic(mat.ErrShape)
	}
	if n == 0 {
		return 0
	}
	checkProjectInput("DistanceMatchingSum", D, "D")
	checkProjectInput("DistanceMatchingSum", Delta, "Delta")
	s := 0.0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			s += math.Abs(D.At(i, j) - Delta.At(i, j))
		}
	}
	return 2 * s
}

// FeatureSelection reduces dimension by keeping the q columns of Y with
// the largest unbiased variance ς²_k, scaled by ℓ = √(q/p) so that the
// latent squared distances δ_ij/q match d_ij/p on the kept features (§3.3).
// Among such scaled selections the error is
//
//	E(X) = (2/p) Σ_{k>q} ς²_(k),
//
// the discarded variance (ς²_(k) sorted in decreasing order). Caveat (the
// draft's eq. 3.1 moves the absolute value inside the sum): ℓ = √(q/p) is
// optimal only among contractions (δ_ij/q ≤ d_ij/p for all pairs); a
// larger ℓ can lower the L1 error further.
type FeatureSelection struct {
	Q int // q, number of features kept; 0 < q ≤ p

	// NoScale, if true, keeps the selected columns unscaled (ℓ = 1)
	// instead of multiplying them by √(q/p).
	NoScale bool

	idx  []int
	vars []float64 // all p variances, in column order
	x    *mat.Dense
	p    int
}

// Fit selects the features of Y (n×p). It returns an error wrapping
// ErrTooFewPoints when n < 2 and ErrNaN for a non-finite entry, and panics
// unless 1 ≤ Q ≤ p. A failed Fit leaves the model unfitted.
func (f *FeatureSelection) Fit(Y mat.Matrix) error { return f.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (f *FeatureSelection) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &f.x)
	if err := progress.Check(ctx, "FeatureSelection"); err != nil {
		return err
	}
	n, p := Y.Dims()
	if n < 2 {
		return fmt.Errorf("%w: FeatureSelection needs n ≥ 2 observations, have %d", ErrTooFewPoints, n)
	}
	checkSettings("FeatureSelection", f)
	if f.Q < 1 || f.Q > p {
		panic(fmt.Sprintf("dimred: FeatureSelection Q = %d outside [1, p = %d]", f.Q, p))
	}
	// Q counts kept coordinates: any q ≤ p is possible whatever n (the
	// book's Fig 3.4 keeps up to 1000 pixels of 360 images).
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	// At unit scale (an exact power-of-two rescaling): the squares of data
	// ~1e-200 underflow, which made every variance 0 and the selection
	// arbitrary.
	// The order comes from the unit-scale variances (their scaled-back
	// values may underflow to 0 although they differ).
	ys, sc := linalg.UnitScale(Y)
	unit := linalg.ColumnVariances(ys)
	vars := make([]float64, p)
	for j, v := range unit {
		v *= sc * sc
		vars[j] = v
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return errs.Overflowf("FeatureSelection variance of column %d = %v", j, v)
		}
	}
	order := make([]int, p)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return unit[order[a]] > unit[order[b]] })
	idx := append([]int(nil), order[:f.Q]...)
	scale := 1.0
	if !f.NoScale {
		scale = math.Sqrt(float64(f.Q) / float64(p))
	}
	x := mat.NewDense(n, f.Q, nil)
	for i := 0; i < n; i++ {
		for c, j := range idx {
			x.Set(i, c, scale*Y.At(i, j))
		}
	}
	f.idx, f.vars, f.x, f.p = idx, vars, x, p
	return nil
}

// Selected returns the indices of the kept columns, largest variance first.
func (f *FeatureSelection) Selected() []int {
	f.mustFit()
	return append([]int(nil), f.idx...)
}

// VariancesTo stores in dst and returns the unbiased variances of all p
// columns of Y, in column order. A nil or empty dst is allocated; a dst of
// another length panics with mat.ErrShape.
func (f *FeatureSelection) VariancesTo(dst []float64) []float64 {
	f.mustFit()
	return dense.CopyVecTo(dst, f.vars)
}

// LatentTo stores X (n×q), the selected (and scaled) columns of Y, in dst.
// An empty dst is resized; a dst of another shape panics with mat.ErrShape.
func (f *FeatureSelection) LatentTo(dst *mat.Dense) {
	f.mustFit()
	r, c := f.x.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(f.x)
}

// Error returns the closed-form distance-matching error (2/p) Σ_{k>q} ς²_(k)
// of the fitted selection (with the √(q/p) scaling; with NoScale the
// actual error differs).
func (f *FeatureSelection) Error() float64 {
	f.mustFit()
	return FeatureSelectionError(f.vars, f.Q)
}

func (f *FeatureSelection) mustFit() {
	if f.x == nil {
		panic("dimred: FeatureSelection used before a successful Fit")
	}
}

// FeatureSelectionError returns (2/p) Σ_{k>q} ς²_(k), the distance-matching
// error of keeping the q largest of the p column variances vars (in any
// order) scaled by √(q/p) (§3.3). It panics unless 0 ≤ q ≤ p = len(vars)
// and p ≥ 1, and on a NaN or Inf variance, naming it.
func FeatureSelectionError(vars []float64, q int) float64 {
	p := len(vars)
	if p == 0 {
		panic("dimred: FeatureSelectionError of no variances")
	}
	if q < 0 || q > p {
		panic(fmt.Sprintf("dimred: FeatureSelectionError q = %d outside [0, %d]", q, p))
	}
	for k, v := range vars {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			panic(fmt.Sprintf("dimred: FeatureSelectionError: NaN or Inf in input: vars[%d] = %v", k, v))
		}
	}
	s := append([]float64(nil), vars...)
	sort.Sort(sort.Reverse(sort.Float64Slice(s)))
	e := 0.0
	for _, v := range s[q:] {
		e += v
	}
	return 2 * e / float64(p)
}

// FeatureExtraction rotates the centred data onto its principal axes and
// keeps the first q (§3.4, "maximum variance rotations"):
//
//	S = n⁻¹ ŶᵀŶ,  S R = R Λ,  X = √(q/p) Ŷ R_q,
//
// with Ŷ = HY the column-centred data and R_q the p×q matrix of the top q
// eigenvectors of the maximum-likelihood covariance S. The latent ML
// variances are (q/p) Λ_q and the distance-matching error is
//
//	E(X) = 2n/(p(n−1)) Σ_{k>q} λ_k = 2n/(p(n−1)) (tr S − Σ_{k≤q} λ_k).
//
// Fit solves the p×p primal eigenproblem; PrincipalCoordinates solves the
// n×n dual and gives the same X (up to column signs, which both fix by
// the package convention). Use this one when p < n.
type FeatureExtraction struct {
	Q int // q, latent dimension; 0 < q ≤ p

	// NoScale, if true, returns the plain principal-component scores
	// X = Ŷ R_q instead of √(q/p) Ŷ R_q.
	NoScale bool

	Eigen *linalg.EigenSettings // eigensolver settings; nil means defaults

	r      *mat.Dense // p×q
	mu     []float64  // column means of Y
	lambda []float64  // top q eigenvalues of S
	trS    float64
	x      *mat.Dense
	n, p   int
}

// Fit computes the principal axes of Y (n×p). It returns an error wrapping
// ErrTooFewPoints when n < 2, ErrNaN for a non-finite entry, ErrOverflow
// when the covariance of finite data overflows, or the eigensolver's error,
// and panics unless 1 ≤ Q ≤ p. A failed Fit leaves the model unfitted.
func (f *FeatureExtraction) Fit(Y mat.Matrix) error { return f.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (f *FeatureExtraction) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &f.x)
	if err := progress.Check(ctx, "FeatureExtraction"); err != nil {
		return err
	}
	n, p := Y.Dims()
	if n < 2 {
		return fmt.Errorf("%w: FeatureExtraction needs n ≥ 2 observations, have %d", ErrTooFewPoints, n)
	}
	checkSettings("FeatureExtraction", f)
	if f.Q < 1 || f.Q > p {
		panic(fmt.Sprintf("dimred: FeatureExtraction Q = %d outside [1, p = %d]", f.Q, p))
	}
	if err := checkQ("FeatureExtraction", f.Q, n, f.Q+1); err != nil {
		return err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	var yc mat.Dense
	mu := linalg.CentreColumns(&yc, Y)
	// S of the centred data at unit scale, scaled back by sc² below (the
	// S of data ~1e-200 underflowed to 0; of data ~1e200 overflowed).
	ys, sc := linalg.UnitScale(&yc)
	S := mat.NewSymDense(p, nil)
	S.SymOuterK(1/float64(n), ys.T())
	vals, vecs, err := linalg.EigenSymContext(ctx, S, f.Q, linalg.Largest, f.Eigen)
	if err != nil {
		return errs.Wrap(err, "FeatureExtraction eigensolve")
	}
	tr := 0.0
	for k := 0; k < p; k++ {
		tr += S.At(k, k)
	}
	tr *= sc * sc
	if math.IsInf(tr, 0) {
		return errs.Overflowf("FeatureExtraction covariance tr S = %v", tr)
	}
	for k := range vals {
		vals[k] *= sc * sc
	}
	x := mat.NewDense(n, f.Q, nil)
	x.Mul(&yc, vecs)
	if !f.NoScale {
		x.Scale(math.Sqrt(float64(f.Q)/float64(p)), x)
	}
	f.r, f.mu, f.lambda, f.trS, f.x, f.n, f.p = vecs, mu, vals, tr, x, n, p
	return nil
}

// ProjectTo stores in dst (m×q) the latent positions of new points Ynew
// (m×p): √(q/p) (Ynew − 1μᵀ) R_q (without the factor when NoScale). An
// empty dst is resized; a dst of another shape panics with mat.ErrShape. A
// NaN or Inf in Ynew panics (see Projector).
func (f *FeatureExtraction) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	f.mustFit()
	m, p := Ynew.Dims()
	if p != f.p {
		panic(mat.ErrShape)
	}
	checkProjectInput("FeatureExtraction.ProjectTo", Ynew, "Ynew")
	dense.ReuseAs(dst, m, f.Q)
	var yc mat.Dense
	yc.CloneFrom(Ynew)
	for i := 0; i < m; i++ {
		row := yc.RawRowView(i)
		for j := range row {
			row[j] -= f.mu[j]
		}
	}
	dst.Mul(&yc, f.r)
	if !f.NoScale {
		dst.Scale(math.Sqrt(float64(f.Q)/float64(f.p)), dst)
	}
}

// LatentTo stores X (n×q) in dst. An empty dst is resized; a dst of
// another shape panics with mat.ErrShape.
func (f *FeatureExtraction) LatentTo(dst *mat.Dense) {
	f.mustFit()
	r, c := f.x.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(f.x)
}

// LoadingsTo stores in dst the rotation R_q (p×q): the top q eigenvectors
// of S, orthonormal columns with the largest-magnitude entry positive — the
// same quantity as PCA.LoadingsTo, the principal axes onto which the
// centred data are rotated. An empty dst is resized; a dst of another
// shape panics with mat.ErrShape.
func (f *FeatureExtraction) LoadingsTo(dst *mat.Dense) {
	f.mustFit()
	r, c := f.r.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(f.r)
}

// EigenvaluesTo stores in dst and returns λ_1 ≥ … ≥ λ_q, the top q
// eigenvalues of the ML covariance S = n⁻¹ŶᵀŶ. A nil or empty dst is
// allocated; a dst of another length panics with mat.ErrShape.
func (f *FeatureExtraction) EigenvaluesTo(dst []float64) []float64 {
	f.mustFit()
	return dense.CopyVecTo(dst, f.lambda)
}

// Error returns the closed-form distance-matching error
// 2n/(p(n−1)) (tr S − Σ_{k≤q} λ_k) of the √(q/p)-scaled extraction.
func (f *FeatureExtraction) Error() float64 {
	f.mustFit()
	return extractionError(f.trS, f.lambda, f.n, f.p)
}

func extractionError(trS float64, lambda []float64, n, p int) float64 {
	kept := 0.0
	for _, l := range lambda {
		kept += l
	}
	e := 2 * float64(n) / (float64(p) * float64(n-1)) * (trS - kept)
	if e < 0 { // round-off when q = rank
		e = 0
	}
	return e
}

func (f *FeatureExtraction) mustFit() {
	if f.x == nil {
		panic("dimred: FeatureExtraction used before a successful Fit")
	}
}

// PrincipalCoordinates is principal coordinates analysis (§3.4.5): the
// feature extraction of FeatureExtraction computed through the n×n dual
// eigenproblem of the centred inner products,
//
//	Ŷ Ŷᵀ U_q = U_q (n Λ_q),   Ŷ R_q = U_q (n Λ_q)^{1/2},
//	X = √(q/p) U_q (n Λ_q)^{1/2},
//
// where Λ_q are the top eigenvalues of S = n⁻¹ŶᵀŶ, so that the eigenvalues
// of ŶŶᵀ are nΛ_q (the draft writes pΛ_q, an error; see the notebook).
// Use it when p > n (the rotated sixes: n = 360, p = 4096). Because ŶŶᵀ =
// −½HDH, this is also classical MDS on the Euclidean squared distances of
// Y (ClassicalMDS with P = p).
type PrincipalCoordinates struct {
	Q int // q, latent dimension; 0 < q < n

	// NoScale, if true, returns X = U_q (nΛ_q)^{1/2} = Ŷ R_q instead of
	// √(q/p) times it.
	NoScale bool

	Eigen *linalg.EigenSettings // eigensolver settings; nil means defaults

	u      *mat.Dense
	mu     []float64 // top q eigenvalues of ŶŶᵀ
	trG    float64   // tr(ŶŶᵀ)
	x      *mat.Dense
	n, p   int
	fitted bool
}

// Fit computes the principal coordinates of Y (n×p). It returns an error
// wrapping ErrTooFewPoints when n < 2, ErrNaN for a non-finite entry,
// ErrOverflow when the inner products of finite data overflow, or the
// eigensolver's error, and panics unless 1 ≤ Q < n. A failed Fit leaves the
// model unfitted.
func (f *PrincipalCoordinates) Fit(Y mat.Matrix) error { return f.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (f *PrincipalCoordinates) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &f.fitted)
	if err := progress.Check(ctx, "PrincipalCoordinates"); err != nil {
		return err
	}
	n, p := Y.Dims()
	if n < 2 {
		return fmt.Errorf("%w: PrincipalCoordinates needs n ≥ 2 observations, have %d", ErrTooFewPoints, n)
	}
	checkSettings("PrincipalCoordinates", f)
	if err := checkQ("PrincipalCoordinates", f.Q, n, f.Q+1); err != nil {
		return err
	}
	if p == 0 {
		panic(noColumns("PrincipalCoordinates"))
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	var yc mat.Dense
	linalg.CentreColumns(&yc, Y)
	// G of the centred data at unit scale, scaled back by sc² below (the
	// G of data ~1e-200 underflowed to 0, and X with it).
	ys, sc := linalg.UnitScale(&yc)
	G := mat.NewSymDense(n, nil)
	G.SymOuterK(1, ys)
	vals, vecs, err := linalg.EigenSymContext(ctx, G, f.Q, linalg.Largest, f.Eigen)
	if err != nil {
		return errs.Wrap(err, "PrincipalCoordinates eigensolve")
	}
	tr := 0.0
	for i := 0; i < n; i++ {
		tr += G.At(i, i)
	}
	tr *= sc * sc
	if math.IsInf(tr, 0) {
		return errs.Overflowf("PrincipalCoordinates inner products tr ŶŶᵀ = %v", tr)
	}
	x := mat.NewDense(n, f.Q, nil)
	s := sc // X = U Λ^{1/2} from the unit-scale Λ
	if !f.NoScale {
		s *= math.Sqrt(float64(f.Q) / float64(p))
	}
	for c, v := range vals {
		vals[c] *= sc * sc
		a := s * math.Sqrt(math.Max(v, 0))
		for i := 0; i < n; i++ {
			x.Set(i, c, a*vecs.At(i, c))
		}
	}
	f.u, f.mu, f.trG, f.x, f.n, f.p, f.fitted = vecs, vals, tr, x, n, p, true
	return nil
}

// LatentTo stores X (n×q) in dst. An empty dst is resized; a dst of
// another shape panics with mat.ErrShape.
func (f *PrincipalCoordinates) LatentTo(dst *mat.Dense) {
	f.mustFit()
	r, c := f.x.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(f.x)
}

// EigenvectorsTo stores in dst U_q (n×q), the orthonormal top eigenvectors
// of ŶŶᵀ (largest-magnitude entry positive). An empty dst is resized; a dst
// of another shape panics with mat.ErrShape.
func (f *PrincipalCoordinates) EigenvectorsTo(dst *mat.Dense) {
	f.mustFit()
	r, c := f.u.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(f.u)
}

// EigenvaluesTo stores in dst and returns the top q eigenvalues of ŶŶᵀ,
// which are n times those of S. A nil or empty dst is allocated; a dst of
// another length panics with mat.ErrShape.
func (f *PrincipalCoordinates) EigenvaluesTo(dst []float64) []float64 {
	f.mustFit()
	return dense.CopyVecTo(dst, f.mu)
}

// Error returns the distance-matching error of the √(q/p)-scaled
// coordinates, 2/(p(n−1)) (tr ŶŶᵀ − Σ_{k≤q} nλ_k), the same number as
// FeatureExtraction.Error.
func (f *PrincipalCoordinates) Error() float64 {
	f.mustFit()
	lam := make([]float64, len(f.mu))
	for i, m := range f.mu {
		lam[i] = m / float64(f.n)
	}
	return extractionError(f.trG/float64(f.n), lam, f.n, f.p)
}

func (f *PrincipalCoordinates) mustFit() {
	if !f.fitted {
		panic("dimred: PrincipalCoordinates used before a successful Fit")
	}
}
