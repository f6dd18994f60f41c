package dimred

import (
	"context"
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/kernel"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/progress"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/internal/vec"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// KernelPCA is kernel principal component analysis (Schölkopf, Smola and
// Müller 1998; book Chapter 4): principal component analysis of the points
// after a non-linear map φ into a feature space, computed from the kernel
// k(y, y') = φ(y)ᵀφ(y') alone.
//
// Fit forms the n×n kernel matrix K_ij = k(y_i, y_j), centres it in
// feature space,
//
//	K̃ = H K H,  H = I − n⁻¹11ᵀ,
//
// which is the Gram matrix Φ̂Φ̂ᵀ of the centred features, and takes its q
// leading eigenpairs K̃ U = U Λ. The latent positions are
//
//	X = U Λ^{1/2}   (n×q),
//
// scaled so that X Xᵀ = K̃ when q = n: kernel PCA is classical
// multidimensional scaling on the feature-space squared distances
// d_ij = k_ii + k_jj − 2k_ij, since −½ H D H = H K H (book §4.2;
// Williams 2002, "On a connection between kernel PCA and metric
// multidimensional scaling"). With the linear kernel it is PCA: X holds the
// principal component scores.
//
// Components whose eigenvalue is not above 10⁻¹² λ_1 (round-off for a
// valid kernel, e.g. the null direction 1 of H K H) have zero latent
// coordinates, in LatentTo and in ProjectTo.
//
// A Fit or FitGram that fails (returns an error or panics) leaves the model
// unfitted: it never goes on serving an earlier fit. The kernel and the centring are
// those in force at the last successful fit; changing Kernel or NoCentre
// afterwards affects only the next fit.
type KernelPCA struct {
	Kernel   kernel.Kernel         // k(y, y'); required: Fit panics on nil
	Q        int                   // q, latent dimension, 1 ≤ q ≤ n
	NoCentre bool                  // use K itself, uncentred, as the book's demSixKpca.m does
	Eigen    *linalg.EigenSettings // eigensolver settings; nil means defaults

	y         *mat.Dense    // training points (nil after FitGram)
	kern      kernel.Kernel // the kernel of the fit (ProjectTo uses it)
	centred   bool          // whether the fit centred K
	n, q      int
	colMean   []float64 // k̄_j = n⁻¹ Σ_i K_ij
	grandMean float64   // n⁻² Σ_ij K_ij
	trace     float64   // tr K̃
	vals      []float64 // λ_1 ≥ … ≥ λ_q
	vecs      *mat.Dense
}

// kpcaDegenerateTol is the relative size below which the centred kernel
// matrix counts as numerically zero: tr K̃ ≤ kpcaDegenerateTol·n·max_i K_ii.
// Rounding in the centring alone leaves |tr K̃| of order n·ε·max K_ii, so
// this is 10⁶ times the noise level; K̃ that small has lost its
// information to cancellation, and the eigensolver would hunt for
// eigenvectors of rounding errors.
const kpcaDegenerateTol = 1e-10

// Fit computes the kernel matrix of the rows of Y (n×p, never modified)
// and fits the model to it. It returns an error wrapping ErrTooFewPoints
// for n < 2, ErrNaN for a non-finite entry of Y, ErrOverflow for a kernel
// matrix of finite data that overflows, ErrSingular for a degenerate
// kernel matrix (numerically zero after centring: identical points, or an
// RBF length scale far beyond the data's spread), or the eigensolver's
// error. It panics if Kernel is nil or Q is outside [1, n].
func (k *KernelPCA) Fit(Y mat.Matrix) error { return k.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (k *KernelPCA) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &k.vecs)
	if k.Kernel == nil {
		panic("dimred: KernelPCA Kernel is nil")
	}
	n, _ := Y.Dims()
	if n < 2 {
		return fmt.Errorf("%w: KernelPCA needs n ≥ 2 points, have %d", ErrTooFewPoints, n)
	}
	if err := k.checkQ(n); err != nil {
		return err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	K := mat.NewSymDense(n, nil)
	kernel.Gram(K, k.Kernel, Y)
	if err := progress.Check(ctx, "KernelPCA"); err != nil {
		return err
	}
	if err := k.fit(ctx, K, true); err != nil {
		return err
	}
	k.y = mat.DenseCopyOf(Y)
	k.kern = k.Kernel
	return nil
}

// checkQ is the parameter check of Fit and FitGram: Q < 1 or an
// impossible setting panics, n < Q is ErrTooFewPoints.
func (k *KernelPCA) checkQ(n int) error {
	checkSettings("KernelPCA", k)
	// q = n is the full rank of an uncentred K (NoCentre); centred, the
	// n-th axis is zero.
	return checkQ("KernelPCA", k.Q, n, k.Q)
}

// FitGram fits the model to a precomputed n×n kernel matrix K (not
// modified). ProjectTo is then unavailable (there are no training points),
// but ProjectKernelTo works. Errors and panics are those of Fit, with
// ErrNaN for a non-finite entry of K.
func (k *KernelPCA) FitGram(K mat.Symmetric) (err error) {
	defer discardOnError(&err, &k.vecs)
	n := K.SymmetricDim()
	if n < 2 {
		return fmt.Errorf("%w: KernelPCA needs n ≥ 2 points, have %d", ErrTooFewPoints, n)
	}
	if err := k.checkQ(n); err != nil {
		return err
	}
	c := mat.NewSymDense(n, nil)
	c.CopySym(K)
	if err := k.fit(context.Background(), c, false); err != nil {
		return err
	}
	k.y, k.kern = nil, nil
	return nil
}

// fit centres K (which it owns and overwrites) and extracts the
// eigenpairs. computed says K was computed from finite data (so a
// non-finite entry is an overflow, not the caller's NaN).
func (k *KernelPCA) fit(ctx context.Context, K *mat.SymDense, computed bool) error {
	n := K.SymmetricDim()
	q := k.Q
	raw := K.RawSymmetric()
	s := raw.Stride
	a := raw.Data
	// One pass over the stored upper triangle, on all cores: finiteness and
	// row sums (K is symmetric, so row means are column means).
	rowSum, bad := kpcaRowSums(a, n, s)
	if bad >= 0 {
		i := bad
		for j := i; j < n; j++ {
			if v := a[i*s+j]; math.IsNaN(v) || math.IsInf(v, 0) {
				if computed {
					return errs.Overflowf("KernelPCA kernel matrix K[%d,%d] = %v", i, j, v)
				}
				return fmt.Errorf("%w: kernel matrix K[%d,%d] = %v", ErrNaN, i, j, v)
			}
		}
		// Every entry of the row is finite but their sum overflows.
		return errs.Overflowf("KernelPCA row %d of the kernel matrix sums to ±Inf (entries too large to centre)", i)
	}
	colMean := make([]float64, n)
	grand := 0.0
	tr := 0.0
	maxDiag := 0.0
	for i := 0; i < n; i++ {
		tr += a[i*s+i]
		maxDiag = math.Max(maxDiag, math.Abs(a[i*s+i]))
	}
	if !k.NoCentre {
		for i, t := range rowSum {
			colMean[i] = t / float64(n)
			grand += t
		}
		grand /= float64(n) * float64(n)
		// tr K̃ = Σ_i (K_ii − 2k̄_i + k̄) = tr K − n k̄.
		tr -= float64(n) * grand
	}
	if math.IsInf(tr, 0) || math.IsNaN(tr) {
		return errs.Overflowf("KernelPCA trace of the kernel matrix = %v", tr)
	}
	// A numerically zero (centred) kernel matrix has no principal
	// components to find: answer at once rather than let the eigensolver
	// chase rounding errors to its iteration limit.
	if tr <= kpcaDegenerateTol*float64(n)*maxDiag {
		what := "centred kernel matrix K̃ = HKH"
		if k.NoCentre {
			what = "kernel matrix K"
		}
		return fmt.Errorf("%w: KernelPCA %s is degenerate: trace %.3g ≤ %g·n·max K_ii = %.3g (the points coincide in feature space, or an RBF length scale is far beyond the data's spread)",
			ErrSingular, what, tr, kpcaDegenerateTol, kpcaDegenerateTol*float64(n)*maxDiag)
	}

	// Few components of a large matrix: block Lanczos (linalg.EigenSymOp) on a
	// product that streams the stored triangle of K once per block of
	// vectors on all cores, with the centring applied implicitly,
	// K̃x = Kx − 1(k̄ᵀx) − k̄(1ᵀx) + k̄(1ᵀx)1, so K̃ is never formed.
	// Otherwise (small n, many components, or a dense solver asked for)
	// K̃ is formed in place and handed to linalg.EigenSym.
	var vals []float64
	var vecs *mat.Dense
	var err error
	if linalg.PreferDense(n, q) || (k.Eigen != nil && k.Eigen.Method == linalg.EigenDense) {
		if !k.NoCentre {
			// K̃_ij = K_ij − k̄_i − k̄_j + k̄ on the upper triangle, all cores.
			parallel.TriRows(n, func(i int) {
				row := a[i*s+i : i*s+n]
				ci := colMean[i] - grand
				for j := range row {
					row[j] -= ci + colMean[i+j]
				}
			})
		}
		vals, vecs, err = linalg.EigenSymContext(ctx, K, q, linalg.Largest, k.Eigen)
	} else {
		op := linalg.DenseOperator(K)
		if !k.NoCentre {
			op = linalg.CentredDenseOperator(K, colMean, grand)
		}
		// The triangle product costs about the same per vector for any
		// block size, so a block as small as q (at least 2) needs the fewest
		// products (BenchmarkKernelPCARBF).
		es := linalg.EigenSettings{}
		if k.Eigen != nil {
			es = *k.Eigen
		}
		if es.BlockSize == 0 {
			es.BlockSize = max(2, min(q, 8))
		}
		vals, vecs, err = linalg.EigenSymOpContext(ctx, op, q, linalg.Largest, &es)
	}
	if cancelled(err) {
		return err
	}
	if err != nil {
		return errs.Wrap(err, "KernelPCA eigendecomposition")
	}
	k.n, k.q, k.centred = n, q, !k.NoCentre
	k.colMean, k.grandMean, k.trace = colMean, grand, tr
	k.vals, k.vecs = vals, vecs
	return nil
}

// kpcaRowSums returns the row sums of the symmetric matrix stored in the
// upper triangle of a (row stride s), on all cores, and the first row of a
// worker's share holding a NaN or Inf (−1 if none; the caller rescans).
func kpcaRowSums(a []float64, n, s int) ([]float64, int) {
	w := parallel.UpperTriWorkers(n)
	parts := make([][]float64, w)
	bad := make([]int, w)
	for t := range parts {
		parts[t] = make([]float64, n)
		bad[t] = -1
	}
	parallel.Do(w, func(t int) {
		lo, hi := parallel.TriBounds(n, w, t), parallel.TriBounds(n, w, t+1)
		rs := parts[t]
		for i := lo; i < hi; i++ {
			row := a[i*s+i : i*s+n]
			// Row i's sum, and its entries right of the diagonal added to
			// the sums of rows i+1, …, n−1 (their entries left of it).
			sum := row[0] + vec.SumAdd(rs[i+1:n], row[1:])
			if math.IsNaN(sum) || math.IsInf(sum, 0) {
				bad[t] = i
				return
			}
			rs[i] += sum
		}
	})
	first := -1
	for t := 0; t < w; t++ {
		if bad[t] >= 0 && (first < 0 || bad[t] < first) {
			first = bad[t]
		}
	}
	if first >= 0 {
		return nil, first
	}
	for t := 1; t < w; t++ {
		floats.Add(parts[0], parts[t])
	}
	return parts[0], -1
}

func (k *KernelPCA) mustFit() {
	if k.vecs == nil {
		panic("dimred: KernelPCA used before a successful Fit")
	}
}

// scale returns the factor by which column c of U is multiplied to give
// X (√λ_c) and the one by which a centred test-kernel row is projected
// (1/√λ_c); both are zero for a non-positive eigenvalue.
func (k *KernelPCA) scale(c int) (sqrtL, invSqrtL float64) {
	l := k.vals[c]
	if !(l > 1e-12*math.Abs(k.vals[0])) || l <= 0 {
		return 0, 0
	}
	r := math.Sqrt(l)
	return r, 1 / r
}

// LatentTo stores X = U_q Λ_q^{1/2} (n×q) in dst. An empty dst is resized;
// a dst of another shape panics with mat.ErrShape.
func (k *KernelPCA) LatentTo(dst *mat.Dense) {
	k.mustFit()
	dense.ReuseAs(dst, k.n, k.q)
	for c := 0; c < k.q; c++ {
		r, _ := k.scale(c)
		for i := 0; i < k.n; i++ {
			dst.Set(i, c, r*k.vecs.At(i, c))
		}
	}
}

// EigenvectorsTo stores the n×q orthonormal eigenvectors U of the centred
// kernel matrix in dst (each column's largest-magnitude entry positive).
// An empty dst is resized; a dst of another shape panics with mat.ErrShape.
func (k *KernelPCA) EigenvectorsTo(dst *mat.Dense) {
	k.mustFit()
	dense.ReuseAs(dst, k.n, k.q)
	dst.Copy(k.vecs)
}

// EigenvaluesTo stores in dst and returns the q leading eigenvalues
// λ_1 ≥ … ≥ λ_q of the centred kernel matrix (of K itself with NoCentre).
// A nil or empty dst is allocated; a dst of another length panics with
// mat.ErrShape.
func (k *KernelPCA) EigenvaluesTo(dst []float64) []float64 {
	k.mustFit()
	return dense.CopyVecTo(dst, k.vals)
}

// Trace returns tr K̃ = Σ_i λ_i over all n eigenvalues, the total variance
// in feature space times n (tr K with NoCentre).
func (k *KernelPCA) Trace() float64 {
	k.mustFit()
	return k.trace
}

// VarianceExplained returns the share of the feature-space variance the q
// components carry, Σ_{c≤q} λ_c / tr K̃ (as PCA.VarianceExplained); the
// share of component c alone is λ_c / Trace(). It lies in [0, 1] (Fit
// rejects a kernel matrix of zero trace as degenerate).
func (k *KernelPCA) VarianceExplained() float64 {
	k.mustFit()
	return varianceExplained(k.vals, k.trace)
}

// ProjectTo stores in dst (m×q) the latent positions of new points Ynew
// (m×p): with k_t the m×n kernel matrix between Ynew and the training
// points, it is ProjectKernelTo(dst, k_t). Projecting the training points
// returns their fitted latent positions. An empty dst is resized; a dst
// of another shape panics with mat.ErrShape. It panics after FitGram,
// before Fit, on a column mismatch (mat.ErrShape) and on a NaN or Inf in
// Ynew (see Projector).
func (k *KernelPCA) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	k.mustFit()
	if k.y == nil {
		panic("dimred: KernelPCA.ProjectTo after FitGram: no training points; use ProjectKernelTo")
	}
	if _, c := Ynew.Dims(); c != k.y.RawMatrix().Cols {
		panic(mat.ErrShape)
	}
	checkProjectInput("KernelPCA.ProjectTo", Ynew, "Ynew")
	var kt mat.Dense
	kernel.Cross(&kt, k.kern, Ynew, k.y)
	k.ProjectKernelTo(dst, &kt)
}

// ProjectKernelTo stores in dst (m×q) the latent positions of m new points
// given their m×n kernel matrix Kt with the training points,
// Kt_ij = k(y*_i, y_j). The test kernel is centred with the training
// statistics, as the new points' features are centred by the training mean
// in feature space,
//
//	K̃t = Kt − Kt 1 1ᵀ/n − 1 k̄ᵀ + (1ᵀK1/n²) 1 1ᵀ,   k̄ = K1/n,
//
// and projected onto the principal axes: X* = K̃t U Λ^{−1/2}. (Uncentred
// if the fit was made with NoCentre.) An empty dst is resized; a dst of
// another shape panics with mat.ErrShape, as does Kt with other than n
// columns. A NaN or Inf in Kt panics (see Projector).
func (k *KernelPCA) ProjectKernelTo(dst *mat.Dense, Kt mat.Matrix) {
	k.mustFit()
	m, n := Kt.Dims()
	if n != k.n {
		panic(mat.ErrShape)
	}
	checkProjectInput("KernelPCA.ProjectKernelTo", Kt, "Kt")
	kc := mat.DenseCopyOf(Kt)
	if k.centred {
		for i := 0; i < m; i++ {
			row := kc.RawRowView(i)
			r := 0.0
			for _, v := range row {
				r += v
			}
			r /= float64(n)
			for j := range row {
				row[j] += k.grandMean - r - k.colMean[j]
			}
		}
	}
	dense.ReuseAs(dst, m, k.q)
	dst.Mul(kc, k.vecs)
	for c := 0; c < k.q; c++ {
		_, inv := k.scale(c)
		for i := 0; i < m; i++ {
			dst.Set(i, c, dst.At(i, c)*inv)
		}
	}
}
