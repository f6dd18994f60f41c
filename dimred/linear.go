package dimred

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// The linear-Gaussian algebra shared by PCA and the latent-variable models
// (PPCA, FactorAnalysis, MixturePPCA, BayesianPCA): products with the
// centred data Ŷ = Y − 1μᵀ without forming it, the sample covariance
// S = n⁻¹ŶᵀŶ, the PPCA log-likelihood through M = WᵀW + σ²I (q×q), small
// symmetric inverses, and the fit checks these models share.

// centredMul sets dst = (Y − 1μᵀ) B without forming the centred matrix.
func centredMul(dst *mat.Dense, Y *mat.Dense, mu []float64, B mat.Matrix) {
	dst.Mul(Y, B)
	_, k := B.Dims()
	mb := make([]float64, k) // μᵀB
	for j := 0; j < k; j++ {
		var s float64
		for i, v := range mu {
			s += v * B.At(i, j)
		}
		mb[j] = s
	}
	r, _ := dst.Dims()
	for i := 0; i < r; i++ {
		row := dst.RawRowView(i)
		for j := range row {
			row[j] -= mb[j]
		}
	}
}

// centredTMul sets dst = (Y − 1μᵀ)ᵀ B = YᵀB − μ(1ᵀB).
func centredTMul(dst *mat.Dense, Y *mat.Dense, mu []float64, B *mat.Dense) {
	dst.Mul(Y.T(), B)
	r, k := B.Dims()
	cs := make([]float64, k) // 1ᵀB
	for i := 0; i < r; i++ {
		for j, v := range B.RawRowView(i) {
			cs[j] += v
		}
	}
	for i, m := range mu {
		row := dst.RawRowView(i)
		for j := range row {
			row[j] -= m * cs[j]
		}
	}
}

// centred returns Ŷ = Y − 1μᵀ as a new matrix.
func centred(Y *mat.Dense, mu []float64) *mat.Dense {
	n, p := Y.Dims()
	c := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		src, dst := Y.RawRowView(i), c.RawRowView(i)
		for j, v := range src {
			dst[j] = v - mu[j]
		}
	}
	return c
}

// sampleCov returns S = n⁻¹ ŶᵀŶ (p×p).
func sampleCov(Y *mat.Dense, mu []float64) *mat.SymDense {
	n, _ := Y.Dims()
	c := centred(Y, mu)
	var s mat.SymDense
	s.SymOuterK(1/float64(n), c.T())
	return &s
}

// covTimes sets dst = S B (p×k), from S when given, else as Ŷᵀ(ŶB)/n.
func covTimes(dst *mat.Dense, Y *mat.Dense, mu []float64, S *mat.SymDense, B *mat.Dense) {
	if S != nil {
		dst.Mul(S, B)
		return
	}
	n, _ := Y.Dims()
	_, k := B.Dims()
	yb := mat.NewDense(n, k, nil)
	centredMul(yb, Y, mu, B)
	centredTMul(dst, Y, mu, yb)
	dst.Scale(1/float64(n), dst)
}

// ppcaLogLik returns −(n/2)[p log 2π + (p−q) log σ² + log|M| + σ⁻²(tr S −
// tr(M⁻¹WᵀSW))], the log-likelihood of eq 2.1 written with the matrix
// inversion and determinant lemmas: C⁻¹ = σ⁻²(I − W M⁻¹ Wᵀ),
// |C| = σ^{2(p−q)}|M|, M = WᵀW + σ²I. sw holds S W.
func ppcaLogLik(n, p int, trS float64, w *mat.Dense, s2 float64, sw *mat.Dense) (float64, error) {
	_, q := w.Dims()
	minv, logdetM, err := mInverse(w, s2)
	if err != nil {
		return 0, err
	}
	var g mat.Dense
	g.Mul(w.T(), sw) // WᵀSW
	var t mat.Dense
	t.Mul(minv, &g)
	quad := (trS - mat.Trace(&t)) / s2
	return -0.5 * float64(n) * (float64(p)*math.Log(2*math.Pi) + float64(p-q)*math.Log(s2) + logdetM + quad), nil
}

// mInverse returns M⁻¹ and log|M| for M = WᵀW + σ²I.
func mInverse(w *mat.Dense, s2 float64) (*mat.SymDense, float64, error) {
	_, q := w.Dims()
	mm := mat.NewSymDense(q, nil)
	mm.SymOuterK(1, w.T())
	for i := 0; i < q; i++ {
		mm.SetSym(i, i, mm.At(i, i)+s2)
	}
	return symInverse(mm)
}

// symInverse returns the inverse and log-determinant of a symmetric
// positive-definite matrix by Cholesky.
func symInverse(a *mat.SymDense) (*mat.SymDense, float64, error) {
	var ch mat.Cholesky
	if !ch.Factorize(a) {
		return nil, 0, fmt.Errorf("%w: matrix not positive definite", ErrSingular)
	}
	var inv mat.SymDense
	if err := ch.InverseTo(&inv); err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrSingular, err)
	}
	return &inv, ch.LogDet(), nil
}

// centredSumSq returns Σᵢⱼ (y_ij − μ_j)² = n tr S.
func centredSumSq(Y *mat.Dense, mu []float64) float64 {
	n, _ := Y.Dims()
	var t float64
	for i := 0; i < n; i++ {
		for j, v := range Y.RawRowView(i) {
			d := v - mu[j]
			t += d * d
		}
	}
	return t
}

// smallCholInverse stores the inverse of the symmetric positive-definite
// q×q matrix a (row-major) in inv and returns log|a|, by an unblocked
// Cholesky factorisation in work; it is the allocation-free path for the
// tiny per-point matrices of the missing-data E-step.
func smallCholInverse(inv, a, work []float64, q int) (float64, bool) {
	l := work
	for t := range l {
		l[t] = 0
	}
	var logdet float64
	for j := 0; j < q; j++ {
		d := a[j*q+j]
		for k := 0; k < j; k++ {
			d -= l[j*q+k] * l[j*q+k]
		}
		if !(d > 0) {
			return 0, false
		}
		d = math.Sqrt(d)
		l[j*q+j] = d
		logdet += 2 * math.Log(d)
		for i := j + 1; i < q; i++ {
			v := a[i*q+j]
			for k := 0; k < j; k++ {
				v -= l[i*q+k] * l[j*q+k]
			}
			l[i*q+j] = v / d
		}
	}
	// Solve L Lᵀ X = I column by column.
	for c := 0; c < q; c++ {
		// forward: L z = e_c (z stored in inv column c)
		for i := 0; i < q; i++ {
			v := 0.0
			if i == c {
				v = 1
			}
			for k := 0; k < i; k++ {
				v -= l[i*q+k] * inv[k*q+c]
			}
			inv[i*q+c] = v / l[i*q+i]
		}
		// backward: Lᵀ x = z
		for i := q - 1; i >= 0; i-- {
			v := inv[i*q+c]
			for k := i + 1; k < q; k++ {
				v -= l[k*q+i] * inv[k*q+c]
			}
			inv[i*q+c] = v / l[i*q+i]
		}
	}
	return logdet, true
}

// ppcaNullLogLik is the log-likelihood of N(μ, σ²I).
func ppcaNullLogLik(n, p int, trS, s2 float64) float64 {
	return -0.5 * float64(n) * (float64(p)*math.Log(2*math.Pi*s2) + trS/s2)
}

// checkLatentDim is the shape check of the linear-Gaussian models (PPCA,
// FactorAnalysis): it panics unless 1 ≤ q < p (a programmer error) and
// returns an error wrapping ErrTooFewPoints when n ≤ q. method names the
// model in the messages.
func checkLatentDim(method string, q, n, p int) error {
	if q < 1 || q >= p {
		panic(fmt.Sprintf("dimred: %s Q = %d outside [1, p−1 = %d]", method, q, p-1))
	}
	if n <= q {
		return fmt.Errorf("%w: %s with q = %d needs n > q observations, have %d", ErrTooFewPoints, method, q, n)
	}
	return nil
}
