package dimred

import (
	"context"
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/rng"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// landmarkMDS is the core of landmark MDS and landmark Isomap (de Silva &
// Tenenbaum 2004, "Sparse multidimensional scaling using landmark
// points"): classical MDS of the m landmarks from delta (m×m; squared
// distances, plain ones when mds.Plain), then every point placed from
// toLand (n×m, its distances to the landmarks, same kind) by the
// add-a-point formula
//
//	x_a = −½ Λ_q^{-1/2} U_qᵀ (δ_a − δ̄),
//
// δ̄ the landmarks' mean squared distances: the Nyström extension of the
// landmark eigenvectors. X (n×q) receives the placements. The cost is the
// m×m eigenproblem plus one n×m by m×q product, so n can far exceed what
// an n×n matrix allows.
func landmarkMDS(ctx context.Context, mds *ClassicalMDS, delta mat.Symmetric, toLand mat.Matrix, X *mat.Dense) error {
	if err := mds.FitDistancesContext(ctx, delta); err != nil {
		return err
	}
	mds.ProjectDistancesTo(X, toLand)
	return nil
}

// fitLandmarks is Fit with Landmarks = m < n: the landmark rows' squared
// distances among themselves (m×m) and from every row (n×m), landmarkMDS,
// and the landmarks kept for ProjectTo. Y is the data divided by 2^yex
// (see ClassicalMDS.ex); the inner fit chooses its own working scale for
// the landmarks' distances.
func (m *ClassicalMDS) fitLandmarks(ctx context.Context, Y mat.Matrix, yex int) error {
	n, p := Y.Dims()
	k := m.Landmarks
	if k <= m.Q {
		panic(fmt.Sprintf("dimred: ClassicalMDS Landmarks = %d must exceed q = %d", k, m.Q))
	}
	land := rng.New(m.Src).Perm(n)[:k]
	L := mat.NewDense(k, p, nil)
	for a, i := range land {
		L.SetRow(a, mat.Row(nil, i, Y))
	}
	delta := mat.NewSymDense(k, nil)
	linalg.PairwiseSquaredDistances(delta, L)
	if err := errs.CheckOverflow(delta, "ClassicalMDS landmark squared distances"); err != nil {
		return err
	}
	var toLand mat.Dense
	linalg.SquaredDistances(&toLand, Y, L)
	if err := errs.CheckOverflow(&toLand, "ClassicalMDS squared distances to the landmarks"); err != nil {
		return err
	}
	// The landmark fit works on squared distances whatever Plain says (Fit
	// forms squared Euclidean distances itself).
	inner := &ClassicalMDS{Q: m.Q, P: m.P, FullSpectrum: m.FullSpectrum, Eigen: m.Eigen}
	X := mat.NewDense(n, m.Q, nil)
	if err := landmarkMDS(ctx, inner, delta, &toLand, X); err != nil {
		return errs.Wrap(err, "landmark MDS")
	}
	ex := inner.ex + yex
	if err := checkEigenvalueRange(inner.vals, ex); err != nil {
		return errs.Wrap(err, "landmark MDS")
	}
	if yex != 0 {
		X.Apply(func(_, _ int, v float64) float64 { return math.Ldexp(v, yex) }, X)
	}
	m.vals, m.all, m.u, m.r, m.ex = inner.vals, inner.all, inner.u, inner.r, ex
	m.x, m.y, m.yex, m.land = X, L, yex, land
	return nil
}

// LandmarkIndices returns the rows of Y used as landmarks by the last Fit
// (nil without landmarks).
func (m *ClassicalMDS) LandmarkIndices() []int { m.mustFit(); return append([]int(nil), m.land...) }
