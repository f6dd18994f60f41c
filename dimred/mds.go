package dimred

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/linalg"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/internal/vec"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// ErrNotEuclidean reports squared distances whose double-centred matrix
// B = −½HDH has a clearly negative q-th largest eigenvalue
// (λ_q < −1e-9·|λ₁|), so no real q-dimensional configuration can be read
// off it. Zero eigenvalues (rank < q, or the centring direction) are
// allowed and give zero columns of X. The error message says how many
// eigenvalues are positive and the largest usable q.
var ErrNotEuclidean = errors.New("dimred: q-th eigenvalue of B is negative (distances not Euclidean)")

// ClassicalMDS is classical multidimensional scaling (Torgerson–Gower
// scaling; §3.5 of the book): from squared distances D (n×n) form the
// "standard transformation"
//
//	B = −½ H D H,   H = I − n⁻¹ 1 1ᵀ,
//
// take its top q eigenpairs B U_q = U_q Λ_q and set
//
//	X = U_q Λ_q^{1/2}          (the default; it reproduces D when D is
//	                            Euclidean of rank ≤ q)
//	X = √(q/p) U_q Λ_q^{1/2}   (the book's step 3, when P = p > 0).
//
// When D holds the Euclidean squared distances of centred data Ŷ,
// B = ŶŶᵀ and classical MDS is principal coordinates analysis (PCA in the
// dual). D is Euclidean iff B is positive semi-definite (Schoenberg;
// Young–Householder); road distances are not, so B has negative
// eigenvalues, which EigenvaluesTo reports and NegativeMass summarises.
//
// By default only the top q eigenpairs are computed, by the package's
// partial eigensolver on the implicit operator
// linalg.DoubleCentred{A: linalg.DenseOperator(D)}, x ↦ −½HDHx (B is never
// formed; linalg's policy solves small n densely): O(n²) per product at any
// n. With FullSpectrum set, all n eigenvalues come from a dense O(n³)
// solve of B, which NegativeMass, FitRatios and a whole-spectrum
// EigenvalueSigns need (they panic without it).
type ClassicalMDS struct {
	Q int // q, latent dimension; 0 < q < n

	// P, if > 0, is the data dimension p and scales X by √(q/p) (the
	// book's step 3). 0 (the default) leaves X = U_q Λ_q^{1/2}.
	P int

	// Plain, if true, says FitDistances receives plain distances d_ij,
	// which are squared first. The default is squared distances.
	Plain bool

	// FullSpectrum, if true, computes all n eigenvalues of B by a dense
	// O(n³) eigendecomposition (for NegativeMass, FitRatios and the sign
	// counts of EigenvalueSigns; sensible up to n of a few thousand). The
	// default computes only the top q.
	FullSpectrum bool

	Eigen *linalg.EigenSettings // partial eigensolver settings; nil means defaults

	// Landmarks, if > 0 and below n, makes Fit landmark MDS (de Silva &
	// Tenenbaum 2004, "Sparse multidimensional scaling using landmark
	// points"): classical MDS of m = Landmarks points drawn at random
	// (Src), every point placed from its squared distances to them by the
	// add-a-point (Nyström) formula of ProjectDistancesTo. Time O(n·m·p +
	// m²p + m²q) and memory O(n·m) instead of O(n²p) and O(n²): the way
	// past the n×n matrix (see the README on scale). EigenvaluesTo then
	// reports the landmarks' B, ProjectTo and ProjectDistancesTo take
	// distances to the landmarks, and FitDistances ignores Landmarks.
	// m must exceed q.
	Landmarks int
	Src       rand.Source // landmark choice; nil means a fixed seed

	vals []float64 // eigenvalues, descending: all n (dense) or the top q
	all  bool
	x    *mat.Dense
	u    *mat.Dense // n×q eigenvectors
	r    []float64  // row means of the fitted squared distances
	y    *mat.Dense // training data ÷ 2^yex when fitted by Fit(Y) (the landmarks with Landmarks)
	land []int      // landmark rows of Y, or nil

	// The model works at a power-of-two scale, so that squared distances
	// of data ~1e±200 neither under- nor overflow (distanceExponent):
	// vals, r and u are those of D/2^(2·ex), y holds the training rows
	// divided by 2^yex, and x is in the caller's units. ex = yex = 0 for
	// data of ordinary scale, whose results are bit-identical to an
	// unscaled fit.
	ex, yex int
}

// Fit runs classical MDS on the Euclidean squared distances between the
// rows of Y (n×p). It returns an error wrapping ErrTooFewPoints when n < 2,
// ErrNaN for a non-finite entry of Y and ErrOverflow when the eigenvalues
// of B, λ ~ n·s² for data of scale s, overflow float64 (s beyond about
// 1e+150), and panics unless 1 ≤ Q < n. (For Euclidean data B = ŶŶᵀ; Fit
// forms D anyway so that its result is FitDistances of D.) A failed Fit
// leaves the model unfitted.
//
// Classical MDS is scale-equivariant — the configuration of sY is s times
// that of Y, its eigenvalues s² times — and Fit keeps it so at any scale:
// it works on Y/2^e for a power of two 2^e near max|y_ij| when that lies
// outside 2^±400 (linalg.UnitScale; exact), and again on D/2^(2e') when
// the squared distances lie outside 2^±400, and scales the results back.
// (Before, the squared distances of data ~1e-200 underflowed to zero and
// Fit returned X = 0.) Eigenvalues below float64's normal range
// (≈ 2.2e-308, data below ~1e-155) are reported rounded, possibly to zero.
func (m *ClassicalMDS) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *ClassicalMDS) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.x)
	n, _ := Y.Dims()
	if err := m.checkQ(n); err != nil {
		return err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	if _, p := Y.Dims(); p == 0 {
		panic(noColumns("ClassicalMDS"))
	}
	m.land = nil
	ys, sc := linalg.UnitScale(Y)
	yex := powerOfTwo(sc)
	if m.Landmarks > 0 && m.Landmarks < n {
		return m.fitLandmarks(ctx, ys, yex)
	}
	D := mat.NewSymDense(n, nil)
	linalg.PairwiseSquaredDistances(D, ys)
	if err := errs.CheckOverflow(D, "ClassicalMDS squared distances D"); err != nil {
		return err
	}
	mx, i, j := maxUpper(D.RawSymmetric())
	dex, err := distanceExponent(mx, false, i, j)
	if err != nil {
		return err
	}
	if dex != 0 {
		scaleDistances(D, D, false, dex)
	}
	m.y, m.yex = mat.DenseCopyOf(ys), yex
	return m.fit(ctx, D, yex+dex)
}

// FitDistances runs classical MDS on the n×n symmetric matrix D of
// SQUARED distances (plain distances when Plain is set). It panics unless
// 0 < q < n. It returns an error wrapping ErrNaN for a non-finite entry,
// ErrNotDistance for a negative entry, a non-zero diagonal or an
// asymmetric D (checked when D is not a *mat.SymDense), and
// ErrNotEuclidean when the q-th largest eigenvalue of B is clearly
// negative (< −1e-9·|λ₁|). Zero eigenvalues (rank < q, or the centring
// direction) are allowed and give zero columns of X. It returns an error
// wrapping ErrTooFewPoints when n < 2. A failed fit leaves the model
// unfitted.
//
// Scale: like Fit, FitDistances works on D divided by a power of two when
// its largest entry lies outside 2^±400 (plain distances: 2^±200, divided
// before squaring), so the configuration of s-times distances is s times
// the configuration at any scale whose eigenvalues float64 can hold
// (ErrOverflow beyond). It cannot recover what underflowed before the
// call. When the largest entry of D is subnormal (below ≈ 2.2e-308), the
// distances have lost precision in the caller's own arithmetic (squared
// distances of points ~1e-155 apart): FitDistances returns an error
// wrapping ErrOverflow naming that entry rather than a configuration of
// unknown accuracy — scale D up, or pass the coordinates to Fit, which
// rescales them itself. A D that is exactly zero is the distance matrix of
// n identical points, and gives X = 0; squared distances that underflowed
// entirely to zero are indistinguishable from it. Entries that underflowed
// while the largest is normal are far below the rounding of the largest
// (below 2^-52 of it) and do not matter.
func (m *ClassicalMDS) FitDistances(D mat.Symmetric) error {
	return m.FitDistancesContext(context.Background(), D)
}

// FitDistancesContext is FitDistances under ctx (see FitContext).
func (m *ClassicalMDS) FitDistancesContext(ctx context.Context, D mat.Symmetric) (err error) {
	defer discardOnError(&err, &m.x)
	n := D.SymmetricDim()
	if err := m.checkQ(n); err != nil {
		return err
	}
	m.y, m.land, m.yex = nil, nil, 0 // no training points: ProjectTo is unavailable
	var (
		sd     *mat.SymDense // the matrix the fit works on (D itself when read in place)
		mx     float64       // largest entry, as given (plain when Plain)
		mi, mj int           // where
	)
	raw, isRaw := D.(mat.RawSymmetricer)
	isRaw = isRaw && raw.RawSymmetric().Uplo == blas.Upper
	switch d, ok := D.(*mat.SymDense); {
	case ok && !m.Plain && isRaw:
		// Squared distances as given: check them in place and solve on
		// D itself (only read; nothing of it is kept), no n×n copy.
		var err error
		if mx, mi, mj, err = m.copyDistances(nil, d.RawSymmetric()); err != nil {
			return err
		}
		sd = d
	case isRaw:
		sd = mat.NewSymDense(n, nil)
		var err error
		if mx, mi, mj, err = m.copyDistances(sd, raw.RawSymmetric()); err != nil {
			return err
		}
	default:
		sd = mat.NewSymDense(n, nil)
		_, isSym := D.(*mat.SymDense)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := D.At(i, j)
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("%w: D[%d,%d] = %v", ErrNaN, i, j, v)
				}
				if v < 0 {
					return fmt.Errorf("%w: D[%d,%d] = %v is negative", ErrNotDistance, i, j, v)
				}
				if i == j && v != 0 {
					return fmt.Errorf("%w: diagonal D[%d,%d] = %v is not zero", ErrNotDistance, i, i, v)
				}
				if !isSym && j > i {
					if w := D.At(j, i); w != v {
						return fmt.Errorf("%w: D[%d,%d] = %v but D[%d,%d] = %v (not symmetric)", ErrNotDistance, i, j, v, j, i, w)
					}
				}
				if v > mx {
					mx, mi, mj = v, i, j
				}
				if m.Plain {
					v *= v
				}
				sd.SetSym(i, j, v)
			}
		}
	}
	ex, err := distanceExponent(mx, m.Plain, mi, mj)
	if err != nil {
		return err
	}
	if ex != 0 {
		if sd == D {
			sd = mat.NewSymDense(n, nil) // never scale the caller's D
		}
		scaleDistances(sd, D, m.Plain, ex)
	}
	return m.fit(ctx, sd, ex)
}

// copyDistances copies the upper triangle of a into dst row by row,
// checking each entry as FitDistances documents (and squaring it when Plain),
// in parallel over rows. A nil dst (with Plain unset) only checks. It
// returns the largest entry as given (before squaring) and where it is.
func (m *ClassicalMDS) copyDistances(dst *mat.SymDense, a blas64.Symmetric) (mx float64, mi, mj int, err error) {
	n := a.N
	bad := make([]error, n)
	rowMax := make([]float64, n)
	rowArg := make([]int, n)
	parallel.ForWork(n, n*n/2, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := a.Data[i*a.Stride+i : i*a.Stride+n]
			if dst != nil {
				d := dst.RawSymmetric()
				r := d.Data[i*d.Stride+i : i*d.Stride+n]
				copy(r, row)
				row = r
			}
			if v := row[0]; v != 0 {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					bad[i] = fmt.Errorf("%w: D[%d,%d] = %v", ErrNaN, i, i, v)
				} else {
					bad[i] = fmt.Errorf("%w: diagonal D[%d,%d] = %v is not zero", ErrNotDistance, i, i, v)
				}
				continue
			}
			if !m.Plain {
				// The common case in one vector pass; the scalar loop
				// below only to name a bad entry. Where the maximum is
				// is found afterwards, in the one row that holds it.
				if rm, ok := vec.MaxNonNeg(row); ok {
					rowMax[i], rowArg[i] = rm, -1
					continue
				}
			}
			rm, ra := 0.0, i
			for jj, v := range row {
				// One comparison catches NaN, ±Inf and negatives.
				if !(v >= 0 && v <= math.MaxFloat64) {
					j := i + jj
					if math.IsNaN(v) || math.IsInf(v, 0) {
						bad[i] = fmt.Errorf("%w: D[%d,%d] = %v", ErrNaN, i, j, v)
					} else {
						bad[i] = fmt.Errorf("%w: D[%d,%d] = %v is negative", ErrNotDistance, i, j, v)
					}
					break
				}
				if v > rm {
					rm, ra = v, i+jj
				}
				if m.Plain {
					// Squares of plain distances beyond 2^±200 are
					// recomputed at a safe scale (scaleDistances).
					row[jj] = v * v
				}
			}
			rowMax[i], rowArg[i] = rm, ra
		}
	})
	for _, err := range bad {
		if err != nil {
			return 0, 0, 0, err // the first row with a bad entry, as the entry-by-entry scan reports
		}
	}
	for i, v := range rowMax {
		if v > mx {
			mx, mi, mj = v, i, rowArg[i]
		}
	}
	if mj < 0 { // the first column of row mi holding the maximum
		row := a.Data[mi*a.Stride+mi : mi*a.Stride+n]
		if dst != nil {
			d := dst.RawSymmetric()
			row = d.Data[mi*d.Stride+mi : mi*d.Stride+n]
		}
		for jj, v := range row {
			if v == mx {
				mj = mi + jj
				break
			}
		}
	}
	return mx, mi, mj, nil
}

// maxUpper returns the largest entry of the upper triangle of a and where
// it is (in parallel over rows).
func maxUpper(a blas64.Symmetric) (mx float64, mi, mj int) {
	n := a.N
	rowMax := make([]float64, n)
	rowArg := make([]int, n)
	parallel.ForWork(n, n*n/2, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			rm, ra := 0.0, i
			for jj, v := range a.Data[i*a.Stride+i : i*a.Stride+n] {
				if v > rm {
					rm, ra = v, i+jj
				}
			}
			rowMax[i], rowArg[i] = rm, ra
		}
	})
	for i, v := range rowMax {
		if v > mx {
			mx, mi, mj = v, i, rowArg[i]
		}
	}
	return mx, mi, mj
}

// powerOfTwo returns e for s = 2^e (linalg.UnitScale's factor).
func powerOfTwo(s float64) int {
	_, e := math.Frexp(s)
	return e - 1
}

// distanceExponent returns the exponent ex of the power of two at which
// ClassicalMDS works on distances whose largest entry is mx, D[i,j]
// (plain distances when plain, else squared): 0 when mx is zero or lies
// within 2^±200 (plain) or 2^±400 (squared), otherwise ex with
// mx/2^ex (plain) or mx/2^(2·ex) (squared) in [1, 4). Squares and
// products of the scaled distances then neither over- nor underflow
// (the squared distances are at most about 2^800 times their smallest
// normal neighbour, the products of the eigensolver ~2^±800). A subnormal
// mx means the distances underflowed before the call and lost precision:
// an error wrapping ErrOverflow naming D[i,j].
func distanceExponent(mx float64, plain bool, i, j int) (int, error) {
	if mx == 0 {
		return 0, nil
	}
	if mx < 0x1p-1022 {
		what := "squared distance"
		if plain {
			what = "distance"
		}
		return 0, fmt.Errorf("%w: ClassicalMDS: the largest %s, D[%d,%d] = %g, is subnormal (below 2.2e-308): the distances underflowed and lost their precision before the call; scale D up by a power of two, or give the coordinates to Fit, which rescales them",
			ErrOverflow, what, i, j, mx)
	}
	if !plain {
		mx = math.Sqrt(mx)
	}
	if mx >= 0x1p-200 && mx <= 0x1p+200 {
		return 0, nil
	}
	return powerOfTwo(mx), nil
}

// scaleDistances sets the upper triangle of dst to the squared distances
// of src divided by 2^(2·ex): src/2^(2·ex) when src holds squared
// distances, (src/2^ex)² when plain. Division by a power of two is exact
// (bar subnormal results); dst may be src.
func scaleDistances(dst *mat.SymDense, src mat.Symmetric, plain bool, ex int) {
	n := dst.SymmetricDim()
	d := dst.RawSymmetric()
	var sr blas64.Symmetric
	rs, ok := src.(mat.RawSymmetricer)
	if ok {
		sr = rs.RawSymmetric()
		ok = sr.Uplo == blas.Upper
	}
	parallel.ForWork(n, n*n/2, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := d.Data[i*d.Stride+i : i*d.Stride+n]
			for jj := range row {
				var v float64
				if ok {
					v = sr.Data[i*sr.Stride+i+jj]
				} else {
					v = src.At(i, i+jj)
				}
				if plain {
					v = math.Ldexp(v, -ex)
					row[jj] = v * v
				} else {
					row[jj] = math.Ldexp(v, -2*ex)
				}
			}
		}
	})
}

// checkQ is the parameter check of Fit and FitDistances: too few points
// (n < 2, or n ≤ Q) is an error, Q < 1 or an impossible setting (a
// negative P or Landmarks, a NaN) a panic.
func (m *ClassicalMDS) checkQ(n int) error {
	if n < 2 {
		return fmt.Errorf("%w: ClassicalMDS needs n ≥ 2 points, have %d", ErrTooFewPoints, n)
	}
	checkSettings("ClassicalMDS", m)
	return checkQ("ClassicalMDS", m.Q, n, m.Q+1)
}

// fit solves classical MDS for the squared distances D of the model's
// working scale, the true ones divided by 2^(2·ex) (see ClassicalMDS.ex).
func (m *ClassicalMDS) fit(ctx context.Context, D *mat.SymDense, ex int) error {
	n := D.SymmetricDim()
	var (
		vals []float64
		vecs *mat.Dense
		err  error
	)
	m.all = false
	if m.FullSpectrum {
		B := linalg.DoubleCentre(nil, D)
		if err := errs.CheckOverflow(B, "ClassicalMDS B = −½HDH"); err != nil {
			return err
		}
		vals, vecs, err = linalg.EigenSym(B, n, linalg.Largest, &linalg.EigenSettings{Method: linalg.EigenDense})
		m.all = true
	} else {
		vals, vecs, err = linalg.EigenSymOpContext(ctx, linalg.DoubleCentred{A: linalg.DenseOperator(D)}, m.Q, linalg.Largest, m.Eigen)
	}
	if cancelled(err) {
		return err
	}
	if err != nil {
		return errs.Wrap(err, "ClassicalMDS eigensolve")
	}
	for j, v := range vals {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return errs.Overflowf("ClassicalMDS eigenvalue λ_%d of B = −½HDH is %v", j+1, v)
		}
	}
	// Eigenvalues within round-off of zero count as zero; clearly
	// negative ones among the top q mean no q-dimensional configuration.
	scale := math.Abs(vals[0])
	if vals[m.Q-1] < -1e-9*scale {
		pos, ok := 0, 0 // positive; not clearly negative (usable)
		for _, v := range vals {
			if v > 1e-9*scale {
				pos++
			}
			if v >= -1e-9*scale {
				ok++
			}
		}
		of := fmt.Sprintf("%d", len(vals))
		if len(vals) < n {
			of = fmt.Sprintf("the top %d", len(vals))
		}
		zeros := ""
		if ok > pos {
			zeros = fmt.Sprintf(" (%d more are zero)", ok-pos)
		}
		return fmt.Errorf("%w: λ_%d = %.4g < 0; only %d of %s eigenvalues are positive%s; use q ≤ %d",
			ErrNotEuclidean, m.Q, vals[m.Q-1], pos, of, zeros, ok)
	}
	if err := checkEigenvalueRange(vals, ex); err != nil {
		return err
	}
	x := mat.NewDense(n, m.Q, nil)
	s := 1.0
	if m.P > 0 {
		s = math.Sqrt(float64(m.Q) / float64(m.P))
	}
	for c := 0; c < m.Q; c++ {
		sc := s * mdsSqrt(vals, c)
		for i := 0; i < n; i++ {
			x.Set(i, c, math.Ldexp(sc*vecs.At(i, c), ex))
		}
	}
	// Row means of D from its upper triangle: row i's stored part adds to
	// r_i, and by symmetry each entry to r_j.
	r := make([]float64, n)
	raw := D.RawSymmetric()
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride+i : i*raw.Stride+n]
		t := 0.0
		for jj, v := range row {
			t += v
			if jj > 0 {
				r[i+jj] += v
			}
		}
		r[i] += t
	}
	for i := range r {
		r[i] /= float64(n)
	}
	m.vals, m.x, m.r, m.ex = vals, x, r, ex
	m.u = mat.DenseCopyOf(vecs.Slice(0, n, 0, m.Q))
	return nil
}

// checkEigenvalueRange returns an error wrapping ErrOverflow when an
// eigenvalue λ of the working scale, reported as λ·2^(2·ex), overflows.
func checkEigenvalueRange(vals []float64, ex int) error {
	for j, v := range vals {
		if math.IsInf(math.Ldexp(v, 2*ex), 0) {
			return errs.Overflowf("ClassicalMDS eigenvalue λ_%d of B = −½HDH is %.4g·2^%d, beyond float64", j+1, v, 2*ex)
		}
	}
	return nil
}

// LatentTo stores the configuration X (n×q) in dst. An empty dst is
// resized; a dst of another shape panics with mat.ErrShape.
func (m *ClassicalMDS) LatentTo(dst *mat.Dense) {
	m.mustFit()
	r, c := m.x.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(m.x)
}

// ProjectDistancesTo places m new points given Dnew (m×n), their
// distances to the n fitted points (squared, or plain when Plain is set),
// by Gower's (1968) add-a-point formula
//
//	x = −½ Λ_q^{-1/2} U_qᵀ (d − r),   r_i = n⁻¹ Σ_j d_ij (fitted D),
//
// scaled by √(q/P) when P > 0. For Euclidean data it is the projection of
// the new points onto the fitted principal axes, and a fitted point is
// placed exactly where LatentTo put it. An empty dst is resized; a dst of
// another shape panics with mat.ErrShape, as does use before fitting. A NaN
// or Inf in Dnew panics (see Projector).
func (m *ClassicalMDS) ProjectDistancesTo(dst *mat.Dense, Dnew mat.Matrix) {
	m.mustFit()
	rows, n := Dnew.Dims()
	if n != len(m.r) {
		panic(mat.ErrShape)
	}
	checkProjectInput("ClassicalMDS.ProjectDistancesTo", Dnew, "Dnew")
	dense.ReuseAs(dst, rows, m.Q)
	dn := dense.AsDense(Dnew)
	switch {
	case m.ex != 0:
		// The model's working scale (see ClassicalMDS.ex).
		sq := mat.NewDense(rows, n, nil)
		sq.Apply(func(_, _ int, v float64) float64 {
			if m.Plain {
				v = math.Ldexp(v, -m.ex)
				return v * v
			}
			return math.Ldexp(v, -2*m.ex)
		}, dn)
		dn = sq
	case m.Plain:
		sq := mat.NewDense(rows, n, nil)
		sq.MulElem(dn, dn)
		dn = sq
	}
	m.projectSquared(dst, dn)
}

// mdsRankTol is the relative size below which an eigenvalue of B counts
// as zero: λ_c ≤ mdsRankTol·λ_1 is rounding (of order n·ε·λ_1 from the
// double centring), the same relative guard as kernel PCA's. Its axis is
// zero in X and in projections: X's column would be √λ_c times an
// eigenvector of rounding noise, and the projection divides by √λ_c
// (collinear points with q = 2 gave λ_2 = 1.7e-13 and projections of the
// training rows off by a factor 3e6).
const mdsRankTol = 1e-12

// mdsSqrt is √λ_c, or 0 when λ_c is zero to rounding (see mdsRankTol) or
// negative.
func mdsSqrt(vals []float64, c int) float64 {
	if l := vals[c]; l > mdsRankTol*math.Abs(vals[0]) {
		return math.Sqrt(l)
	}
	return 0
}

// projectSquared is ProjectDistancesTo for squared distances dn at the
// model's working scale (the true ones divided by 2^(2·ex)); dst is in the
// caller's units.
func (m *ClassicalMDS) projectSquared(dst, dn *mat.Dense) {
	rows, _ := dn.Dims()
	s := 1.0
	if m.P > 0 {
		s = math.Sqrt(float64(m.Q) / float64(m.P))
	}
	// x_a = −½ s Λ_q^{-1/2} U_qᵀ(d_a − r): one product Dnew U_q, then the
	// r correction, so a large Dnew (landmark MDS: n×m) is read once.
	var t mat.Dense
	t.Mul(dn, m.u)
	ru := make([]float64, m.Q)
	for c := range ru {
		for i, ri := range m.r {
			ru[c] += ri * m.u.At(i, c)
		}
	}
	for c := 0; c < m.Q; c++ {
		f := 0.0
		if r := mdsSqrt(m.vals, c); r > 0 {
			f = -0.5 * s / r
		}
		for a := 0; a < rows; a++ {
			dst.Set(a, c, math.Ldexp(f*(t.At(a, c)-ru[c]), m.ex))
		}
	}
}

// ProjectTo places new points Ynew (m×p) for a model fitted by Fit(Y):
// ProjectDistancesTo of their squared distances to the training rows. An
// empty dst is resized; a dst of another shape panics with mat.ErrShape. It
// panics if the model was fitted by FitDistances, on a shape mismatch of
// Ynew, on a NaN or Inf in Ynew (see Projector), and when a squared
// distance of Ynew to the training rows overflows (Ynew ~1e+150 times
// the training data's scale).
func (m *ClassicalMDS) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	m.mustFit()
	if m.y == nil {
		panic("dimred: ClassicalMDS.ProjectTo needs a model fitted by Fit(Y); use ProjectDistancesTo")
	}
	if _, c := Ynew.Dims(); c != m.y.RawMatrix().Cols {
		panic(mat.ErrShape)
	}
	checkProjectInput("ClassicalMDS.ProjectTo", Ynew, "Ynew")
	rows, _ := Ynew.Dims()
	dense.ReuseAs(dst, rows, m.Q)
	if m.yex != 0 {
		// The training rows are kept divided by 2^yex (see ClassicalMDS.ex).
		ys := mat.DenseCopyOf(Ynew)
		ys.Apply(func(_, _ int, v float64) float64 { return math.Ldexp(v, -m.yex) }, ys)
		Ynew = ys
	}
	var D mat.Dense
	linalg.SquaredDistances(&D, Ynew, m.y)
	if e := m.ex - m.yex; e != 0 {
		D.Apply(func(_, _ int, v float64) float64 { return math.Ldexp(v, -2*e) }, &D)
	}
	for a := 0; a < rows; a++ {
		for j, v := range D.RawRowView(a) {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				panic(fmt.Sprintf("dimred: ClassicalMDS.ProjectTo: the squared distance of Ynew row %d to training point %d overflows (%v): Ynew is far outside the scale of the training data", a, j, v))
			}
		}
	}
	m.projectSquared(dst, &D)
}

// EigenvaluesTo stores in dst and returns the eigenvalues of B = −½HDH in
// descending order: the top q, or all n of them, negative ones included,
// when the model was fitted with FullSpectrum. Eigenvalues below float64's
// normal range (data of scale below ~1e-155) are rounded, possibly to
// zero. A nil or empty dst is allocated; a dst of another length panics
// with mat.ErrShape.
func (m *ClassicalMDS) EigenvaluesTo(dst []float64) []float64 {
	m.mustFit()
	dst = dense.CopyVecTo(dst, m.vals)
	if m.ex != 0 {
		for i, v := range dst {
			dst[i] = math.Ldexp(v, 2*m.ex)
		}
	}
	return dst
}

// AllEigenvalues reports whether EigenvaluesTo returns the whole spectrum.
func (m *ClassicalMDS) AllEigenvalues() bool { m.mustFit(); return m.all }

// EigenvalueSigns counts the positive, negative and zero eigenvalues of B,
// an eigenvalue counting as zero when |λ| ≤ tol·max|λ| (tol ≤ 0 means
// 1e-10). The counts are of the whole spectrum only when AllEigenvalues.
func (m *ClassicalMDS) EigenvalueSigns(tol float64) (pos, neg, zero int) {
	m.mustFit()
	if tol <= 0 {
		tol = 1e-10
	}
	mx := 0.0
	for _, v := range m.vals {
		mx = math.Max(mx, math.Abs(v))
	}
	for _, v := range m.vals {
		switch {
		case math.Abs(v) <= tol*mx:
			zero++
		case v > 0:
			pos++
		default:
			neg++
		}
	}
	return pos, neg, zero
}

// NegativeMass returns Σ|λ⁻| / Σ|λ|, the share of the absolute spectrum of
// B carried by negative eigenvalues: 0 for Euclidean distances (and for
// identical points, B = 0), about 18% for the book's road distances. It
// needs the whole spectrum and panics unless AllEigenvalues.
func (m *ClassicalMDS) NegativeMass() float64 {
	m.mustFit()
	m.mustAll("NegativeMass")
	mx := m.maxAbsEigenvalue()
	if mx == 0 {
		return 0
	}
	neg, tot := 0.0, 0.0
	for _, v := range m.vals {
		v /= mx // scaled, so that huge distances cannot overflow the sums
		tot += math.Abs(v)
		if v < 0 {
			neg -= v
		}
	}
	return neg / tot
}

// FitRatios returns Mardia's goodness-of-fit ratios for q dimensions
// (Mardia, Kent & Bibby 1979, §14.4),
//
//	α₁ = Σ_{k≤q} λ_k / Σ_k |λ_k|,   α₂ = Σ_{k≤q} λ_k² / Σ_k λ_k²,
//
// both 1 when D is Euclidean of rank ≤ q — including identical points
// (D = 0, every λ_k = 0), whose zero configuration fits exactly. It needs
// the whole spectrum and panics unless AllEigenvalues.
func (m *ClassicalMDS) FitRatios() (a1, a2 float64) {
	m.mustFit()
	m.mustAll("FitRatios")
	mx := m.maxAbsEigenvalue()
	if mx == 0 {
		return 1, 1
	}
	var s1, s1abs, s2, s2all float64
	for k, v := range m.vals {
		v /= mx // scaled, so that huge distances cannot overflow the sums
		s1abs += math.Abs(v)
		s2all += v * v
		if k < m.Q {
			s1 += v
			s2 += v * v
		}
	}
	return s1 / s1abs, s2 / s2all
}

func (m *ClassicalMDS) maxAbsEigenvalue() float64 {
	mx := 0.0
	for _, v := range m.vals {
		mx = math.Max(mx, math.Abs(v))
	}
	return mx
}

func (m *ClassicalMDS) mustAll(what string) {
	if !m.all {
		panic(fmt.Sprintf("dimred: ClassicalMDS.%s needs the whole spectrum: fit with FullSpectrum set", what))
	}
}

func (m *ClassicalMDS) mustFit() {
	if m.x == nil {
		panic("dimred: ClassicalMDS used before a successful Fit")
	}
}
