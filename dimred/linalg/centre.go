package linalg

import (
	"math"

	"github.com/dimredbook/book/dimred/internal/dense"

	"gonum.org/v1/gonum/mat"
)

// ColumnMeans returns the p column means of the n×p matrix Y. NaN in, NaN
// out: like gonum's mat it does not check its input; callers validate.
func ColumnMeans(Y mat.Matrix) []float64 {
	n, p := Y.Dims()
	mu := make([]float64, p)
	if yd, ok := Y.(*mat.Dense); ok {
		// Same sums, over raw rows.
		for i := 0; i < n; i++ {
			for j, v := range yd.RawRowView(i) {
				mu[j] += v
			}
		}
	} else {
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				mu[j] += Y.At(i, j)
			}
		}
	}
	for j := range mu {
		mu[j] /= float64(n)
	}
	return mu
}

// CentreColumns stores Ŷ = H Y in dst, Y with its column means removed, and
// returns the means. An empty dst is resized; dst may be Y itself. NaN in,
// NaN out: like gonum's mat it does not check its input; callers validate.
func CentreColumns(dst *mat.Dense, Y mat.Matrix) []float64 {
	n, p := Y.Dims()
	mu := ColumnMeans(Y)
	if dst != Y {
		dense.ReuseAs(dst, n, p)
		dst.Copy(Y)
	}
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		for j := range row {
			row[j] -= mu[j]
		}
	}
	return mu
}

// Standardise stores in dst the columns of Y divided by their sample
// standard deviations (normaliser n−1, as MATLAB's var; a constant column is
// divided by 1), the convention of the book's interpoint-distance
// histograms. The columns are not centred: distances do not depend on it.
// It returns the standard deviations used. An empty dst is resized; dst may
// be Y itself. Y needs at least two rows. NaN in, NaN out: like gonum's mat
// it does not check its input; callers validate.
func Standardise(dst *mat.Dense, Y mat.Matrix) []float64 {
	n, p := Y.Dims()
	if n < 2 {
		panic("dimred: Standardise needs at least two rows")
	}
	sd := ColumnVariances(Y)
	for j := range sd {
		if math.IsInf(sd[j], 1) {
			// The variance of finite entries overflowed (a column
			// ~1e300): the standard deviation itself is finite, s·sd(y/s)
			// with s the column's largest |y| (it was +Inf, and the
			// column became 0).
			sd[j] = scaledColumnSD(Y, j)
			continue
		}
		sd[j] = math.Sqrt(sd[j])
		if sd[j] == 0 {
			sd[j] = 1
		}
	}
	if dst != Y {
		dense.ReuseAs(dst, n, p)
		dst.Copy(Y)
	}
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		for j := range row {
			row[j] /= sd[j]
		}
	}
	return sd
}

// scaledColumnSD is the sample standard deviation of column j of Y
// computed on Y/s, s the column's largest |y_ij|, and scaled back: finite
// whenever the entries are.
func scaledColumnSD(Y mat.Matrix, j int) float64 {
	n, _ := Y.Dims()
	s := 0.0
	for i := 0; i < n; i++ {
		s = math.Max(s, math.Abs(Y.At(i, j)))
	}
	if s == 0 || math.IsInf(s, 0) || math.IsNaN(s) {
		return math.Inf(1)
	}
	mu := 0.0
	for i := 0; i < n; i++ {
		mu += Y.At(i, j) / s
	}
	mu /= float64(n)
	v := 0.0
	for i := 0; i < n; i++ {
		d := Y.At(i, j)/s - mu
		v += d * d
	}
	return s * math.Sqrt(v/float64(n-1))
}

// ColumnVariances returns the unbiased sample variance of each column of
// the n×p matrix Y, ς²_k = (n−1)⁻¹ Σ_i (y_ik − μ_k)², the estimator the
// book's feature-selection derivation uses (§3.3, footnote 4). n ≥ 2. NaN
// in, NaN out: like gonum's mat it does not check its input; callers
// validate.
func ColumnVariances(Y mat.Matrix) []float64 {
	n, p := Y.Dims()
	if n < 2 {
		panic("dimred: ColumnVariances needs at least two rows")
	}
	mu := ColumnMeans(Y)
	v := make([]float64, p)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			d := Y.At(i, j) - mu[j]
			v[j] += d * d
		}
	}
	for j := range v {
		v[j] /= float64(n - 1)
	}
	return v
}

// DoubleCentre stores B = −½ H D H in dst and returns it, the "standard
// transformation" of squared distances into centred inner products (§3.5):
// b_ij = −½ (d_ij − r_i − r_j + g) with r_i the row means and g the grand
// mean of D. For Euclidean D = D(Y), B = ŶŶᵀ. A nil dst is allocated; a
// dst of the wrong size panics with mat.ErrShape. NaN in, NaN out (a NaN
// in D reaches every entry of B through the grand mean): like gonum's mat
// it does not check its input; callers validate.
func DoubleCentre(dst *mat.SymDense, D mat.Symmetric) *mat.SymDense {
	n := D.SymmetricDim()
	if dst == nil {
		dst = mat.NewSymDense(n, nil)
	} else if dst.IsEmpty() {
		dst.ReuseAsSym(n)
	} else if dst.SymmetricDim() != n {
		panic(mat.ErrShape)
	}
	r := make([]float64, n)
	g := 0.0
	for i := 0; i < n; i++ {
		s := 0.0
		for j := 0; j < n; j++ {
			s += D.At(i, j)
		}
		r[i] = s / float64(n)
		g += r[i]
	}
	g /= float64(n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			dst.SetSym(i, j, -0.5*(D.At(i, j)-r[i]-r[j]+g))
		}
	}
	return dst
}
