package dimred

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// StreamingPCA is principal component analysis of data that arrive, or
// are stored, in blocks of rows and never sit in memory at once. Each
// block contributes its count, mean and centred scatter; blocks (and
// accumulators filled elsewhere) combine exactly by the pairwise update of
// Chan, Golub & LeVeque (1979),
//
//	n = n_a + n_b,  δ = μ_b − μ_a,  μ = μ_a + (n_b/n) δ,
//	M = M_a + M_b + (n_a n_b / n) δ δᵀ,   M = Σ (y − μ)(y − μ)ᵀ,
//
// which, unlike accumulating Σ y yᵀ − n μ μᵀ, loses nothing to
// cancellation when the data sit far from the origin. Solve then takes
// the top q eigenpairs of S = M/n (p×p), as PCA does.
//
// The per-block step (Add: one p×p symmetric rank-k update of the centred
// block) is what Spark MLlib's RowMatrix.computeCovariance and Dask's
// blocked arrays distribute: run Add on each partition and Merge the
// results. Memory is p² whatever n; for p beyond a few thousand use a
// randomized range finder over the blocks instead. It does not store
// the rows, so latent positions come from ProjectTo, block by block.
type StreamingPCA struct {
	Q     int                   // q, number of components, 1 ≤ q ≤ p
	Eigen *linalg.EigenSettings // eigensolver settings for Solve; nil means defaults

	n    int
	mean []float64
	m    *mat.SymDense // centred scatter M (p×p)
	u    *mat.Dense    // p×q after Solve
	vals []float64
}

// Add accumulates a block of rows Y (b×p). The first block fixes p; a
// later block of another width panics with mat.ErrShape. A NaN or Inf in
// Y is returned as ErrNaN and the accumulator is left unchanged; an
// overflowing scatter as ErrOverflow. Add invalidates an earlier Solve.
func (s *StreamingPCA) Add(Y mat.Matrix) error {
	b, p := Y.Dims()
	if s.m != nil && p != s.m.SymmetricDim() {
		panic(mat.ErrShape)
	}
	if b == 0 {
		return nil
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	mu := linalg.ColumnMeans(Y)
	c := mat.NewDense(b, p, nil)
	linalg.CentreColumns(c, Y)
	blk := mat.NewSymDense(p, nil)
	cr := c.RawMatrix()
	blas64.Syrk(blas.Trans, 1, blas64.General{Rows: b, Cols: p, Stride: cr.Stride, Data: cr.Data}, 0, blk.RawSymmetric())
	o := &StreamingPCA{n: b, mean: mu, m: blk}
	if err := errs.CheckOverflow(blk, "StreamingPCA block scatter"); err != nil {
		return err
	}
	return s.merge(o)
}

// Merge adds the blocks accumulated by o (which may have been filled on
// another machine) to s. Both must have the same p. It returns ErrOverflow
// if the combined scatter overflows, leaving s unchanged.
func (s *StreamingPCA) Merge(o *StreamingPCA) error {
	if o.n == 0 {
		return nil
	}
	if s.m != nil && o.m.SymmetricDim() != s.m.SymmetricDim() {
		panic(mat.ErrShape)
	}
	cp := &StreamingPCA{n: o.n, mean: append([]float64(nil), o.mean...), m: mat.NewSymDense(o.m.SymmetricDim(), nil)}
	cp.m.CopySym(o.m)
	return s.merge(cp)
}

// merge folds o (owned by s afterwards) into s.
func (s *StreamingPCA) merge(o *StreamingPCA) error {
	s.u, s.vals = nil, nil
	if s.n == 0 {
		s.n, s.mean, s.m = o.n, o.mean, o.m
		return nil
	}
	p := len(s.mean)
	n := s.n + o.n
	delta := make([]float64, p)
	for j := range delta {
		delta[j] = o.mean[j] - s.mean[j]
	}
	M := mat.NewSymDense(p, nil)
	M.AddSym(s.m, o.m)
	f := float64(s.n) * float64(o.n) / float64(n)
	M.SymRankOne(M, f, mat.NewVecDense(p, delta))
	if err := errs.CheckOverflow(M, "StreamingPCA scatter"); err != nil {
		return err
	}
	mu := make([]float64, p)
	for j := range mu {
		mu[j] = s.mean[j] + float64(o.n)/float64(n)*delta[j]
	}
	s.n, s.mean, s.m = n, mu, M
	return nil
}

// N returns the number of rows accumulated.
func (s *StreamingPCA) N() int { return s.n }

// Solve computes the top q eigenpairs of the sample covariance S = M/n of
// everything accumulated (1/n, as PCA). It returns ErrTooFewPoints for
// fewer than two rows and the eigensolver's errors; it panics unless
// 1 ≤ Q ≤ p.
func (s *StreamingPCA) Solve() error {
	s.u, s.vals = nil, nil
	if s.n < 2 {
		return fmt.Errorf("%w: StreamingPCA needs n ≥ 2 rows, have %d", ErrTooFewPoints, s.n)
	}
	p := len(s.mean)
	if s.Q < 1 || s.Q > p {
		panic(fmt.Sprintf("dimred: StreamingPCA Q = %d outside [1, p = %d]", s.Q, p))
	}
	S := mat.NewSymDense(p, nil)
	S.ScaleSym(1/float64(s.n), s.m)
	vals, vecs, err := linalg.EigenSym(S, s.Q, linalg.Largest, s.Eigen)
	if err != nil {
		return errs.Wrap(err, "StreamingPCA eigensolve")
	}
	for i := range vals {
		vals[i] = math.Max(vals[i], 0)
	}
	u := mat.DenseCopyOf(vecs.Slice(0, p, 0, s.Q))
	linalg.FixSigns(u)
	s.u, s.vals = u, vals[:s.Q]
	return nil
}

func (s *StreamingPCA) mustSolve() {
	if s.u == nil {
		panic("dimred: StreamingPCA used before a successful Solve")
	}
}

// LoadingsTo stores the principal directions U_q (p×q) in dst. An empty
// dst is resized; a dst of another shape panics with mat.ErrShape.
func (s *StreamingPCA) LoadingsTo(dst *mat.Dense) {
	s.mustSolve()
	r, c := s.u.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(s.u)
}

// EigenvaluesTo stores λ₁ ≥ … ≥ λ_q in dst and returns it (nil or empty
// dst allocated, another length panics).
func (s *StreamingPCA) EigenvaluesTo(dst []float64) []float64 {
	s.mustSolve()
	return dense.CopyVecTo(dst, s.vals)
}

// MeanTo stores the mean of all rows accumulated in dst and returns it.
func (s *StreamingPCA) MeanTo(dst []float64) []float64 {
	s.mustSolve()
	return dense.CopyVecTo(dst, s.mean)
}

// ProjectTo stores the scores (Ynew − 1μᵀ) U_q (m×q) of a block of rows
// in dst. An empty dst is resized; a wrong shape panics with mat.ErrShape,
// as does use before Solve; a NaN or Inf in Ynew panics (see Projector).
func (s *StreamingPCA) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	s.mustSolve()
	r, p := Ynew.Dims()
	if p != len(s.mean) {
		panic(mat.ErrShape)
	}
	checkProjectInput("StreamingPCA.ProjectTo", Ynew, "Ynew")
	dense.ReuseAs(dst, r, s.Q)
	centredMul(dst, dense.AsDense(Ynew), s.mean, s.u)
}
