package dimred

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// SVDMethod selects the algorithm of TruncatedSVD.
type SVDMethod int

const (
	// SVDAuto chooses by shape and k.
	SVDAuto SVDMethod = iota
	// SVDExact computes exact leading singular triplets.
	SVDExact
	// SVDRandomized uses the randomized range finder of Halko, Martinsson
	// and Tropp (2011) with power iterations.
	SVDRandomized
)

// SVDSettings tunes TruncatedSVD; nil or the zero value selects defaults.
type SVDSettings struct {
	Method     SVDMethod
	Oversample int         // extra random directions for SVDRandomized; 0 means 10
	PowerIters int         // power iterations for SVDRandomized; 0 means a default
	Src        rand.Source // nil means a fixed seed
}

// TruncatedSVD returns the k largest singular values s (descending) of the
// m×n matrix a and the corresponding left and right singular vectors, U
// (m×k) and V (n×k), so that a ≈ U diag(s) Vᵀ. Each column of V has its
// entry of largest magnitude positive. 1 ≤ k ≤ min(m, n), else it panics.
func TruncatedSVD(a mat.Matrix, k int, s *SVDSettings) (sv []float64, u, v *mat.Dense, err error) {
	m, n := a.Dims()
	if k < 1 || k > min(m, n) {
		panic(fmt.Sprintf("dimred: TruncatedSVD k = %d outside [1, %d]", k, min(m, n)))
	}
	if err := checkFinite(a, "A"); err != nil {
		return nil, nil, nil, err
	}
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThin) {
		return nil, nil, nil, fmt.Errorf("%w: dense SVD failed", ErrNotConverged)
	}
	all := svd.Values(nil)
	var uu, vv mat.Dense
	svd.UTo(&uu)
	svd.VTo(&vv)
	u = mat.DenseCopyOf(uu.Slice(0, m, 0, k))
	v = mat.DenseCopyOf(vv.Slice(0, n, 0, k))
	signPairs(u, v)
	return all[:k], u, v, nil
}

// signPairs applies the sign convention to V and flips the matching
// columns of U, keeping U diag(s) Vᵀ unchanged.
func signPairs(u, v *mat.Dense) {
	before := mat.DenseCopyOf(v)
	fixSigns(v)
	r, c := v.Dims()
	ru, _ := u.Dims()
	for j := 0; j < c; j++ {
		if r > 0 && before.At(0, j) != v.At(0, j) || (r > 0 && before.At(0, j) == 0 && flipped(before, v, j)) {
			for i := 0; i < ru; i++ {
				u.Set(i, j, -u.At(i, j))
			}
		}
	}
}

func flipped(a, b *mat.Dense, j int) bool {
	r, _ := a.Dims()
	for i := 0; i < r; i++ {
		if a.At(i, j) != 0 {
			return a.At(i, j) != b.At(i, j)
		}
	}
	return false
}
