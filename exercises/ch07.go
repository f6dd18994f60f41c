package exercises

import (
	"math"
	"sort"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred/linalg"
	"gonum.org/v1/gonum/mat"
)

// Chapter 7 — the GP-LVM.

func init() {
	// 7.1: the scales l_k = (λ_k/p − σ²)^{1/2}, k = 1, 2, of dual
	// probabilistic PCA's maximum-likelihood latent points X = U_q L Rᵀ
	// (Lawrence 2005, §3; the book's §7.1) for the oil training data:
	// λ_k the eigenvalues of ŶŶᵀ (Ŷ the centred data, n = 1000, p = 12)
	// and σ² the discarded eigenvalues summed and divided by p(n − q).
	Register("7.1", Answer{
		Want: func() (any, error) {
			ds, err := datasets.Oil("train")
			if err != nil {
				return nil, err
			}
			return dualPPCAScales(ds.Y, 2), nil
		},
		Tol:  1e-8,
		Hint: "λ_k are eigenvalues of ŶŶᵀ (not of the covariance ŶᵀŶ/n); σ² averages the discarded ones over n − q directions, most of them zero",
	})
}

// dualPPCAScales returns l_1 … l_q of dual PPCA for the data Y (n×p): the
// nonzero eigenvalues of ŶŶᵀ are those of ŶᵀŶ (p×p, cheaper).
func dualPPCAScales(Y mat.Matrix, q int) []float64 {
	n, p := Y.Dims()
	var Yc mat.Dense
	linalg.CentreColumns(&Yc, Y)
	var S mat.SymDense
	S.SymOuterK(1, Yc.T())
	var es mat.EigenSym
	es.Factorize(&S, false)
	vals := es.Values(nil)
	sort.Sort(sort.Reverse(sort.Float64Slice(vals)))
	rest := 0.0
	for _, v := range vals[q:] {
		rest += v
	}
	s2 := rest / float64(p*(n-q))
	l := make([]float64, q)
	for k := range l {
		l[k] = math.Sqrt(vals[k]/float64(p) - s2)
	}
	return l
}
