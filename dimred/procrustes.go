package dimred

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/linalg"

	"github.com/dimredbook/book/dimred/internal/errs"

	"gonum.org/v1/gonum/mat"
)

// ProcrustesOptions selects the transformations Procrustes may use. The
// zero value allows rotations and reflections, with no scaling.
type ProcrustesOptions struct {
	// NoReflection restricts R to proper rotations (det R = +1). By
	// default reflections are allowed, which an MDS or PCA configuration
	// needs: its handedness is arbitrary.
	NoReflection bool
	// Scale fits the least-squares scale s; otherwise s = 1.
	Scale bool
}

// ProcrustesResult is the alignment s X R + 1 tᵀ ≈ Y found by Procrustes.
type ProcrustesResult struct {
	R       *mat.Dense // q×q orthogonal
	Scale   float64    // s
	T       []float64  // t, length q (a row translation)
	Aligned *mat.Dense // s X R + 1 tᵀ, n×q
	// RMS is the root mean squared distance between aligned and target
	// points, √(‖sXR + 1tᵀ − Y‖²_F / n).
	RMS float64
}

// Procrustes aligns the configuration X onto the target Y (both n×q, rows
// are points) by orthogonal Procrustes analysis: it minimises
//
//	‖ s X R + 1 tᵀ − Y ‖²_F
//
// over orthogonal R (q×q), translations t and, with opts.Scale, the scale
// s > 0. With X̂, Ŷ the column-centred configurations and X̂ᵀŶ = U Σ Vᵀ,
//
//	R = U Vᵀ    (U diag(1, …, 1, det UVᵀ) Vᵀ with NoReflection),
//	s = tr(Σ diag(…)) / ‖X̂‖²_F,   t = ȳ − s x̄ R
//
// (Schönemann 1966; Gower & Dijksterhuis 2004). The book's road-map script
// instead rescaled X so that std(X̃) = std(Y); the least-squares s is used
// here. A nil opts means the zero value. It panics if X and Y differ in
// shape and returns an error wrapping ErrNaN for a non-finite entry, or
// ErrSingular when X̂ is zero and a scale is asked for.
func Procrustes(X, Y mat.Matrix, opts *ProcrustesOptions) (*ProcrustesResult, error) {
	if opts == nil {
		opts = &ProcrustesOptions{}
	}
	n, q := X.Dims()
	if yn, yq := Y.Dims(); yn != n || yq != q {
		panic(mat.ErrShape)
	}
	if err := errs.CheckFinite(X, "X"); err != nil {
		return nil, err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return nil, err
	}
	var xc, yc mat.Dense
	xm := linalg.CentreColumns(&xc, X)
	ym := linalg.CentreColumns(&yc, Y)
	var M mat.Dense
	M.Mul(xc.T(), &yc)
	var svd mat.SVD
	if !svd.Factorize(&M, mat.SVDFull) {
		return nil, fmt.Errorf("%w: Procrustes SVD of XᵀY failed", ErrNotConverged)
	}
	var U, V mat.Dense
	svd.UTo(&U)
	svd.VTo(&V)
	sv := svd.Values(nil)
	R := mat.NewDense(q, q, nil)
	R.Mul(&U, V.T())
	trace := 0.0
	for _, v := range sv {
		trace += v
	}
	if opts.NoReflection && mat.Det(R) < 0 {
		// Flip the direction of the smallest singular value.
		c := mat.NewDense(q, q, nil)
		c.Copy(&V)
		for i := 0; i < q; i++ {
			c.Set(i, q-1, -c.At(i, q-1))
		}
		R.Mul(&U, c.T())
		trace -= 2 * sv[q-1]
	}
	s := 1.0
	if opts.Scale {
		nx := mat.Norm(&xc, 2)
		if nx == 0 {
			return nil, fmt.Errorf("%w: Procrustes with scaling: X has zero spread", ErrSingular)
		}
		s = trace / (nx * nx)
	}
	// t = ȳ − s x̄ R
	t := make([]float64, q)
	for j := 0; j < q; j++ {
		v := 0.0
		for k := 0; k < q; k++ {
			v += xm[k] * R.At(k, j)
		}
		t[j] = ym[j] - s*v
	}
	A := mat.NewDense(n, q, nil)
	A.Mul(X, R)
	ss := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < q; j++ {
			v := s*A.At(i, j) + t[j]
			A.Set(i, j, v)
			d := v - Y.At(i, j)
			ss += d * d
		}
	}
	return &ProcrustesResult{R: R, Scale: s, T: t, Aligned: A, RMS: math.Sqrt(ss / float64(n))}, nil
}
