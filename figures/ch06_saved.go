package figures

// The author's saved fits behind Figs 6.8 and 6.10 (lawrennd/dimred,
// matlab/demOilDnet1–5.mat, read by datasets.OilDnetSaved): the GTM's 20
// random RBF centres of Fig 6.10 and the two density networks of Fig 6.8.
// With them the book's printed counts are reproduced number for number:
// our GTM's EM, run on the oil training data from the author's centres,
// reaches the saved weights and the caption's 74, 44 and 11 errors, and
// the saved density networks, evaluated, give the caption's 22 and 16.

import (
	"fmt"
	"math"
	"sort"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// SavedLatentMeans evaluates a saved model on Y (n×p): the posterior
// probabilities of its M latent points,
//
//	r_ik ∝ exp(−β/2 ‖y_i − f(x_k)‖²),
//
// (computed in log space) and the posterior means x_i = Σ_k r_ik x_k
// (n×q), the positions the toolbox's dnetEstep returns and its
// lvmNearestNeighbour counts errors on.
func SavedLatentMeans(s *datasets.SavedDnet, Y mat.Matrix) *mat.Dense {
	n, p := Y.Dims()
	M, q := s.Xu.Dims()
	var F mat.Dense
	s.MapTo(&F, s.Xu)
	if _, pp := F.Dims(); pp != p {
		panic(mat.ErrShape)
	}
	X := mat.NewDense(n, q, nil)
	lr := make([]float64, M)
	y := make([]float64, p)
	for i := 0; i < n; i++ {
		mat.Row(y, i, Y)
		for k := 0; k < M; k++ {
			var d2 float64
			for j, f := range F.RawRowView(k) {
				d2 += (y[j] - f) * (y[j] - f)
			}
			lr[k] = -0.5 * s.Beta * d2
		}
		lse := floats.LogSumExp(lr)
		for k := 0; k < M; k++ {
			r := math.Exp(lr[k] - lse)
			for l := 0; l < q; l++ {
				X.Set(i, l, X.At(i, l)+r*s.Xu.At(k, l))
			}
		}
	}
	return X
}

// authorInitLatent returns the toolbox's initial latent positions for the
// GTM (ppcaEmbed: the data projected on the two leading eigenvectors of
// their covariance, each divided by the root of its eigenvalue, so each
// column has unit variance with the n − 1 normaliser), with each axis's
// sign chosen so that the grid 1.2 × [min, max] of the columns is the
// saved grid X_u. It returns an error if no choice of signs gives the
// saved grid to 1e-9.
func authorInitLatent(Y mat.Matrix, s *datasets.SavedDnet) (*mat.Dense, error) {
	pca := &dimred.PCA{Q: 2}
	if err := pca.Fit(Y); err != nil {
		return nil, err
	}
	X := new(mat.Dense)
	pca.LatentTo(X)
	n, q := X.Dims()
	for l := 0; l < q; l++ {
		col := mat.Col(nil, l, X)
		mu := floats.Sum(col) / float64(n)
		var ss float64
		for _, v := range col {
			ss += (v - mu) * (v - mu)
		}
		sd := math.Sqrt(ss / float64(n-1))
		lo, hi := floats.Min(mat.Col(nil, l, s.Xu)), floats.Max(mat.Col(nil, l, s.Xu))
		cmin, cmax := 1.2*(floats.Min(col)-mu)/sd, 1.2*(floats.Max(col)-mu)/sd
		sign := 1.0
		switch {
		case math.Abs(cmin-lo) <= 1e-9*math.Abs(lo) && math.Abs(cmax-hi) <= 1e-9*math.Abs(hi):
		case math.Abs(-cmax-lo) <= 1e-9*math.Abs(lo) && math.Abs(-cmin-hi) <= 1e-9*math.Abs(hi):
			sign = -1
		default:
			return nil, fmt.Errorf("%s: latent axis %d: saved grid spans [%v, %v], the whitened principal axis 1.2 × [%v, %v]", s.Name, l+1, lo, hi, cmin, cmax)
		}
		for i := range col {
			col[i] = sign * (col[i] - mu) / sd
		}
		X.SetCol(l, col)
	}
	return X, nil
}

// SavedGTMRefit fits our GTM to Y (the oil training data) from the
// author's saved GTM s (experiments 1–3): its g×g grid, its random RBF
// centres and widths, α, and his initial latent positions; then EM runs
// as our dimred.GTM does. It checks that our grid is the saved one.
func SavedGTMRefit(s *datasets.SavedDnet, Y mat.Matrix, monitor func(int, float64) bool) (*dimred.GTM, error) {
	if s.Mapping != "rbf" || len(s.Grid) != 2 || s.Grid[0] != s.Grid[1] {
		return nil, fmt.Errorf("%s is not a square-grid GTM (%s, grid %v)", s.Name, s.Mapping, s.Grid)
	}
	for _, w := range s.Widths {
		if w != s.Widths[0] {
			return nil, fmt.Errorf("%s: RBF widths differ (%v); our GTM has one width", s.Name, s.Widths)
		}
	}
	X0, err := authorInitLatent(Y, s)
	if err != nil {
		return nil, err
	}
	m := &dimred.GTM{Q: 2, Grid: s.Grid[0], Centres: s.Centres, Width: s.Widths[0], Alpha: s.Alpha, InitLatent: X0, Monitor: monitor}
	if err := m.Fit(Y); err != nil {
		return nil, err
	}
	var G mat.Dense
	m.GridTo(&G)
	if d := gridDistance(&G, s.Xu); d > 1e-9 {
		return nil, fmt.Errorf("%s: our grid differs from the saved one by %v", s.Name, d)
	}
	return m, nil
}

// gridDistance is the largest distance between the rows of A and B (m×q
// each) after sorting both lexicographically, or +Inf if their shapes
// differ.
func gridDistance(A, B *mat.Dense) float64 {
	ra, ca := A.Dims()
	rb, cb := B.Dims()
	if ra != rb || ca != cb {
		return math.Inf(1)
	}
	rows := func(X *mat.Dense) [][]float64 {
		var out [][]float64
		for i := 0; i < ra; i++ {
			out = append(out, X.RawRowView(i))
		}
		sort.Slice(out, func(i, j int) bool {
			for l := range out[i] {
				if d := out[i][l] - out[j][l]; math.Abs(d) > 1e-6 {
					return d < 0
				}
			}
			return false
		})
		return out
	}
	a, b := rows(A), rows(B)
	var worst float64
	for i := range a {
		worst = math.Max(worst, floats.Distance(a[i], b[i], math.Inf(1)))
	}
	return worst
}
