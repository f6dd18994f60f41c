package dimred

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// Rank-based quality of an embedding (Lee & Verleysen 2009, "Quality
// assessment of dimensionality reduction: rank-based criteria"). With
// ρ_ij the rank of y_j among the neighbours of y_i by distance in the data
// space (1 = nearest; the point itself excluded) and r_ij the rank of x_j
// around x_i in the embedding, the co-ranking matrix is
//
//	Q_kl = #{(i, j) : ρ_ij = k, r_ij = l},   k, l = 1 … n−1,
//
// and the agreement of K-neighbourhoods is its upper-left K×K block:
//
//	Q_NX(K) = (K n)⁻¹ Σ_{k≤K} Σ_{l≤K} Q_kl            ∈ [0, 1],
//	LCMC(K) = Q_NX(K) − K/(n−1)                      (Chen & Buja 2009),
//	R_NX(K) = ((n−1) Q_NX(K) − K) / (n−1−K)          (Lee et al. 2013),
//
// Q_NX(K) being the average fraction of each point's K nearest neighbours
// that stay among its K nearest, LCMC subtracting the K/(n−1) a random
// embedding scores, and R_NX rescaling so that random = 0, perfect = 1.
// Ties in distance are broken by index.

// CoRankingMatrix returns the (n−1)×(n−1) co-ranking matrix Q of the data
// Y (n×p) and the embedding X (n×q): Q[k−1][l−1] = Q_kl. It costs
// O(n² log n) time (a sort of each point's distances in both spaces, in
// parallel over points) and O(n²) memory; use NeighbourhoodCurves when
// only the curves are wanted. It panics if Y and X differ in rows or n < 3,
// and returns an error wrapping ErrNaN for a non-finite entry.
func CoRankingMatrix(Y, X mat.Matrix) (*mat.Dense, error) {
	n, err := checkCoRanking(Y, X)
	if err != nil {
		return nil, err
	}
	bounds := parallel.ChunkBounds(n, 16)
	counts := make([][]int32, len(bounds)-1)
	Yd, Xd := rowsOf(Y), rowsOf(X)
	parallel.RunChunks(bounds, func(t, lo, hi int) {
		c := make([]int32, (n-1)*(n-1))
		rk := newRanker(n)
		for i := lo; i < hi; i++ {
			rho, r := rk.ranks(Yd, Xd, i)
			for j := 0; j < n; j++ {
				if j != i {
					c[(rho[j]-1)*(n-1)+r[j]-1]++
				}
			}
		}
		counts[t] = c
	})
	Q := mat.NewDense(n-1, n-1, nil)
	raw := Q.RawMatrix().Data
	for _, c := range counts {
		for t, v := range c {
			raw[t] += float64(v)
		}
	}
	return Q, nil
}

// NeighbourhoodCurve holds Q_NX, LCMC and R_NX for K = 1 … MaxK (index
// K−1).
type NeighbourhoodCurve struct {
	N    int
	QNX  []float64
	LCMC []float64
	RNX  []float64 // for K ≤ n−2
}

// NeighbourhoodCurves returns Q_NX(K), LCMC(K) and R_NX(K) for K = 1 …
// maxK without forming the co-ranking matrix: a pair (i, j) counts towards
// Q_NX(K) for every K ≥ max(ρ_ij, r_ij), so one histogram of max(ρ, r) and
// its cumulative sum give the whole curve in O(n² log n) time and O(n)
// memory per core.
//
// maxK follows the neighbour-count rule of the package: 0 means n−2, the
// largest K at which R_NX is defined (its denominator is n−1−K); a
// negative maxK panics; maxK ≥ n−1 is an error wrapping ErrTooFewPoints
// (the data have too few points for it). Otherwise it panics and errors
// as CoRankingMatrix.
func NeighbourhoodCurves(Y, X mat.Matrix, maxK int) (*NeighbourhoodCurve, error) {
	if maxK < 0 {
		panic(fmt.Sprintf("dimred: NeighbourhoodCurves maxK = %d must not be negative (0 means n−2)", maxK))
	}
	n, err := checkCoRanking(Y, X)
	if err != nil {
		return nil, err
	}
	if maxK == 0 {
		maxK = n - 2
	}
	if maxK > n-2 {
		return nil, fmt.Errorf("%w: NeighbourhoodCurves with maxK = %d needs n ≥ maxK + 2 = %d points, have %d", ErrTooFewPoints, maxK, maxK+2, n)
	}
	bounds := parallel.ChunkBounds(n, 16)
	hists := make([][]int64, len(bounds)-1)
	Yd, Xd := rowsOf(Y), rowsOf(X)
	parallel.RunChunks(bounds, func(t, lo, hi int) {
		h := make([]int64, n)
		rk := newRanker(n)
		for i := lo; i < hi; i++ {
			rho, r := rk.ranks(Yd, Xd, i)
			for j := 0; j < n; j++ {
				if j != i {
					h[max(rho[j], r[j])]++
				}
			}
		}
		hists[t] = h
	})
	c := &NeighbourhoodCurve{N: n, QNX: make([]float64, maxK), LCMC: make([]float64, maxK), RNX: make([]float64, maxK)}
	var cum int64
	for K := 1; K <= maxK; K++ {
		for _, h := range hists {
			cum += h[K]
		}
		q := float64(cum) / float64(K*n)
		c.QNX[K-1] = q
		c.LCMC[K-1] = q - float64(K)/float64(n-1)
		c.RNX[K-1] = (float64(n-1)*q - float64(K)) / float64(n-1-K)
	}
	return c, nil
}

// AUC returns the area under R_NX(K) on a logarithmic K axis,
// Σ_K R_NX(K)/K / Σ_K 1/K (Lee, Peluffo-Ordóñez & Verleysen 2015), a
// one-number summary weighting small neighbourhoods most: 1 for a
// perfect embedding, about 0 for a random one.
func (c *NeighbourhoodCurve) AUC() float64 {
	num, den := 0.0, 0.0
	for i, v := range c.RNX {
		K := float64(i + 1)
		num += v / K
		den += 1 / K
	}
	return num / den
}

func checkCoRanking(Y, X mat.Matrix) (int, error) {
	n, _ := Y.Dims()
	if m, _ := X.Dims(); m != n {
		panic(mat.ErrShape)
	}
	if n < 3 {
		panic(fmt.Sprintf("dimred: co-ranking needs n ≥ 3 points, have %d", n))
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return 0, err
	}
	if err := errs.CheckFinite(X, "X"); err != nil {
		return 0, err
	}
	return n, nil
}

// rowData is a dense copy of the points.
type rowData struct{ m *mat.Dense }

func rowsOf(Y mat.Matrix) rowData { return rowData{rankScaled(mat.DenseCopyOf(Y))} }

// ranker computes the neighbour ranks of one point in both spaces.
type ranker struct {
	n      int
	dy, dx []float64
	idx    []distIndex
	rho, r []int
}

// distIndex is a distance with its point, sorted by distance then index.
type distIndex struct {
	d float64
	j int
}

func newRanker(n int) *ranker {
	return &ranker{n: n, dy: make([]float64, n), dx: make([]float64, n), idx: make([]distIndex, 0, n), rho: make([]int, n), r: make([]int, n)}
}

// ranks returns ρ_i· and r_i· (1-based; entry i unused).
func (rk *ranker) ranks(Y, X rowData, i int) (rho, r []int) {
	sqDistRow(rk.dy, Y, i)
	sqDistRow(rk.dx, X, i)
	rankInto(rk.rho, rk.idx, rk.dy, i)
	rankInto(rk.r, rk.idx, rk.dx, i)
	return rk.rho, rk.r
}

// sqDistRow sets d[j] = ‖y_i − y_j‖², computed directly (not by the norm
// expansion, whose cancellation would scramble ranks of close points).
func sqDistRow(d []float64, Y rowData, i int) {
	yi := Y.m.RawRowView(i)
	for j := range d {
		yj := Y.m.RawRowView(j)
		s := 0.0
		for c, v := range yi {
			e := v - yj[c]
			s += e * e
		}
		d[j] = s
	}
}

// rankInto sets rank[j] = 1 + #{points nearer to i than j} (ties by
// index), skipping i itself.
func rankInto(rank []int, idx []distIndex, d []float64, i int) {
	idx = idx[:0]
	for j, v := range d {
		if j != i {
			idx = append(idx, distIndex{v, j})
		}
	}
	slices.SortFunc(idx, func(a, b distIndex) int {
		if c := cmp.Compare(a.d, b.d); c != 0 {
			return c
		}
		return cmp.Compare(a.j, b.j)
	})
	for p, e := range idx {
		rank[e.j] = p + 1
	}
}
