package dimred

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/internal/rng"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/mat"
)

// Subsample runs a method whose cost grows too fast with n (MVU's
// semidefinite programme, O(m³) in its m ≈ nk constraints; MEU's and
// DRILL's dense n×n precisions) on a random subsample of M points and
// places every other point by locally linear reconstruction (Saul &
// Roweis 2003, "Think globally, fit locally", §5; the landmark idea of
// de Silva & Tenenbaum 2003 with LLE's weights as the map): a point y
// outside the subsample is written as the barycentre of its K nearest
// subsample points y_j,
//
//	min_w ‖y − Σ_j w_j y_j‖²  s.t.  Σ_j w_j = 1,   x = Σ_j w_j x_j,
//
// with LLE's regularised weights w ∝ (C + r·tr C·I)⁻¹1 (C the K×K Gram
// matrix of y_j − y, r = Reg). The subsample's own rows are the method's
// embedding. This is the out-of-sample map LLE.ProjectTo uses, applied to
// the subsample's embedding; it is a stated approximation, not the
// method's fit to all n points.
type Subsample struct {
	// Method is the model fitted to the subsample (fresh; Subsample
	// calls its Fit).
	Method Embedder
	// M is the subsample size m; it must satisfy 0 < m ≤ n (m = n fits
	// Method to all points).
	M int
	// K is the number of subsample points each other point is
	// reconstructed from; 0 means 10.
	K int
	// Reg is the regulariser r of the reconstruction weights; 0 means
	// 10⁻³ (Roweis and Saul's choice), negative means none.
	Reg float64
	// Src draws the subsample; nil means the package's fixed seed.
	Src rand.Source

	sub []int
	x   *mat.Dense
}

var _ Embedder = (*Subsample)(nil)

// Fit draws the subsample (rows of Y, in ascending order), fits Method to
// it and places the other points. Method's error is returned; after an
// ErrNotConverged (a usable fit) the placement still runs. It panics if
// Method is nil, M ≤ 0, K < 0, Reg is NaN or +Inf or Y has no columns, and
// returns ErrTooFewPoints for M > n or K > M.
func (s *Subsample) Fit(Y mat.Matrix) error { return s.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (s *Subsample) FitContext(ctx context.Context, Y mat.Matrix) error {
	s.sub, s.x = nil, nil
	n, p := Y.Dims()
	if s.Method == nil {
		panic("dimred: Subsample.Method is nil")
	}
	// A NaN Reg made the reconstruction's fallback regulariser NaN, whose
	// ×10 loop never ends; +Inf swamps every Gram matrix.
	if math.IsNaN(s.Reg) || math.IsInf(s.Reg, 1) {
		panic(fmt.Sprintf("dimred: Subsample.Reg = %v, want a finite number (0 means 10⁻³, negative none)", s.Reg))
	}
	if s.M <= 0 {
		panic(fmt.Sprintf("dimred: Subsample.M = %d must be positive", s.M))
	}
	if p == 0 {
		// As TSNE and UMAP: gonum's own "zero length in matrix dimension"
		// came from deep inside otherwise.
		panic("dimred: Subsample: Y has no columns")
	}
	if s.K < 0 {
		panic(fmt.Sprintf("dimred: Subsample.K = %d must be non-negative (0 means 10)", s.K))
	}
	k := s.K
	if k == 0 {
		k = 10
	}
	if s.M > n {
		return fmt.Errorf("%w: Subsample of %d points from %d", ErrTooFewPoints, s.M, n)
	}
	if k > s.M {
		return fmt.Errorf("%w: Subsample places points from k = %d of its %d points", ErrTooFewPoints, k, s.M)
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	sub := rng.New(s.Src).Perm(n)[:s.M]
	sort.Ints(sub)
	Ys := selectRows(Y, sub)
	var err error
	if cf, ok := s.Method.(ContextFitter); ok {
		err = cf.FitContext(ctx, Ys)
	} else if err = progress.Check(ctx, "Subsample"); err == nil {
		err = s.Method.Fit(Ys)
	}
	if err != nil && !isNotConverged(err) {
		return err
	}
	var Xs mat.Dense
	s.Method.LatentTo(&Xs)
	if r, _ := Xs.Dims(); r != s.M {
		return fmt.Errorf("%w: Subsample: the method embedded %d of its %d points (a LargestComponent policy?)", ErrDisconnected, r, s.M)
	}
	_, q := Xs.Dims()
	X := mat.NewDense(n, q, nil)
	in := make([]bool, n)
	for r, i := range sub {
		in[i] = true
		X.SetRow(i, Xs.RawRowView(r))
	}
	var rest []int
	for i := 0; i < n; i++ {
		if !in[i] {
			rest = append(rest, i)
		}
	}
	if len(rest) > 0 {
		Yr := selectRows(Y, rest)
		var D mat.Dense
		linalg.SquaredDistances(&D, Yr, Ys)
		reg := s.Reg
		switch {
		case reg == 0:
			reg = 1e-3
		case reg < 0:
			reg = 0
		}
		parallel.For(len(rest), 16, func(lo, hi int) {
			ws := newLLEWork(k, p)
			w := make([]float64, k)
			for a := lo; a < hi; a++ {
				idx, d2 := nearestOf(D.RawRowView(a), k, 0)
				exactSquared(d2, Yr.RawRowView(a), Ys, idx)
				row := X.RawRowView(rest[a])
				if d2[0] == 0 {
					// A duplicate of a subsample point sits on it.
					copy(row, Xs.RawRowView(idx[0]))
					continue
				}
				ws.weights(w, Yr.RawRowView(a), Ys, idx, reg)
				for t, j := range idx {
					xj := Xs.RawRowView(j)
					for c := range row {
						row[c] += w[t] * xj[c]
					}
				}
			}
		})
	}
	s.sub, s.x = sub, X
	return err
}

// LatentTo stores the embedding X (n×q): the method's embedding on the
// subsample's rows, the reconstruction placement on the others.
func (s *Subsample) LatentTo(dst *mat.Dense) {
	if s.x == nil {
		panic("dimred: Subsample used before Fit")
	}
	r, c := s.x.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(s.x)
}

// Subset returns the rows of Y the method was fitted to, ascending.
func (s *Subsample) Subset() []int {
	if s.x == nil {
		panic("dimred: Subsample used before Fit")
	}
	return append([]int(nil), s.sub...)
}
