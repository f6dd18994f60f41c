package dimred

import (
	"fmt"
	"math"
	"sort"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"

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
	x := dense.AsDense(X)
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
	n, _ := ref.Dims()
	ne, _ := emb.Dims()
	if n != ne {
		panic(mat.ErrShape)
	}
	if k < 1 || 2*k >= n {
		panic(fmt.Sprintf("dimred: neighbourhood size k = %d outside [1, n/2) for n = %d", k, n))
	}
	if err := errs.CheckFinite(ref, refName); err != nil {
		return 0, err
	}
	if err := errs.CheckFinite(emb, embName); err != nil {
		return 0, err
	}
	r, e := dense.AsDense(ref), dense.AsDense(emb)
	dr := make([]float64, n)
	de := make([]float64, n)
	idx := make([]int, n)
	rank := make([]int, n)
	var sum float64
	for i := 0; i < n; i++ {
		rowDistances(dr, r, i)
		rowDistances(de, e, i)
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return dr[idx[a]] < dr[idx[b]] })
		// idx[0] is i itself (distance 0, and ties are kept stable by
		// putting i first below).
		pos := 1
		for _, j := range idx {
			if j == i {
				continue
			}
			rank[j] = pos
			pos++
		}
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return de[idx[a]] < de[idx[b]] })
		c := 0
		for _, j := range idx {
			if j == i {
				continue
			}
			if c == k {
				break
			}
			c++
			if rank[j] > k {
				sum += float64(rank[j] - k)
			}
		}
	}
	nf, kf := float64(n), float64(k)
	return 1 - 2/(nf*kf*(2*nf-3*kf-1))*sum, nil
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
