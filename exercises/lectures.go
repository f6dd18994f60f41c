package exercises

import (
	"fmt"
	"math"
	"sort"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
	"github.com/dimredbook/book/dimred/kernel"
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

	// Lecture 2 — kernel PCA and the GP-LVM, on the oil-flow training data.
	Register("L2.1", Answer{Hint: "the feature-space covariance has 1/n: its eigenvalues are those of the centred kernel matrix divided by n",
		Want: func() (any, error) {
			m, err := oilKernelPCA()
			if err != nil {
				return nil, err
			}
			return m.mu / float64(m.n), nil
		}})
	Register("L2.2", Answer{UpToSign: true, Hint: "a unit direction u = Φ̂ᵀa needs aᵀK̃a = 1",
		Want: func() (any, error) {
			m, err := oilKernelPCA()
			if err != nil {
				return nil, err
			}
			a := make([]float64, len(m.e))
			for i, e := range m.e {
				a[i] = e / math.Sqrt(m.mu)
			}
			return a, nil
		}})
	Register("L2.3", Answer{Hint: "σ² is the mean of the p − q discarded eigenvalues of S = n⁻¹ŶᵀŶ",
		Want: func() (any, error) {
			m, err := oilPPCA()
			if err != nil {
				return nil, err
			}
			return m.NoiseVariance(), nil
		}})
	Register("L2.4", Answer{Hint: "the constant is −(np/2) log 2π, one log 2π per data dimension",
		Want: func() (any, error) {
			m, err := oilPPCA()
			if err != nil {
				return nil, err
			}
			return m.LogLikelihood(), nil
		}})

	// Lecture 3 — the 2008 talk: the rotated sixes and the road distances.
	Register("L3.1", Answer{Hint: "E = 2n²Σ_{k>q} λ_k with the 1/n eigenvalues of S",
		Want: func() (any, error) {
			ds, err := datasets.RotatedSixes()
			if err != nil {
				return nil, fmt.Errorf("the rotated sixes: %w", err)
			}
			Y := mat.DenseCopyOf(ds.Y)
			Y.Scale(1.0/255, Y)
			var Yc mat.Dense
			linalg.CentreColumns(&Yc, Y)
			n, _ := Yc.Dims()
			K := mat.NewSymDense(n, nil)
			linalg.Gram(K, &Yc)
			mu, _, err := linalg.EigenSym(K, n-1, linalg.Largest, nil)
			if err != nil {
				return nil, err
			}
			// The eigenvalues of S are those of the Gram matrix over n.
			return 2 * float64(n*n) * tailSum(mu, 10) / float64(n), nil
		}})
	Register("L3.2", Answer{Hint: "B = −½ H D⁽²⁾ H with the distances squared",
		Want: func() (any, error) {
			vals, err := roadSpectrum()
			if err != nil {
				return nil, err
			}
			return vals[0], nil
		}})
	Register("L3.3", Answer{Hint: "count the eigenvalues of B below −10⁻⁶ times the largest",
		Want: func() (any, error) {
			vals, err := roadSpectrum()
			if err != nil {
				return nil, err
			}
			neg := 0
			for _, v := range vals {
				if v < -1e-6*vals[0] {
					neg++
				}
			}
			return neg, nil
		}})
}

// roadSpectrum returns all eigenvalues, descending, of classical MDS's
// B = −½ H D⁽²⁾ H for the 48-city road distances of the 2008 talk.
func roadSpectrum() ([]float64, error) {
	d, err := datasets.EuropeRoads(datasets.Cities48)
	if err != nil {
		return nil, fmt.Errorf("the road distances: %w", err)
	}
	m := dimred.ClassicalMDS{Q: 1, Plain: true, FullSpectrum: true}
	if err := m.FitDistances(d.D); err != nil {
		return nil, err
	}
	vals := m.EigenvaluesTo(nil)
	sort.Sort(sort.Reverse(sort.Float64Slice(vals)))
	return vals, nil
}

// oilTrain returns the oil-flow training data, 1000×12.
func oilTrain() (*mat.Dense, error) {
	ds, err := datasets.Oil("train")
	if err != nil {
		return nil, fmt.Errorf("the oil-flow data: %w", err)
	}
	return ds.Y, nil
}

// oilKPCA is kernel PCA's leading eigenpair of the centred RBF (ℓ = 1)
// kernel matrix of the first 100 oil points: μ₁ and the unit e₁.
type oilKPCA struct {
	n  int
	mu float64
	e  []float64
}

func oilKernelPCA() (oilKPCA, error) {
	Y, err := oilTrain()
	if err != nil {
		return oilKPCA{}, err
	}
	m := dimred.KernelPCA{Kernel: kernel.RBF{LengthScale: 1}, Q: 1}
	if err := m.Fit(Y.Slice(0, 100, 0, 12)); err != nil {
		return oilKPCA{}, err
	}
	var E mat.Dense
	m.EigenvectorsTo(&E)
	return oilKPCA{n: 100, mu: m.EigenvaluesTo(nil)[0], e: mat.Col(nil, 0, &E)}, nil
}

// oilPPCA is probabilistic PCA with q = 2 fitted to the oil training data.
func oilPPCA() (*dimred.PPCA, error) {
	Y, err := oilTrain()
	if err != nil {
		return nil, err
	}
	m := &dimred.PPCA{Q: 2}
	return m, m.Fit(Y)
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
