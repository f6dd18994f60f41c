package dimred

import (
	"math"

	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/linalg"

	"github.com/dimredbook/book/dimred/internal/vec"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// The shared core of the two sample-based latent variable models of book
// Chapter 6, the density network (§6.3) and the GTM (§6.5): both place the
// latent density on m fixed points x̂_1 … x̂_m (random samples, or a grid),
// map them to F = f(X̂) (m×p) and model each observation as the mixture
//
//	p(y_i) = (1/m) Σ_k N(y_i | f_k, β⁻¹ I).

// responsibilities stores in R (n×m) the posterior probabilities of the m
// latent points for each row of Y (n×p),
//
//	r_ik = exp(a_ik − lse_i),  a_ik = −(β/2)‖y_i − f_k‖²,  lse_i = log Σ_k exp(a_ik),
//
// computed in log space (the largest a_ik is subtracted before exp), and
// returns Σ_i lse_i. yy holds ‖y_i‖². The distances come from one matrix
// product Y Fᵀ; the row loop runs on all cores.
func responsibilities(R *mat.Dense, Y, F *mat.Dense, yy []float64, beta float64) float64 {
	n, _ := Y.Dims()
	m, _ := F.Dims()
	// Y·(Fᵀ copied): gonum's kernel is fastest with both operands untransposed.
	var ft mat.Dense
	ft.CloneFrom(F.T())
	R.Mul(Y, &ft)
	ff := linalg.RowSquaredNorms(F)
	raw := R.RawMatrix()
	lse := make([]float64, n)
	parallel.ForWork(n, n*m*8, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+m]
			amax := math.Inf(-1)
			for k, yf := range row {
				d := yy[i] + ff[k] - 2*yf
				if d < 0 {
					d = 0
				}
				a := -0.5 * beta * d
				row[k] = a
				if a > amax {
					amax = a
				}
			}
			if math.IsInf(amax, -1) || math.IsNaN(amax) {
				// ‖y_i‖² (or y_i·f_k) overflowed although y_i is
				// finite: every a_ik is −Inf or NaN. Take the limit
				// instead (farResponsibilities), never NaN.
				lse[i] = farResponsibilities(row, Y.RawRowView(i), F, ff, beta)
				continue
			}
			s := 0.0
			for k, a := range row {
				e := math.Exp(a - amax)
				row[k] = e
				s += e
			}
			floats.Scale(1/s, row)
			lse[i] = amax + math.Log(s)
		}
	})
	return vec.Sum(lse)
}

// farResponsibilities stores in row the responsibilities r_k of the m
// latent points for an observation y so far from the origin that ‖y‖²
// overflows float64, and returns lse = −Inf (the log-likelihood of such a
// point under the model underflows). The common term ‖y‖² cancels in r_k;
// with s = max_j |y_j| and ỹ = y/s,
//
//	a_k − a_min = −(β/2)·s·(c_k − c_min),  c_k = ‖f_k‖²/s − 2 ỹ·f_k,
//
// so r_k ∝ exp(−(β/2)·s·(c_k − c_min)), computed without overflow: the
// nearest latent points share the whole mass in the limit.
func farResponsibilities(row, y []float64, F *mat.Dense, ff []float64, beta float64) float64 {
	s := floats.Norm(y, math.Inf(1))
	cmin := math.Inf(1)
	for k := range row {
		c := ff[k] / s
		for j, f := range F.RawRowView(k) {
			c -= 2 * (y[j] / s) * f
		}
		row[k] = c
		cmin = math.Min(cmin, c)
	}
	sum := 0.0
	for k, c := range row {
		e := 1.0
		if c != cmin {
			e = math.Exp(-0.5 * beta * s * (c - cmin))
		}
		row[k] = e
		sum += e
	}
	floats.Scale(1/sum, row)
	return math.Inf(-1)
}

// mixtureLogLik is the log-likelihood of the mixture given Σ_i lse_i:
//
//	Σ_i lse_i + (np/2) log(β/2π) − n log m.
func mixtureLogLik(sumLSE float64, n, p, m int, beta float64) float64 {
	return sumLSE + 0.5*float64(n*p)*math.Log(beta/(2*math.Pi)) - float64(n)*math.Log(float64(m))
}

// weightedSqDist returns Σ_ik r_ik ‖y_i − f_k‖² from RᵀY (m×p), the
// column sums g of R, ΣYY = Σ_i ‖y_i‖² and F, without forming the n×m
// distances: ΣYY − 2 tr(Fᵀ RᵀY) + Σ_k g_k ‖f_k‖².
func weightedSqDist(RtY, F *mat.Dense, g []float64, sumYY float64) float64 {
	m, p := F.Dims()
	s := sumYY
	for k := 0; k < m; k++ {
		fk := F.RawRowView(k)
		s += g[k]*floats.Dot(fk, fk) - 2*floats.Dot(fk, RtY.RawRowView(k)[:p])
	}
	return max(s, 0)
}

// rtY returns RᵀY (m×p) as (YᵀR)ᵀ, whose product runs along the long
// dimension m.
func rtY(R, Y *mat.Dense) *mat.Dense {
	var ytr mat.Dense
	ytr.Mul(Y.T(), R)
	out := new(mat.Dense)
	out.CloneFrom(ytr.T())
	return out
}

// latentMeansTo stores the posterior means R X̂ (n×q) in dst.
func latentMeansTo(dst *mat.Dense, R, Xhat *mat.Dense) {
	dst.Mul(R, Xhat)
}

// latentModesTo stores the latent point of largest responsibility for each
// row of R in dst (n×q).
func latentModesTo(dst *mat.Dense, R, Xhat *mat.Dense) {
	n, _ := R.Dims()
	for i := 0; i < n; i++ {
		k := floats.MaxIdx(R.RawRowView(i))
		dst.SetRow(i, Xhat.RawRowView(k))
	}
}
