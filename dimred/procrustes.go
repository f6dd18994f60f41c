package dimred

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/linalg"

	"github.com/dimredbook/book/dimred/internal/errs"

	"gonum.org/v1/gonum/floats"
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
// shape and returns an error wrapping ErrTooFewPoints for n = 0, ErrNaN for
// a non-finite entry, ErrSingular when X̂ is zero and a scale is asked for,
// and ErrOverflow when a result of finite input is beyond float64.
//
// X̂ and Ŷ are divided by their Frobenius norms before X̂ᵀŶ is formed (the
// SVD's U, V are unchanged and s = (‖Ŷ‖/‖X̂‖) tr(Σ̃ …)), so neither tiny
// (~1e-300) nor huge (~1e300) configurations underflow or overflow there.
func Procrustes(X, Y mat.Matrix, opts *ProcrustesOptions) (*ProcrustesResult, error) {
	if opts == nil {
		opts = &ProcrustesOptions{}
	}
	n, q := X.Dims()
	if yn, yq := Y.Dims(); yn != n || yq != q {
		panic(mat.ErrShape)
	}
	if n == 0 {
		return nil, fmt.Errorf("%w: Procrustes needs at least one point, have 0", ErrTooFewPoints)
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
	if err := errs.CheckOverflow(&xc, "Procrustes centred X"); err != nil {
		return nil, err
	}
	if err := errs.CheckOverflow(&yc, "Procrustes centred Y"); err != nil {
		return nil, err
	}
	// ‖X̂‖_F and ‖Ŷ‖_F (gonum computes them with scaling, so they are
	// finite here whenever the entries are).
	nx, ny := mat.Norm(&xc, 2), mat.Norm(&yc, 2)
	if opts.Scale && nx == 0 {
		return nil, fmt.Errorf("%w: Procrustes with scaling: X has zero spread", ErrSingular)
	}
	xs, ys := unitScale(&xc, nx), unitScale(&yc, ny)
	var M mat.Dense
	M.Mul(xs.T(), ys) // X̃ᵀỸ, entries ≤ 1 in magnitude
	if err := errs.CheckOverflow(&M, "Procrustes XᵀY"); err != nil {
		return nil, err // unreachable for finite normalised input; never hand gonum's SVD an Inf
	}
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
	trace := 0.0 // tr(Σ̃ diag(…)) of the normalised problem
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
		// s = tr(Σ diag(…)) / ‖X̂‖² with Σ = ‖X̂‖‖Ŷ‖ Σ̃.
		s = ny / nx * trace
		if math.IsInf(s, 0) || math.IsNaN(s) {
			return nil, errs.Overflowf("Procrustes scale s = ‖Ŷ‖/‖X̂‖ · %g = %v", trace, s)
		}
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
	d := make([]float64, 0, n*q)
	for i := 0; i < n; i++ {
		for j := 0; j < q; j++ {
			v := s*A.At(i, j) + t[j]
			A.Set(i, j, v)
			d = append(d, v-Y.At(i, j))
		}
	}
	if err := errs.CheckOverflow(A, "Procrustes aligned configuration"); err != nil {
		return nil, err
	}
	for _, v := range t {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, errs.Overflowf("Procrustes translation t = %v", t)
		}
	}
	// RMS = ‖d‖₂/√n with a scaled norm, finite whenever the result is.
	rms := floats.Norm(d, 2) / math.Sqrt(float64(n))
	if math.IsInf(rms, 0) || math.IsNaN(rms) {
		return nil, errs.Overflowf("Procrustes residual RMS = %v", rms)
	}
	return &ProcrustesResult{R: R, Scale: s, T: t, Aligned: A, RMS: rms}, nil
}

// unitScale returns a/nrm (a itself when nrm is 0), dividing entry by entry
// (1/nrm overflows for a subnormal nrm).
func unitScale(a *mat.Dense, nrm float64) *mat.Dense {
	if nrm == 0 {
		return a
	}
	r, c := a.Dims()
	b := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j, v := range a.RawRowView(i) {
			b.Set(i, j, v/nrm)
		}
	}
	return b
}
