package dimred

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// ColumnMeans returns the p column means of the n×p matrix Y.
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
// returns the means. An empty dst is resized; dst may be Y itself.
func CentreColumns(dst *mat.Dense, Y mat.Matrix) []float64 {
	n, p := Y.Dims()
	mu := ColumnMeans(Y)
	if dst != Y {
		reuseAs(dst, n, p)
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
// be Y itself. Y needs at least two rows.
func Standardise(dst *mat.Dense, Y mat.Matrix) []float64 {
	n, p := Y.Dims()
	if n < 2 {
		panic("dimred: Standardise needs at least two rows")
	}
	sd := ColumnVariances(Y)
	for j := range sd {
		sd[j] = math.Sqrt(sd[j])
		if sd[j] == 0 {
			sd[j] = 1
		}
	}
	if dst != Y {
		reuseAs(dst, n, p)
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
