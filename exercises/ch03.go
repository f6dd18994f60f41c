package exercises

import (
	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred/linalg"
	"gonum.org/v1/gonum/mat"
)

// Chapter 3 — distance matching.

func init() {
	// 3.2: the mean of the normalised squared distances d_ij/p over the
	// n(n−1) ordered pairs of the rotated sixes (pixels divided by 255),
	// which equals (2/p) Σ_k ς²_k with ς²_k the unbiased column variances:
	// the error every selection and PCA curve of the chapter starts from.
	Register("3.2", Answer{
		Want: func() (any, error) {
			ds, err := datasets.RotatedSixes()
			if err != nil {
				return nil, err
			}
			Y := mat.DenseCopyOf(ds.Y)
			Y.Scale(1.0/255, Y)
			_, p := Y.Dims()
			tot := 0.0
			for _, v := range linalg.ColumnVariances(Y) {
				tot += v
			}
			return 2 * tot / float64(p), nil
		},
		Tol:  1e-9,
		Hint: "the variances are the unbiased ones (n−1), the pixels are divided by 255 and the distances by p",
	})
}
