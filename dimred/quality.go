package dimred

import (
	"math"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// NearestNeighbourErrors returns the number of points whose nearest
// neighbour (Euclidean, leaving the point itself out) in X (n×q, rows are
// points) carries a different label: the leave-one-out 1-NN classification
// error in latent space, the companion code's lvmNearestNeighbour. Ties go
// to the lowest index. It panics if len(labels) ≠ n, n < 2 or X holds a
// NaN or Inf (the count would be meaningless; the signature, shared by
// every chapter, has no error to return).
func NearestNeighbourErrors(X mat.Matrix, labels []int) int {
	n, q := X.Dims()
	if len(labels) != n {
		panic(mat.ErrShape)
	}
	if n < 2 {
		panic("dimred: NearestNeighbourErrors needs at least two points")
	}
	if err := errs.CheckFinite(X, "X"); err != nil {
		panic(errs.Wrap(err, "NearestNeighbourErrors").Error())
	}
	x := rankScaled(X)
	errs := 0
	for i := 0; i < n; i++ {
		xi := x.RawRowView(i)
		best, bj := math.Inf(1), -1
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			xj := x.RawRowView(j)
			var d float64
			for a := 0; a < q; a++ {
				t := xi[a] - xj[a]
				d += t * t
			}
			if d < best {
				best, bj = d, j
			}
		}
		if bj >= 0 && labels[bj] != labels[i] {
			errs++
		}
	}
	return errs
}

// Trustworthiness returns the trustworthiness T(k) of the embedding X
// (n×q) of the data Y (n×p) (Venna & Kaski 2001):
//
//	T(k) = 1 − 2/(n k (2n − 3k − 1)) Σᵢ Σ_{j∈U_k(i)} (r(i, j) − k),
//
// where U_k(i) are the points among i's k nearest neighbours in X but not
// in Y, and r(i, j) is j's rank among i's neighbours in Y (1 = nearest).
// T = 1 when no point is brought close that was far. It panics unless Y
// and X have the same number of rows n and 1 ≤ k < n/2; it returns an error
// wrapping ErrNaN for a non-finite entry.
func Trustworthiness(Y, X mat.Matrix, k int) (float64, error) {
	return neighbourhoodPreservation(Y, X, k, "Y", "X")
}

// Continuity returns the continuity C(k) of the embedding X of Y (Venna &
// Kaski 2001): Trustworthiness with the roles of the spaces exchanged, so
// it penalises points that were neighbours in Y but are not in X, by their
// rank in X.
func Continuity(Y, X mat.Matrix, k int) (float64, error) {
	return neighbourhoodPreservation(X, Y, k, "X", "Y")
}

// neighbourhoodPreservation computes T(k) with ranks in "ref" and
// neighbourhoods in "emb"; refName and embName are the caller's names for
// them, used in errors.
func neighbourhoodPreservation(ref, emb mat.Matrix, k int, refName, embName string) (float64, error) {
	r, e, err := checkPreservation(ref, emb, k, refName, embName)
	if err != nil {
		return 0, err
	}
	n, _ := r.Dims()
	// Rows in blocks, in parallel: each block's squared distances in both
	// spaces (one matrix product per space when p is large), then per row
	// the k nearest in emb by partial selection and the ranks in ref of
	// those not among ref's own k nearest, each by one counting pass:
	// O(n²p) distances and O(n·k) selection work per row, no sorting.
	sqR, sqE := linalg.RowSquaredNorms(r), linalg.RowSquaredNorms(e)
	const block = 64
	nb := (n + block - 1) / block
	sums := make([]float64, nb)
	parallel.For(nb, 1, func(lo, hi int) {
		dr := make([]float64, block*n)
		de := make([]float64, block*n)
		embNear := make([]nbItem, 0, k)
		refNear := make([]nbItem, 0, k)
		for b := lo; b < hi; b++ {
			r0, r1 := b*block, min(n, (b+1)*block)
			blockSquaredDistances(dr, r, sqR, r0, r1)
			blockSquaredDistances(de, e, sqE, r0, r1)
			var sum float64
			for i := r0; i < r1; i++ {
				rowR := dr[(i-r0)*n : (i-r0+1)*n]
				rowE := de[(i-r0)*n : (i-r0+1)*n]
				embNear = kSmallest(embNear[:0], rowE, i, k)
				refNear = kSmallest(refNear[:0], rowR, i, k)
				// A point is within ref's k nearest iff it is not after
				// the k-th, in (distance, index) order.
				kth := refNear[k-1]
				for _, c := range embNear {
					j := c.j
					if !kth.less(nbItem{rowR[j], j}) {
						continue // rank ≤ k: no penalty
					}
					// rank = 1 + #{l ≠ i : (d_l, l) < (d_j, j)}.
					dj, rank := rowR[j], 1
					for l, dl := range rowR {
						if l != i && (dl < dj || dl == dj && l < j) {
							rank++
						}
					}
					sum += float64(rank - k)
				}
			}
			sums[b] = sum
		}
	})
	var sum float64
	for _, s := range sums {
		sum += s
	}
	nf, kf := float64(n), float64(k)
	return 1 - 2/(nf*kf*(2*nf-3*kf-1))*sum, nil
}

// nbItem is a candidate neighbour: squared distance and index, ordered
// by distance with ties to the lower index.
type nbItem struct {
	d float64
	j int
}

func (a nbItem) less(b nbItem) bool { return a.d < b.d || a.d == b.d && a.j < b.j }

// kSmallest appends to dst (empty, capacity ≥ k) the k entries of row
// with the smallest (distance, index), leaving out entry i, sorted.
func kSmallest(dst []nbItem, row []float64, i, k int) []nbItem {
	for j, d := range row {
		if j == i {
			continue
		}
		c := nbItem{d, j}
		if len(dst) == k && !c.less(dst[k-1]) {
			continue
		}
		if len(dst) < k {
			dst = append(dst, c)
		} else {
			dst[k-1] = c
		}
		for m := len(dst) - 1; m > 0 && dst[m].less(dst[m-1]); m-- {
			dst[m], dst[m-1] = dst[m-1], dst[m]
		}
	}
	return dst
}

// blockSquaredDistances stores in dst (row-major, (r1−r0)×n) the squared
// distances from rows r0..r1−1 of x to every row. For p ≤ 16 they are
// summed directly (exact ties stay ties); above, one matrix product
// ‖x_i‖² + ‖x_j‖² − 2 x_iᵀx_j with negatives from round-off set to zero.
func blockSquaredDistances(dst []float64, x *mat.Dense, sq []float64, r0, r1 int) {
	n, p := x.Dims()
	if p <= 16 {
		for i := r0; i < r1; i++ {
			rowDistances(dst[(i-r0)*n:(i-r0+1)*n], x, i)
		}
		return
	}
	raw := x.RawMatrix()
	h := r1 - r0
	a := blas64.General{Rows: h, Cols: p, Stride: raw.Stride, Data: raw.Data[r0*raw.Stride:]}
	all := blas64.General{Rows: n, Cols: p, Stride: raw.Stride, Data: raw.Data}
	g := blas64.General{Rows: h, Cols: n, Stride: n, Data: dst[:h*n]}
	linalg.Gemm(blas.NoTrans, blas.Trans, -2, a, all, 0, g)
	for ii := 0; ii < h; ii++ {
		i := r0 + ii
		row := dst[ii*n : (ii+1)*n]
		for j := range row {
			d := row[j] + sq[i] + sq[j]
			if d < 0 || j == i {
				d = 0
			}
			row[j] = d
		}
	}
}

func rowDistances(dst []float64, x *mat.Dense, i int) {
	n, _ := x.Dims()
	xi := x.RawRowView(i)
	for j := 0; j < n; j++ {
		xj := x.RawRowView(j)
		var d float64
		for a, v := range xi {
			t := v - xj[a]
			d += t * t
		}
		dst[j] = d
	}
}

// rankScaled returns M (n×p) as a *mat.Dense for the rank and
// nearest-neighbour measures, which depend only on the order of distances.
// When its largest |entry| lies beyond 2^±256 the squared distances would
// overflow to +Inf or underflow to 0, making every comparison a tie (an
// embedding scaled by 1e200 scored as if it were all zeros), so a copy
// scaled by a power of two — exact for normal numbers, and order-preserving
// — is returned. Ordinary data come back unscaled, so their results are
// unchanged to the bit.
func rankScaled(M mat.Matrix) *mat.Dense {
	d := dense.AsDense(M)
	e := maxExponent(d)
	if e >= -256 && e <= 256 {
		return d
	}
	return ldexpDense(d, -e)
}

// maxExponent returns e with max |d_ij| = f·2^e, ½ ≤ f < 1 (0 for an
// all-zero or empty d).
func maxExponent(d *mat.Dense) int {
	r, _ := d.Dims()
	mx := 0.0
	for i := 0; i < r; i++ {
		for _, v := range d.RawRowView(i) {
			mx = math.Max(mx, math.Abs(v))
		}
	}
	_, e := math.Frexp(mx)
	return e
}

// ldexpDense returns a new d·2^e, entry by entry (exact unless an entry
// leaves the normal range).
func ldexpDense(d *mat.Dense, e int) *mat.Dense {
	r, c := d.Dims()
	s := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		row := s.RawRowView(i)
		for j, v := range d.RawRowView(i) {
			row[j] = math.Ldexp(v, e)
		}
	}
	return s
}
