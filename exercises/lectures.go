package exercises

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred/linalg"
	"gonum.org/v1/gonum/mat"
)

// The answers of the lecture notebooks' exercises (notebooks/src/L1-…,
// L2-…, L3-…), computed by the library from the data on first use.

func init() {
	// Lecture 1 — PCA three ways, on the USPS training digits.
	Register("L1.1", Answer{Hint: "S = n⁻¹ŶᵀŶ with n, the maximum-likelihood covariance of the book",
		Want: func() (any, error) {
			vals, _, _, err := uspsPCA()
			if err != nil {
				return nil, err
			}
			return vals[0], nil
		}})
	Register("L1.2", Answer{Hint: "average the squared error over the n digits",
		Want: func() (any, error) {
			vals, _, _, err := uspsPCA()
			if err != nil {
				return nil, err
			}
			return tailSum(vals, 10), nil
		}})
	Register("L1.3", Answer{Hint: "the singular values of Ŷ are √(nλ), not √λ",
		Want: func() (any, error) {
			vals, _, n, err := uspsPCA()
			if err != nil {
				return nil, err
			}
			l := make([]float64, 5)
			for k := range l {
				l[k] = math.Sqrt(float64(n) * vals[k])
			}
			return l, nil
		}})
	Register("L1.4", Answer{UpToSign: true, Hint: "whitened coordinates have unit variance: divide by √λ, not by the singular value √(nλ)",
		Want: func() (any, error) {
			vals, R, _, err := uspsPCA()
			if err != nil {
				return nil, err
			}
			Y, err := uspsTrain()
			if err != nil {
				return nil, err
			}
			var Yc mat.Dense
			linalg.CentreColumns(&Yc, Y)
			_, p := Yc.Dims()
			var X mat.Dense
			X.Mul(Yc.Slice(0, 5, 0, p), R.Slice(0, p, 0, 3))
			for k := 0; k < 3; k++ {
				for i := 0; i < 5; i++ {
					X.Set(i, k, X.At(i, k)/math.Sqrt(vals[k]))
				}
			}
			return &X, nil
		}})
	Register("L1.5", Answer{Hint: "the smallest q whose discarded eigenvalues sum to less than 5 % of the total",
		Want: func() (any, error) {
			vals, _, _, err := uspsPCA()
			if err != nil {
				return nil, err
			}
			total := tailSum(vals, 0)
			q := 0
			for tailSum(vals, q) >= 0.05*total {
				q++
			}
			return q, nil
		}})
}

// uspsTrain returns the USPS training digits, 7291×256.
func uspsTrain() (*mat.Dense, error) {
	ds, err := datasets.USPS("train")
	if err != nil {
		return nil, fmt.Errorf("the USPS digits: %w", err)
	}
	return ds.Y, nil
}

// uspsPCA returns the eigenvalues (descending) and eigenvectors (columns)
// of the USPS training digits' covariance S = n⁻¹ŶᵀŶ, and n.
func uspsPCA() ([]float64, *mat.Dense, int, error) {
	Y, err := uspsTrain()
	if err != nil {
		return nil, nil, 0, err
	}
	vals, R, err := covarianceEigen(Y)
	n, _ := Y.Dims()
	return vals, R, n, err
}

// covarianceEigen returns all eigenpairs of S = n⁻¹ŶᵀŶ, eigenvalues in
// descending order.
func covarianceEigen(Y mat.Matrix) ([]float64, *mat.Dense, error) {
	var Yc mat.Dense
	linalg.CentreColumns(&Yc, Y)
	n, p := Yc.Dims()
	S := mat.NewSymDense(p, nil)
	S.SymOuterK(1/float64(n), Yc.T())
	return linalg.EigenSym(S, p, linalg.Largest, nil)
}

// tailSum returns Σ_{k>q} vals[k] (vals indexed from 0).
func tailSum(vals []float64, q int) float64 {
	s := 0.0
	for _, v := range vals[q:] {
		s += v
	}
	return s
}
